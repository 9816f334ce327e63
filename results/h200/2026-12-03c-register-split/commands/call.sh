# GPU call: phase 1 the GEMM tasks at HEAD's binary (compiled there); phase 2 the convolutions with
# the binary and build cache prepared on the CPU machine (.cache/head, .cache/prep/cache-h.tgz).
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
scripts/bootstrap --offline --no-apt --no-torch >/dev/null
KB_GLOB="${GEMM_GLOB}" EXPERT_TRIALS=1 EXPERT_COMPILE=false timeout ${GEMM_S:-200} scripts/gpu $OUT/gemm kb > $OUT/gemm.log 2>&1
cat .gpu/kb.txt > $OUT/gemm.txt 2>/dev/null; cat $OUT/gemm.txt
[ -n "$CONV_GLOB" ] || exit 0
cp .cache/head/cutegen .cache/head/cutegen-runner build/src/
tar xzf .cache/prep/cache-h.tgz && export XDG_CACHE_HOME=$PWD/.cache/xdg-h
KB_GLOB="${CONV_GLOB}" EXPERT_TRIALS=1 EXPERT_COMPILE=false timeout ${CONV_S:-300} scripts/gpu $OUT/conv kb > $OUT/conv.log 2>&1
cat .gpu/kb.gpu0.txt .gpu/kb.txt 2>/dev/null
