# Next session, call A (issues 25 and 28): the side by side of the 6 honest kernels not reached on
# 2026-12-02, matmul_bf16 twice more (old, new, old, new: is the 10% both sides moved the machine?), then
# `cutegen resume gpus-all` (the run of results/h200/2026-12-02c-.../call2/run, carried in .runs/) and its report.
# Prep (CPU): .prep/cache-sbs.tgz = .cache/xdg-new + .cache/xdg-old; carry build/src/cutegen,
# build/src/cutegen-runner, .deps/wheels, .old, .prep/cache-sbs.tgz, .prep/kernels, .prep/headers, .runs
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
scripts/bootstrap --offline --no-apt --no-torch >/dev/null || exit 1
tar xzf .prep/cache-sbs.tgz; R=$OUT/res; mkdir -p $R/run; S=$(date +%s)
pack() { tar czf $OUT/res.tgz.part -C $OUT res && mv $OUT/res.tgz.part $OUT/res.tgz; echo "t=$(( $(date +%s) - S )) s"; }
ev() { # evaluator label task kernel expected
  local b=build/src/cutegen c=$PWD/.cache/xdg-new; [ $1 = old ] && { b=.old/build/src/cutegen; c=$PWD/.cache/xdg-old; }
  XDG_CACHE_HOME=$c timeout 120 $b --json eval $3 $4 > $R/$1-$2.json 2> $R/$1-$2.err
  python3 tests/gpu/verdict_row.py $R/$1-$2.json "$1 $2" "$5" | cut -c1-220
}
for t in scale_bias_leaky selu sigmoid softmax softmax_small_odd sum_dim matmul_bf16; do
  for b in old new; do ev $b $t tasks/$t.py .prep/kernels/$t.cu pass; done; done
for b in old new; do ev $b matmul_bf16.again tasks/matmul_bf16.py .prep/kernels/matmul_bf16.cu pass; done
python3 bench/side_by_side.py $R > $R/side_by_side.md 2>&1; cat $R/side_by_side.md; pack
# The judge on a busy machine: 16 busy loops (one per core, not niced) beside two evaluations of the honest
# ReLU; expected: pass (preempted batches rerun), else a rejection that names the busy machine.
for i in $(seq 16); do timeout 45 sh -c 'while :; do :; done' & done
for k in 1 2; do ev new busy$k tasks/relu.py tests/gpu/relu/honest_relu.cu pass; done
kill $(jobs -p) 2>/dev/null; pack
rm -f .runs/gpus-all/run.lock
XDG_CACHE_HOME=$PWD/.cache/xdg-new timeout $(( 570 - ($(date +%s) - S) )) build/src/cutegen resume gpus-all > $R/run/resume.txt 2>&1
echo "resume exit $?" | tee -a $R/run/resume.txt
build/src/cutegen status gpus-all > $R/run/status.txt 2>&1; build/src/cutegen report gpus-all --out $R/run/report.html > $R/run/report.txt 2>&1
cp .runs/gpus-all/summary.md $R/run/ 2>/dev/null; tar czf $R/run/run-folder.tgz -C .runs gpus-all; tail -8 $R/run/resume.txt; cat $R/run/status.txt; pack
