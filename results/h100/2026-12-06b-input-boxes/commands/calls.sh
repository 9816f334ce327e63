# 2026-12-06, twenty-fifth session; the device tool (kind nvidia-h200 asked, an NVIDIA H100 80GB HBM3 given).
# call1: packed at 09d574d (input_boxes over many taps starting at the aligned column; the gathered transposed
# convolution over CuTe tensors); entries and parameters in call1/emitted.tsv.
L1=.kb/level1 L2=.kb/level2
scripts/gpu-pack $(for n in 55 56 57 62 63 65 67 69 78 80; do f=$(ls $L1/${n}_*.py); echo "$f $f@input_boxes=1"; done) \
  $(for n in 13 25 1 4; do f=$(ls $L2/${n}_*.py); echo "$f $f@input_boxes=1"; done) \
  "$(ls $L1/81_*.py)@strategy=conv_transposed_gather" $L1/87_*.py
# on the device, carry build/src/cutegen build/src/cutegen-runner .deps/wheels .kb .cache/call:
EXPERT_TIMEOUT_S=40 KB_S=480 bash scripts/gpu-call
