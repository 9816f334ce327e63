# GPU call: the entries in .cache/call/entries.txt (TASK.py:KERNEL.cu, emitted and compiled on the CPU
# machine into the build cache .cache/call/cache.tgz: XDG dir .cache/xdg-call), one trial each, eager
# only; then Nsight Compute profiles of $PROFILE (TASK.py:KERNEL.cu entries) while time remains. The
# time of each phase lands in $OUT/phases.txt.
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
stamp() { echo "$(date +%T) $*" >> $OUT/phases.txt; }
stamp start
scripts/bootstrap --offline --no-apt --no-torch >/dev/null; stamp bootstrap
tar xzf .cache/call/cache.tgz && export XDG_CACHE_HOME=$PWD/.cache/xdg-call; stamp untar
EXPERT_TASKS="$(cat .cache/call/entries.txt)" EXPERT_TRIALS=1 EXPERT_COMPILE=${COMPILE:-false} timeout ${KB_S:-420} \
  scripts/gpu $OUT/gpu expert > $OUT/gpu.log 2>&1; stamp evals
cat .gpu/expert.gpu0.txt .gpu/expert.txt 2>/dev/null
for e in $PROFILE; do
  timeout ${PROFILE_S:-50} build/src/cutegen profile ${e%%:*} ${e#*:} > $OUT/profile-$(basename ${e#*:} .cu).txt 2>&1
  stamp "profile $e"
done
cat $OUT/phases.txt
