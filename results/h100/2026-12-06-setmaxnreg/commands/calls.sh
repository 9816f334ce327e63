# 2026-12-06, twenty-fourth session; the device tool (kind as lent: an NVIDIA H100 80GB HBM3 each time).
# call1: packed at 325cedb (session 23's kernels: producer 48/80 registers, consumers 232/216).
scripts/gpu-pack $(for n in 63 65 67 69 76 78 87 55 56 57 62 80; do f=$(ls .kb/level1/${n}_*.py); echo "$f $f@input_boxes=1"; done) \
  .kb/level1/81_*.py ".kb/level1/81_*.py@strategy=conv_transposed_gather" .kb/level1/6_*.py ".kb/level1/6_*.py@register_split=2,stages=3" \
  .kb/level1/3_*.py ".kb/level1/3_*.py@register_split=2,stages=3,split_ahead=0,cluster_m=1,tile_n=128" \
  $(for n in 13 25 1 4 21; do f=$(ls .kb/level2/${n}_*.py); echo "$f $f@input_boxes=1"; done)   # (87 and 21 at input_boxes=1 refused to emit)
# on the device, carry build/src/cutegen build/src/cutegen-runner .deps/wheels .kb .cache/call:
KB_S=530 bash scripts/gpu-call
# call2: packed at 325cedb + the register-budget fix (committed as ade4f5b), entries in call2/emitted.tsv:
scripts/gpu-pack <level 1's 63 65 67 69 76 78 81 6 3 at their defaults, 81@strategy=conv_transposed_gather,
  6@register_split=2,stages=3, 3@register_split=2,stages=3,split_ahead=0,cluster_m=1,tile_n=128,
  63 65 67 69 76 78 @input_boxes=1, 87 and 87@gather_input=0,input_boxes=1, 55 56 57 62 80 and @input_boxes=1,
  level 2's 13 25 1 4 and @input_boxes=1>
EXPERT_TIMEOUT_S=40 KB_S=465 bash scripts/gpu-call
# call3: the same pack, level 2's four defaults (entries 31, 33, 35, 37), on the same warm machine:
sed -n '31p;33p;35p;37p' .cache/call/entries.txt > /tmp/e && cp /tmp/e .cache/call/entries.txt
EXPERT_TIMEOUT_S=40 KB_S=90 bash scripts/gpu-call
