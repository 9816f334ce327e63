# GPU call: the convolution tasks and variants with the build cache prepared on the CPU machine
# (.cache/prep/cache-n.tgz, from `cutegen build` with XDG_CACHE_HOME=.cache/xdg-n), then Nsight
# Compute profiles of a few kernels while time remains.
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
scripts/bootstrap --offline --no-apt --no-torch >/dev/null
tar xzf .cache/prep/cache-n.tgz && export XDG_CACHE_HOME=$PWD/.cache/xdg-n
KB_GLOB="$CONV_GLOB" EXPERT_TASKS="$VARIANTS" EXPERT_TRIALS=1 EXPERT_COMPILE=false timeout ${KB_S:-420} scripts/gpu $OUT/gpu kb expert > $OUT/gpu.log 2>&1
cat .gpu/kb.txt .gpu/expert.txt 2>/dev/null
for t in $PROFILE; do n=$(basename $t); timeout ${PROFILE_S:-50} build/src/cutegen profile .kb/$t.py .cache/prep/var/$n.cu > $OUT/profile-$n.txt 2>&1; done
ls $OUT
