# On the CPU machine, before call B (repo root, build/src/cutegen at this commit): the expert's default
# kernels for KernelBench's GEMM tasks (KB_GLOB=gemm of scripts/gpu) and tasks/' fp32 GEMMs, emitted
# and compiled into the cache the GPU call reads (scripts/gpu's expert_prepare then hits it).
mkdir -p .prep/kb; rm -rf .cache/xdg-kb .prep/kb/*
for f in .kb/level1/[1-46-9]_*.py .kb/level1/1[0-8]_*.py .kb/level2/{9,12,29,40,53,59,63,68,70,76,81,86,95}_*.py \
         tasks/{matmul_fp32,linear_bias_relu,linear_multiply_leaky,batched_matmul}.py; do
  n=$(basename $f .py); build/src/cutegen expert $f --emit > .prep/kb/$n.cu 2>/dev/null && echo "$f .prep/kb/$n.cu"
done | xargs -P 2 -L 1 sh -c 'XDG_CACHE_HOME=$PWD/.cache/xdg-kb nice build/src/cutegen build --task $0 $1 > /dev/null || echo "FAILED $1"'
XDG_CACHE_HOME=$PWD/.cache/xdg-kb build/src/cutegen build bridge/cutegen_bridge/fast_compare.cu > /dev/null
tar czf .prep/cache-kb.tgz .cache/xdg-kb
