# CPU prep for the next session: every level-2 task (then level 1's convolutions) emitted at HEAD
# and compiled into .cache/xdg-full (for a torch.compile column without compiles on the GPU machine).
cd /work/main; mkdir -p .cache/prep/full
export CUTEGEN_TASK_SPEC_CACHE=true XDG_CACHE_HOME=$PWD/.cache/xdg-full
for f in $(ls .kb/level2/*.py | sort -t/ -k3 -n) $(ls .kb/level1/*conv*.py | sort -t/ -k3 -n); do
  b=$(basename $f .py)
  /tmp/cutegen-full expert $f --emit > .cache/prep/full/$b.cu 2>/dev/null || { rm -f .cache/prep/full/$b.cu; continue; }
  echo "$f .cache/prep/full/$b.cu"
done | xargs -P 2 -L 1 sh -c 'nice /tmp/cutegen-full build --task $0 $1 > /dev/null 2>&1 && echo "OK $1" || echo "FAILED $1"'
/tmp/cutegen-full build bridge/cutegen_bridge/fast_compare.cu > /dev/null
