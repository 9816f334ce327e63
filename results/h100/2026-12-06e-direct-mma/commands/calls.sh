# 2026-12-06, twenty-eighth session; the device tool (kind nvidia-h200 asked, an NVIDIA H100 80GB HBM3
# given). Each call: packed here (scripts/gpu-pack ENTRY...), the pack carried as .cache/callX and moved to
# .cache/call on the device, then (carrying build/src/cutegen build/src/cutegen-runner .deps/wheels .kb .cache/callX):
#   rm -rf .cache/call && mv .cache/callX .cache/call && EXPERT_TIMEOUT_S=60 KB_S=470 bash scripts/gpu-call
L1=.kb/level1; L2=.kb/level2
# callA: kernels emitted at c802712 (conv_direct_mma a search point; the defaults before it).
e=()
for n in 54 59; do f=$(ls $L1/${n}_*.py); e+=("$f" "$f@strategy=conv_direct_mma"); done
e+=("$(ls $L1/54_*.py)@strategy=conv_direct_mma,mma_pixels=256")
for n in 24 8 7 6 48 90 23; do f=$(ls $L2/${n}_*.py); e+=("$f" "$f@strategy=conv_direct_mma"); done
for n in 23 27 67 21; do e+=("$(ls $L2/${n}_*.py)@strategy=conv_direct_mma,fuse_stage=1"); done
for n in 27 67 21; do e+=("$(ls $L2/${n}_*.py)"); done
scripts/gpu-pack "${e[@]}"
# callB (KB_S=380): kernels emitted at 42c9e36 (promotion every 4 k-blocks the kernel's default then; the
# rule making conv_direct_mma the default for 33-192 channel-tap pairs). The eight tasks the rule newly
# switched beside their previous defaults (spelled out: the default points of the binary with the rule off).
e=()
for n in 57 69 71 73 87; do f=$(ls $L2/${n}_*.py); e+=("$f" "$f@cluster_m=1,split_ahead=1,split_parts=2,tf32x3=0,tma_store=0,gather_input=0,input_boxes=0,fuse_stage=0,pingpong=0,strategy=conv_implicit_gemm"); done
for n in 79 83; do f=$(ls $L2/${n}_*.py); e+=("$f" "$f@direct_cols=2,strategy=conv_direct"); done
f=$(ls $L2/85_*.py); e+=("$f" "$f@cluster_m=1,split_ahead=1,split_parts=2,tf32x3=0,tma_store=0,gather_input=0,input_boxes=0,fuse_stage=1,pingpong=0,strategy=conv_implicit_gemm")
for n in 23 24 27 6 48 67 21; do e+=("$(ls $L2/${n}_*.py)"); done
e+=("$(ls $L1/54_*.py)")
scripts/gpu-pack "${e[@]}"
