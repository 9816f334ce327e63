# Call A (issue 27): fp32 GEMMs by 3xTF32, split in the mainloop beside split ahead (promoting every
# 1/2/4 k-tile spans), at 4096^3 and at KernelBench level 1's shapes, beside torch.matmul in one process
# per group. Carry build/gemm-bench (bench/gemm/build.sh) and .deps/wheels.
export PATH=$PATH:/usr/local/cuda/bin LD_LIBRARY_PATH=/usr/local/cuda/lib64 PYTHONUNBUFFERED=1
so=build/gemm-bench/libcutegen_gemm_bench.so; o=$OUT/res; mkdir -p $o
b() { n=$1; shift; echo "== $n"; timeout 250 python3 bench/gemm/bench_gemm.py --lib $so --json $o/$n.json "$@" > $o/$n.txt 2>&1; echo "status $?"; tail -25 $o/$n.txt; }
b fp32-4096 --only 'fp32 4096' --variants '^(ws|pingpong)'
b kernelbench-fp32 --only 'kb ' --variants '\.f32>|\.3xtf32>'
python3 bench/gemm/bench_gemm.py --summarize $o/fp32-4096.json $o/kernelbench-fp32.json | tee $o/summary.txt
tar czf $OUT/res.tgz -C $OUT res
