# On the CPU machine, before call C: the expert's default kernels for KernelBench level 1's
# convolutions (those it accepts), compiled into the cache call C reads.
mkdir -p .prep/conv; rm -rf .cache/xdg-conv .prep/conv/*
for f in .kb/level1/*conv*.py; do
  n=$(basename $f .py); build/src/cutegen expert $f --emit > .prep/conv/$n.cu 2>/dev/null && echo "$f .prep/conv/$n.cu"
done | xargs -P 2 -L 1 sh -c 'XDG_CACHE_HOME=$PWD/.cache/xdg-conv nice build/src/cutegen build --task $0 $1 > /dev/null || echo "FAILED $1"'
XDG_CACHE_HOME=$PWD/.cache/xdg-conv build/src/cutegen build bridge/cutegen_bridge/fast_compare.cu > /dev/null
tar czf .prep/cache-conv.tgz .cache/xdg-conv
