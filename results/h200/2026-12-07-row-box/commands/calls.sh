# 2026-12-07, thirty-second session; the device tool, no kind named, which gave an NVIDIA H200 (three calls
# on one warm machine, 451, 141 and 277 s). Before it five starts (nvidia-h100-x1 and nvidia-h200) got no
# machine, one call was refused inside a waiting window and one for the tree's size (over 64 MiB as the
# tool counts it: scripts/gpu-pack counts allocated sizes since). The device scripts as run.
L1=.kb/level1; L2=.kb/level2; D=.cache/d2cu  # D: the kernels of the thirty-first session's pack D (c97eb7d)
# callG: row_box=1 beside the default of 206db4c (its kernel README edited: "+changes"), then pack D's
# kernels (level 2's 4 under the old two-Mish epilogue, "_logmish"; pixel_fit defaults not run before).
E55=$L1/55_conv_standard_2D__asymmetric_input__square_kernel.py; E80=$L1/80_conv_standard_2D_square_input_asymmetric_kernel___dilated____padded__.py
E4=$L2/4_Conv2d_Mish_Mish.py; E17=$L2/17_Conv2d_InstanceNorm_Divide.py; E32=$L2/32_Conv2d_Scaling_Min.py
scripts/gpu-pack $E55 $E55@row_box=1 $E80 $E80@row_box=1 $D/4_Conv2d_Mish_Mish.cu $E4@row_box=1 $E17 $E17@row_box=1 \
  $E32 $E32@row_box=1 $D/4_Conv2d_Mish_Mish_logmish.cu $D/4_Conv2d_Mish_Mish@pingpong=1.cu $D/52_Conv2d_Activation_BatchNorm.cu \
  $D/58_*.cu $D/61_conv_*.cu $D/72_*.cu $D/77_*.cu $D/19_*.cu $D/42_*.cu $D/61_ConvTranspose3d_*.cu $D/91_*.cu $D/93_*.cu \
  $D/100_*.cu $D/11_*.cu && mv .cache/call .cache/callG   # entries.txt: what ran (11 was cut by KB_S)
# On the GPU machine (carry: .cache/bin-g = build/src/cutegen{,-runner} at 206db4c, .deps/wheels, .kb, .cache/callG):
O=$OUT; cp .cache/bin-g/* build/src/; rm -rf .cache/call; mv .cache/callG .cache/call
L=.kb/level2; COL="$L/4_*.py $L/17_*.py $L/32_*.py $L/52_*.py $L/11_*.py $L/19_*.py $L/42_*.py $L/61_*.py $L/91_*.py $L/93_*.py $L/100_*.py $L/7_*.py $L/8_*.py"
OUT=$O/G EXPERT_TIMEOUT_S=60 KB_S=360 COLUMN_S=150 PROBES=kernels/conv/tests/descriptor_shift_probe.cu \
  COMPILE_COLUMN="$COL" bash scripts/gpu-call
# callH (the same warm machine): the five row_box=1 kernels of callG with the base offset the probe
# found right (the one line flipped in the emitted source), beside their defaults from callG's pack.
for f in .cache/call/cu/*@row_box=1.cu; do
  sed -i 's/static constexpr bool RowShiftBaseOffset = true;/static constexpr bool RowShiftBaseOffset = false;/' "$f"; done
grep "row_box\|/4_Conv2d_Mish_Mish.cu\|/55_conv_standard_2D__asymmetric_input__square_kernel.cu\|/80_conv[^@]*__.cu\|/17_Conv2d_InstanceNorm_Divide.cu\|/32_Conv2d_Scaling_Min.cu" \
  .cache/call/entries.txt > /tmp/e && mv /tmp/e .cache/call/entries.txt
(cd .cache && tar czf call/cache.tgz xdg-call call/cu) && OUT=$O EXPERT_TIMEOUT_S=60 KB_S=330 bash scripts/gpu-call
# callI (the same machine): six more tasks emitted there by the same binary, at the default and at
# row_box=1 with the same flip, compiled there.
for t in $L1/62_conv_standard_2D__square_input__asymmetric_kernel $L2/1_Conv2D_ReLU_BiasAdd $L2/31_Conv2d_Min_Add_Multiply \
         $L2/52_Conv2d_Activation_BatchNorm $L2/54_Conv2d_Multiply_LeakyReLU_GELU $L2/25_Conv2d_Min_Tanh_Tanh; do
  n=$(basename $t); build/src/cutegen expert $t.py --emit > .cache/h/$n.cu
  build/src/cutegen expert $t.py --emit --params row_box=1 | sed 's/RowShiftBaseOffset = true;/RowShiftBaseOffset = false;/' > .cache/h/${n}_rowbox.cu
  E="$E $t.py:.cache/h/$n.cu $t.py:.cache/h/${n}_rowbox.cu"; done
XDG_CACHE_HOME=$PWD/.cache/xdg-h EXPERT_TASKS="$E" EXPERT_TRIALS=1 EXPERT_COMPILE=false EXPERT_TIMEOUT_S=60 \
  timeout 330 scripts/gpu "$O/gpu" expert
