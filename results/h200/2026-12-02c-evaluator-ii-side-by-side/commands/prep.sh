# On the CPU machine, before the calls (repo root; build/src/cutegen at this commit, .old/ = 83bf1f1's
# binary, bridge and prompts): every kernel compiled into the cache the GPU call reads, carried packed.
# 1. issue 25: expert defaults of tasks/, old ABI headers exactly as the old evaluator writes them
#    (`task --json`'s abi_header: the same cache key as its `eval`), new and old builds.
for t in tasks/*.py bench/relu_3ms.py; do n=$(basename $t .py)
  [ $t = bench/relu_3ms.py ] || build/src/cutegen expert $t --emit > .prep/kernels/$n.cu
  .old/build/src/cutegen task --json $t | python3 -c 'import json,sys; sys.stdout.write(json.load(sys.stdin)["abi_header"])' > .prep/headers/$n.h
done
# /tmp/jobs: "new TASK KERNEL" / "old HEADER KERNEL" for the kernels above, the honest relu and layernorm,
# the 3 ms task's honest relu, and the four relu cheats (call1.sh evaluates exactly these)
xargs -P 2 -L 1 sh -c 'if [ $0 = new ]; then XDG_CACHE_HOME=$PWD/.cache/xdg-new build/src/cutegen build --task $1 $2;
  else XDG_CACHE_HOME=$PWD/.cache/xdg-old .old/build/src/cutegen build --header $1 $2; fi' < /tmp/jobs
# 2. issue 27: the expert's GEMM kernels for KernelBench (KB_GLOB=gemm of scripts/gpu), as its kb stage emits them
for f in .kb/level1/[1-46-9]_*.py .kb/level1/1[0-8]_*.py .kb/level2/{9,12,29,40,53,59,63,68,70,76,81,86,95}_*.py; do
  n=$(basename $f .py); build/src/cutegen expert $f --emit > .prep/kb/$n.cu 2>/dev/null && echo "$f .prep/kb/$n.cu"
done | xargs -P 2 -L 1 sh -c 'XDG_CACHE_HOME=$PWD/.cache/xdg-kb build/src/cutegen build --task $0 $1 > /dev/null'
tar czf .prep/cache.tgz .cache/xdg-new .cache/xdg-old .cache/xdg-kb
