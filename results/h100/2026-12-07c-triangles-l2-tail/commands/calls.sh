# 2026-12-07, thirty-fourth session; the device tool, no kind named, which gave an NVIDIA H100 80GB HBM3.
# The packs were made in the thirty-third session with scripts/gpu-pack (binary kept as .cache/bin-pack4,
# built at fb1a62f; a build cache key is a kernel's source and flags, so any binary evaluates them):
scripts/gpu-pack .kb/level1/14_*.py .kb/level1/15_*.py .kb/level1/1_*.py && mv .cache/call .cache/callT
scripts/gpu-pack $(cat .cache/probe/j3b_list.txt) && mv .cache/call .cache/callJ3b   # level 2's 79-99 at their defaults
# The first call (carry .cache/bin-pack4 .deps/wheels .kb .cache/probe .cache/callT .cache/callP .cache/callJ3b),
# .cache/probe/callPJ.sh: each pack through scripts/gpu-call, one trial a kernel, in turn:
#   run callT KB_S=60
#   run callP KB_S=150 PRECISION_S=140 PRECISION_COLUMN="$(cat .cache/probe/precision_list.txt)"
#     (its precision column came back as callP/precision_column_racy.jsonl; its answers did not: the
#     device tool returns at most 8 files)
#   run callJ3b KB_S=190 COLUMN_S=110 COMPILE_COLUMN="$(cut -d: -f1 .cache/callJ3b/entries.txt | sort -u)"
# The second call, on the same warm machine, evaluated callT and callP (the pack made in the thirty-third
# session: 7, 8, 50 at TF32 beside their defaults, 78 at 3xTF32, 57@tf32x1=1) and returned one archive:
#   for p in callT callP; do ...; env OUT=/tmp/r/$p EXPERT_TIMEOUT_S=60 KB_S=150 bash scripts/gpu-call; done
#   tar czf $OUT/r.tgz -C /tmp/r .
