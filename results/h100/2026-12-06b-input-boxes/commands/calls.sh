# 2026-12-06, twenty-fifth session; the device tool (kind nvidia-h200 asked, an NVIDIA H100 80GB HBM3 given).
# call1: packed at 09d574d (input_boxes over many taps starting at the aligned column; the gathered transposed
# convolution over CuTe tensors); entries and parameters in call1/emitted.tsv.
L1=.kb/level1 L2=.kb/level2
scripts/gpu-pack $(for n in 55 56 57 62 63 65 67 69 78 80; do f=$(ls $L1/${n}_*.py); echo "$f $f@input_boxes=1"; done) \
  $(for n in 13 25 1 4; do f=$(ls $L2/${n}_*.py); echo "$f $f@input_boxes=1"; done) \
  "$(ls $L1/81_*.py)@strategy=conv_transposed_gather" $L1/87_*.py
# on the device, carry build/src/cutegen build/src/cutegen-runner .deps/wheels .kb .cache/call:
EXPERT_TIMEOUT_S=40 KB_S=480 bash scripts/gpu-call
# call2: packed at 72b3d17 + the gathered transposed convolution's 8 rows a CTA (committed in f634fe9);
# entries in call2/emitted.tsv; 63, 65, 69 profiled after the evaluations.
scripts/gpu-pack $L1/74_*.py "$(ls $L1/74_*.py)@input_boxes=0" $L1/79_*.py "$(ls $L1/79_*.py)@input_boxes=0" \
  $L1/7_*.py "$(ls $L1/7_*.py)@tma_store=3" "$(ls $L1/7_*.py)@tma_store=4" $L1/9_*.py "$(ls $L1/9_*.py)@tma_store=3" \
  "$(ls $L1/9_*.py)@tma_store=4" $L1/1_*.py "$(ls $L1/1_*.py)@tma_store=4" "$(ls $L1/1_*.py)@split_parts=2" \
  $L1/3_*.py "$(ls $L1/3_*.py)@split_parts=2" $L1/10_*.py "$(ls $L1/10_*.py)@split_parts=2" \
  $L2/40_*.py "$(ls $L2/40_*.py)@split_parts=2" $L2/51_*.py $L2/75_*.py \
  $(for n in 55 67 87; do echo "$(ls $L1/${n}_*.py)@cluster_m=2"; done) $(for n in 1 4; do echo "$(ls $L2/${n}_*.py)@cluster_m=2"; done) \
  $L1/63_*.py $L1/65_*.py $L1/69_*.py $L1/81_*.py
c=.cache/call/cu
PROFILE="$(for n in 63 65 69; do t=$(ls $L1/${n}_*.py); echo "$t:$c/$(basename $t .py).cu"; done)" \
  EXPERT_TIMEOUT_S=40 KB_S=420 PROFILE_S=60 bash scripts/gpu-call
# call3 and call4: packed at 9b26750 (the new defaults), one list cut in two to fit the device tool's 64 MiB:
e=(); for n in 50 55 56 57 58 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 87; do f=$(ls $L1/${n}_*.py)
  e+=("$f"); case " 50 58 60 61 66 68 70 71 72 73 75 76 77 " in *" $n "*) e+=("$f@cluster_m=1");; esac
  [ $n = 64 ] && e+=("$f@cluster_m=1,input_boxes=0"); done
scripts/gpu-pack "${e[@]:0:22}"; EXPERT_TIMEOUT_S=40 KB_S=330 bash scripts/gpu-call   # call3 (KB_S cut 68@cluster_m=1, 69)
scripts/gpu-pack "${e[@]:22}" "$(ls $L1/68_*.py)@cluster_m=1" $L1/64_*.py $L1/69_*.py
EXPERT_TIMEOUT_S=40 KB_S=360 bash scripts/gpu-call   # call4
