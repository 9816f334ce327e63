# CPU prep: emit the expert's kernel for each KB file given and compile it into the cache $XDG (parallel 2).
# Usage: XDG=.cache/xdg-NAME bash .cache/prep/prep.sh FILE... ; declined ones are listed in $XDG.declined
cd /work/main; mkdir -p $XDG .cache/prep/cu
for f in "$@"; do
  n=$(basename $f .py); ${BIN:-build/src/cutegen} expert $f --emit > .cache/prep/cu/$n.cu 2>/dev/null && echo "$f .cache/prep/cu/$n.cu" || echo "$f" >> $XDG.declined
done | xargs -P 2 -L 1 sh -c 'XDG_CACHE_HOME=$PWD/'$XDG' nice ${BIN:-build/src/cutegen} build --task $0 $1 > /dev/null 2>&1 && echo "OK $1" || echo "FAILED $1"'
XDG_CACHE_HOME=$PWD/$XDG ${BIN:-build/src/cutegen} build bridge/cutegen_bridge/fast_compare.cu > /dev/null
