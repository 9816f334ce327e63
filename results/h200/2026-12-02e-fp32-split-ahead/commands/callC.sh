# Call C (issue 29): the expert's default kernels for KernelBench level 1's convolutions through the
# evaluator, first GPU run (one trial each, eager only). Kernels prebuilt by prep_conv.sh. Carry
# build/src/cutegen, build/src/cutegen-runner, .deps/wheels, .prep/cache-conv.tgz, .kb.
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
scripts/bootstrap --offline --no-apt --no-torch >/dev/null || exit 1
tar xzf .prep/cache-conv.tgz
# One of each family first (the call may end before the last), then the rest in order.
first="63_* 55_* 87_* 67_* 54_* 57_* 82_* 64_* 61_* 50_* 76_* 80_* 65_* 84_*"
rest="$(cd .kb/level1 && ls *conv*.py | grep -v -E "^($(echo "$first" | sed 's/_\* /_|/g; s/_\*$/_/'))" | sed 's/\.py$//' | paste -sd' ')"
XDG_CACHE_HOME=$PWD/.cache/xdg-conv KB_GLOB="$first $rest" \
  EXPERT_TRIALS=1 EXPERT_COMPILE=false timeout 530 scripts/gpu $OUT/gpu kb > $OUT/gpu.log 2>&1
cut -c1-160 .gpu/kb.txt
