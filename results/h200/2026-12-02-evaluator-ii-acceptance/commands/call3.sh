# After the judge's fixes (2db4d08, abdfbbb): issue 24's classes stage and scale_bias_leaky's export (call 1
# judged its kernel wrong), the 3 ms task's cost, relu's eager; then a first run of kernels/gemm (issue 27).
# Kernels were compiled on the CPU machine into the carried cache .cache/xdg (same paths, nvcc and CUTLASS
# there) and the GEMM bench library into build/gemm-bench (bench/gemm of the hopper-gemm branch, HEAD named in
# build/gemm-bench/COMMIT).
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
S=$(date +%s); R=$OUT/res; mkdir -p $R
pack() { tar czf $OUT/res.tgz.part -C $OUT res && mv $OUT/res.tgz.part $OUT/res.tgz; echo "t=$(( $(date +%s) - S )) s"; }
export XDG_CACHE_HOME=$PWD/.cache/xdg
EXPORT_TASKS=scale_bias_leaky timeout ${B_S:-140} scripts/gpu $R/stages classes export > $R/stages.txt 2>&1
cp .gpu/classes.txt .gpu/export.txt .gpu/export_*.txt .gpu/class_*.txt $R/ 2>/dev/null; cat $R/classes.txt $R/export.txt; pack
ev() { # name task kernel
  timeout 80 build/src/cutegen --json --set eval.timed_runs=30 --set eval.trials=2 --set eval.timeout_s=75 eval $2 $3 > $R/new-$1.json 2> $R/new-$1.err
  python3 tests/gpu/verdict_row.py $R/new-$1.json "new $1" pass | cut -c1-200
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); w=d.get("worker") or {}; t=w.get("timing") or {}; print("   eval_s", d.get("eval_seconds"), "judge_s", w.get("judge_seconds"), "eager halves", t.get("reference_phases_ms"), "quiet_s", (t.get("calibration") or {}).get("quiet_wait_s"))' $R/new-$1.json 2>/dev/null
}
ev bench3ms bench/relu_3ms.py tests/gpu/relu/honest_relu.cu; pack
ev relu tasks/relu.py tests/gpu/relu/honest_relu.cu; pack
G=build/gemm-bench
LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} timeout ${C_S:-100} python3 $G/bench_gemm.py --lib $G/libcutegen_gemm_bench.so --samples 10 --json $R/gemm.json > $R/gemm.txt 2>&1
echo "gemm exit $?"; tail -45 $R/gemm.txt; pack
