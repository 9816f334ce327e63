# CPU side of a GPU call: entries.txt (TASK.py:KERNEL.cu) from the given kernel files (NAME[_variant].cu,
# task NAME.py found under .kb), the kernels copied into .cache/call/cu, and cache.tgz holding the
# build cache entries whose kernel.cu matches one of them (from every .cache/xdg-*). Usage: make.sh FILE...
cd /work/main; rm -rf .cache/call/cu .cache/xdg-call .cache/call/entries.txt; mkdir -p .cache/call/cu .cache/xdg-call/cutegen/builds
declare -A want
for f in "$@"; do
  n=$(basename $f .cu); t=$(ls .kb/level*/$n.py 2>/dev/null || ls .kb/level*/${n%_*}.py 2>/dev/null)
  [ -n "$t" ] || { echo "no task for $f" >&2; continue; }
  cp $f .cache/call/cu/; echo "$t:.cache/call/cu/$n.cu" >> .cache/call/entries.txt
  want[$(md5sum < $f | cut -c1-32)]=$n
done
want[$(md5sum < bridge/cutegen_bridge/fast_compare.cu | cut -c1-32)]=fast_compare  # the judge's quick compare
found=0
for d in .cache/xdg-*/cutegen/builds/*/*; do
  [ -f $d/kernel.so ] || continue; m=$(md5sum < $d/kernel.cu | cut -c1-32)
  [ -n "${want[$m]:-}" ] && [ ! -d .cache/xdg-call/cutegen/builds/$(basename $(dirname $d))/$(basename $d) ] && {
    mkdir -p .cache/xdg-call/cutegen/builds/$(basename $(dirname $d)); cp -r $d .cache/xdg-call/cutegen/builds/$(basename $(dirname $d))/; found=$((found+1)); unset "want[$m]"; }
done
echo "entries $(wc -l < .cache/call/entries.txt), cached builds $found; not built: ${want[*]}"
tar czf .cache/call/cache.tgz .cache/xdg-call && du -sh .cache/call/cache.tgz
