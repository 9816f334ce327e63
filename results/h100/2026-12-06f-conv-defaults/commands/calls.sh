# 2026-12-06, twenty-ninth session; the device tool (kind nvidia-h200 asked, an NVIDIA H100 80GB HBM3
# given). Each call: packed here (scripts/gpu-pack ENTRY...), the pack carried as .cache/callX and moved to
# .cache/call on the device, then (carrying build/src/cutegen build/src/cutegen-runner .deps/wheels .kb .cache/callX):
#   rm -rf .cache/call && mv .cache/callX .cache/call && EXPERT_TIMEOUT_S=60 KB_S=480 bash scripts/gpu-call
# Kernels emitted at f6a533f, every task at the expert's default.
L1=.kb/level1; L2=.kb/level2
# callE1: level 1's convolutions 50 and 54-69.
e=(); for n in 50 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69; do e+=("$(ls $L1/${n}_*.py)"); done
scripts/gpu-pack "${e[@]}"
# callE2: level 1's convolutions 70-87, then Nsight Compute profiles of 63, 65 and 69 (their kernels
# copied from callE1's pack into cu/, built on the device by `cutegen profile`); run there as
#   rm -rf .cache/call && mv .cache/callE2 .cache/call && EXPERT_TIMEOUT_S=60 KB_S=300 PROFILE_S=90 \
#     PROFILE="$(for n in 63 65 69; do f=$(ls $L1/${n}_*.py); echo -n "$f:.cache/call/cu/$(basename $f .py).cu "; done)" \
#     bash scripts/gpu-call
e=(); for n in $(seq 70 87); do e+=("$(ls $L1/${n}_*.py)"); done
scripts/gpu-pack "${e[@]}"
