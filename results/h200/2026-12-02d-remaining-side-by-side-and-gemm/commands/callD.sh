# Call D (issues 25, 28, 27): the honest ReLU on a quiet machine, then twice beside 16 busy loops
# (the judge now allows each batch its threads' run-queue delay, and checks the runner's CPU time);
# `cutegen resume gpus-all` to finish the cut run and its report; then the expert's GEMMs on
# KernelBench (prebuilt into .prep/cache-kb.tgz = .cache/xdg-kb, with the compare library).
# Carry: build/src/cutegen, build/src/cutegen-runner, .deps/wheels, .prep/cache-kb.tgz, .runs, .kb
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
scripts/bootstrap --offline --no-apt --no-torch >/dev/null || exit 1
tar xzf .prep/cache-kb.tgz; R=$OUT/res; mkdir -p $R/run; S=$(date +%s)
export XDG_CACHE_HOME=$PWD/.cache/xdg-kb
pack() { tar czf $OUT/res.tgz.part -C $OUT res && mv $OUT/res.tgz.part $OUT/res.tgz; echo "t=$(( $(date +%s) - S )) s"; }
ev() { timeout 120 build/src/cutegen --json eval tasks/relu.py tests/gpu/relu/honest_relu.cu > $R/$1.json 2> $R/$1.err
  python3 tests/gpu/verdict_row.py $R/$1.json "$1" pass | cut -c1-240
  python3 -c "import json,sys; a=json.load(open(sys.argv[1]))['timing']['accounting']; print('  waited %.3f ms, unaccounted %+.4f (tol %.4f), runner cpu %.0f ms / batches %.0f ms' % (a['waited_ms'], a['worst_unaccounted_ms'], a['tolerance_ms'], a['runner_cpu_ms'], a['runner_batch_ms']))" $R/$1.json; }
ev quiet
for i in $(seq 16); do timeout 60 sh -c 'while :; do :; done' & done
for k in 1 2 3; do ev busy$k; done
kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; pack
rm -f .runs/gpus-all/run.lock
timeout 240 build/src/cutegen resume gpus-all > $R/run/resume.txt 2>&1; echo "resume exit $?" | tee -a $R/run/resume.txt
build/src/cutegen status gpus-all > $R/run/status.txt 2>&1; build/src/cutegen report gpus-all --out $R/run/report.html > $R/run/report.txt 2>&1
cp .runs/gpus-all/summary.md $R/run/ 2>/dev/null; tar czf $R/run/run-folder.tgz -C .runs gpus-all; cat $R/run/status.txt; pack
KB_GLOB=gemm EXPERT_TRIALS=1 EXPERT_COMPILE=false timeout $(( 575 - ($(date +%s) - S) )) scripts/gpu $R/kb kb > $R/kb.log 2>&1
cp .gpu/kb.txt $R/ 2>/dev/null; tail -45 $R/kb.log | cut -c1-200; pack
