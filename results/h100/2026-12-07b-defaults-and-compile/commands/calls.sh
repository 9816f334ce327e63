# 2026-12-07, thirty-third session; the device tool, no kind named, which gave an NVIDIA H100 80GB HBM3
# (four calls on one warm machine, 378, 388, 415 and 208 s). Two starts before it got no machine.
# The packs were made in the thirty-second session at 9c562d1 with scripts/gpu-pack (build/src/cutegen
# and cutegen-runner kept as .cache/bin-pack2; 4072fe1 and e18aecd left the kernels' SASS unchanged):
L1=.kb/level1; L2=.kb/level2   # the lists the packs were made from are each call's entries.txt
scripts/gpu-pack $(cat .cache/probe/k_list.txt) && mv .cache/call .cache/callK   # level 1 convolutions 54-87
# level 2's 86 tasks without a torch.compile answer then, in three lists (.cache/probe/j_part0{0,1,2}):
i=1; for p in j_part00 j_part01 j_part02; do scripts/gpu-pack $(cat .cache/probe/$p) && mv .cache/call .cache/callJ$i; i=$((i+1)); done
# .cache/probe/callPack.sh, the device side of one pack (carry: .cache/bin-pack2 .deps/wheels .kb .cache/probe
# and the pack):
#   P=$1; O=$OUT; export PATH=$PATH:/usr/local/cuda/bin
#   mkdir -p build/src && cp .cache/bin-pack2/* build/src/
#   rm -rf .cache/call; mv .cache/$P .cache/call && mkdir -p $O/$P
#   COL=""; [ "${2:-}" = column ] && COL="$(cut -d: -f1 .cache/call/entries.txt | sort -u | tr '\n' ' ')"
#   OUT=$O/$P EXPERT_TIMEOUT_S=60 KB_S=${KB_S:-330} COLUMN_S=${COLUMN_S:-220} COMPILE_COLUMN="$COL" bash scripts/gpu-call
#   date >> $O/$P/phases.txt
# The four calls, in order:
KB_S=530 bash .cache/probe/callPack.sh callK
KB_S=370 COLUMN_S=200 bash .cache/probe/callPack.sh callJ1 column
KB_S=370 COLUMN_S=200 bash .cache/probe/callPack.sh callJ2 column
# callJ3: the device time left held its first 12 entries (callJ3/entries.txt; the other 16 are for a later call)
head -n 12 .cache/callJ3/entries.txt > /tmp/e && cp /tmp/e .cache/callJ3/entries.txt &&
  KB_S=135 COLUMN_S=75 bash .cache/probe/callPack.sh callJ3 column
