# Call B (issue 27): the expert's default kernels, fp32 now split ahead, through the evaluator: tasks/'
# fp32 GEMMs (stage expert) and KernelBench's GEMM tasks (stage kb, KB_GLOB=gemm), one trial each,
# eager only. Kernels prebuilt by prep.sh into .prep/cache-kb.tgz. Carry build/src/cutegen,
# build/src/cutegen-runner, .deps/wheels, .prep/cache-kb.tgz, .kb.
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
scripts/bootstrap --offline --no-apt --no-torch >/dev/null || exit 1
tar xzf .prep/cache-kb.tgz
XDG_CACHE_HOME=$PWD/.cache/xdg-kb KB_GLOB=gemm EXPERT_TRIALS=1 EXPERT_COMPILE=false \
  EXPERT_TASKS="tasks/matmul_fp32.py tasks/linear_bias_relu.py tasks/linear_multiply_leaky.py tasks/batched_matmul.py" \
  timeout 570 scripts/gpu $OUT/gpu expert kb > $OUT/gpu.log 2>&1
cat .gpu/expert.txt .gpu/kb.txt | cut -c1-160
