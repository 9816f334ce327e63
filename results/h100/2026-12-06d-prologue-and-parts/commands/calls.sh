# 2026-12-06, twenty-seventh session; the device tool (callA, callB: kind nvidia-h200 asked, an NVIDIA H100 80GB HBM3
# given). Each call: packed here (scripts/gpu-pack ENTRY...), the pack carried as .cache/callX and moved to
# .cache/call on the device, then (carrying build/src/cutegen build/src/cutegen-runner .deps/wheels .kb .cache/callX):
#   rm -rf .cache/call && mv .cache/callX .cache/call && EXPERT_TIMEOUT_S=60 KB_S=<s> bash scripts/gpu-call
L1=.kb/level1; L2=.kb/level2
# callA (KB_S=470): kernels emitted at f2241ec plus the split_parts=1 change committed as 80ad0f8.
e=("$L1/86_conv_depthwise_separable_2D.py"); f6=$(ls $L1/6_*.py)
e+=("$f6" "$f6@split_parts=1,register_split=2,stages=3" "$f6@split_parts=1")
for n in 7 9 11 1 3 10; do f=$(ls $L1/${n}_*.py); e+=("$f" "$f@strategy=gemm_pingpong,tile_m=64,tile_n=192"); done
for n in 7 11 1; do f=$(ls $L1/${n}_*.py); e+=("$f@split_ahead=1"); done
scripts/gpu-pack "${e[@]}"
# callB (KB_S=400): kernels emitted at 80ad0f8 (+ the expert command's emit skipping the search space).
e=(); for n in 50 60 3 10; do f=$(ls $L1/${n}_*.py); e+=("$f" "$f@split_parts=2"); done
e+=("$(ls $L1/3_*.py)@split_ahead=0,register_split=2,tile_n=128,cluster_m=1,stages=3")
for n in 7 8 11 23 24 77; do e+=("$(ls $L2/${n}_*.py)"); done
scripts/gpu-pack "${e[@]}"
