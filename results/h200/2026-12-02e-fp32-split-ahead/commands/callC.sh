# Call C (issue 29): the expert's default kernels for KernelBench level 1's convolutions through the
# evaluator, first GPU run (one trial each, eager only). Kernels prebuilt by prep_conv.sh. Carry
# build/src/cutegen, build/src/cutegen-runner, .deps/wheels, .prep/cache-conv.tgz, .kb.
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
scripts/bootstrap --offline --no-apt --no-torch >/dev/null || exit 1
tar xzf .prep/cache-conv.tgz
XDG_CACHE_HOME=$PWD/.cache/xdg-conv KB_GLOB="$(cd .kb/level1 && ls *conv*.py | sed 's/\.py$//' | paste -sd' ')" \
  EXPERT_TRIALS=1 EXPERT_COMPILE=false timeout 570 scripts/gpu $OUT/gpu kb > $OUT/gpu.log 2>&1
cut -c1-160 .gpu/kb.txt
