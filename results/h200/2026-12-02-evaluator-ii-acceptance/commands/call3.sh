# After the fixes of 2db4d08 (eager/float64 complete before compare; eager's second half after a quiet GPU):
# issue 24's classes and export stages, then the kernels calls 1-2 judged wrong, the 3 ms task's cost, relu side by side.
# Kernels were compiled on the CPU machine into the carried caches (.cache/xdg, .cache/xdg-old: same paths, nvcc, CUTLASS).
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
S=$(date +%s); R=$OUT/res; mkdir -p $R
NEW=build/src/cutegen OLD=.old/build/src/cutegen
pack() { tar czf $OUT/res.tgz.part -C $OUT res && mv $OUT/res.tgz.part $OUT/res.tgz; echo "t=$(( $(date +%s) - S )) s"; }
XDG_CACHE_HOME=$PWD/.cache/xdg timeout ${B_S:-150} scripts/gpu $R/stages classes export > $R/stages.txt 2>&1
cp .gpu/classes.txt .gpu/export.txt .gpu/export_*.txt .gpu/class_*.txt $R/ 2>/dev/null; cat $R/classes.txt $R/export.txt; pack
ev() { # label name task kernel
  local b=$NEW c=$PWD/.cache/xdg; [ $1 = old ] && b=$OLD c=$PWD/.cache/xdg-old
  XDG_CACHE_HOME=$c timeout 90 $b --json --set eval.timed_runs=30 --set eval.trials=2 --set eval.timeout_s=80 eval $3 $4 > $R/$1-$2.json 2> $R/$1-$2.err
  python3 tests/gpu/verdict_row.py $R/$1-$2.json "$1 $2" pass | cut -c1-200
  python3 -c 'import json,sys; w=json.load(open(sys.argv[1])).get("worker") or {}; print("   judge_s", w.get("judge_seconds"), "eager halves", (w.get("timing") or {}).get("reference_phases_ms"), "quiet", ((w.get("timing") or {}).get("calibration") or {}).get("quiet_wait_s"))' $R/$1-$2.json 2>/dev/null
}
mkdir -p /tmp/k3; $NEW expert tasks/scale_bias_leaky.py --emit > /tmp/k3/scale_bias_leaky.cu
ev new scale_bias_leaky tasks/scale_bias_leaky.py /tmp/k3/scale_bias_leaky.cu
ev new matmul_bf16 tasks/matmul_bf16.py tests/gpu/matmul_bf16/cute_gemm.cu; pack
ev new bench3ms bench/relu_3ms.py tests/gpu/relu/honest_relu.cu; pack
for b in old new; do ev $b relu tasks/relu.py tests/gpu/relu/honest_relu.cu; done; pack
[ -x bench/gemm/run.sh ] && timeout ${C_S:-60} bench/gemm/run.sh > $R/gemm.txt 2>&1; tail -30 $R/gemm.txt 2>/dev/null; pack
