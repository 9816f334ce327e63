# 2026-12-06, thirtieth session; the device tool, kind nvidia-h100-x1 (an NVIDIA H100 80GB HBM3). Eight
# earlier starts (nvidia-h200 and nvidia-h100-x1) got no machine. One call ran both packs in turn.
# Packed here with scripts/gpu-pack; every kernel emitted from the tree committed as 4e2bdeb (callB's
# pack began before that commit, from the same sources), pixel_fit=1 the search point it added.
L1=.kb/level1; L2=.kb/level2
# callB: ten tasks at the default and at pixel_fit=1, side by side (level 1's 58 and level 2's 93 were
# then dropped from entries.txt, and six pixel_fit=1 builds left to the device, to fit the 64 MiB the
# tool carries: entries.txt here is what ran).
e=(); for n in 65 69 68 58; do f=$(ls $L1/${n}_*.py); e+=("$f" "$f@pixel_fit=1"); done
for n in 11 77 5 19 91 93; do f=$(ls $L2/${n}_*.py); e+=("$f" "$f@pixel_fit=1"); done
scripts/gpu-pack "${e[@]}" && mv .cache/call .cache/callB
# callA: level 2's 1, 4, 7, 8, 10, 17, 21, 23 at the defaults, with torch.compile.
a=(); for n in 1 4 7 8 10 17 21 23; do a+=("$(ls $L2/${n}_*.py)"); done
scripts/gpu-pack "${a[@]}" && mv .cache/call .cache/callA
# The call (carrying build/src/cutegen build/src/cutegen-runner .deps/wheels .kb .cache/callA .cache/callB),
# timeout 420 s; KB_S=200 ended callB after 13 of its 16 evaluations, KB_S=180 callA after 5 of 8:
O=$OUT; rm -rf .cache/call; mv .cache/callB .cache/call && mkdir -p $O/B &&
  OUT=$O/B EXPERT_TIMEOUT_S=60 KB_S=200 bash scripts/gpu-call
rm -rf .cache/call; mv .cache/callA .cache/call && mkdir -p $O/A &&
  OUT=$O/A COMPILE=true EXPERT_TIMEOUT_S=60 KB_S=180 bash scripts/gpu-call
