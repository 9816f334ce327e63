# Next session, call B (issue 27): the GEMM benchmark, every variant beside torch.matmul, fp32 spans p1/p2/p4
# among them. Carry build/gemm-bench (bench/gemm/build.sh on the CPU machine) and .deps/wheels.
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
bench/gemm/run.sh 2>&1 | tee $OUT/gemm.txt | tail -60
