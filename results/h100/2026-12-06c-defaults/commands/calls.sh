# 2026-12-06, twenty-sixth session; the device tool (kind nvidia-h200 asked, an NVIDIA H100 80GB HBM3 given).
# Each call: pack here, then on the device (carrying build/src/cutegen build/src/cutegen-runner
# .deps/wheels .kb .cache/call): EXPERT_TIMEOUT_S=40 KB_S=<s> bash scripts/gpu-call
L1=.kb/level1
scripts/gpu-pack $(for n in $(seq 54 75); do ls $L1/${n}_*.py; done)             # call1, KB_S=400
scripts/gpu-pack $(for n in $(seq 76 87) $(seq 1 18); do ls $L1/${n}_*.py; done)  # call2, KB_S=480
e=(); for n in 63 65 69 76 87 78 55 57 62 71 80; do f=$(ls $L1/${n}_*.py); e+=("$f" "$f@pingpong=1"); done
scripts/gpu-pack "${e[@]}"                                                       # call3, KB_S=420
e=(); for n in 56 58 60 61 66 68 70 72 73 74 75 77 76; do f=$(ls $L1/${n}_*.py); e+=("$f" "$f@pingpong=0"); done
scripts/gpu-pack "${e[@]}"                                                       # call4, KB_S=380
e=(); for n in 87 69 78 62 80; do f=$(ls $L1/${n}_*.py); e+=("$f" "$f@tma_store=2"); done
scripts/gpu-pack "${e[@]}"                                                       # call5, KB_S=250
