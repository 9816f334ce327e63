# Fifteenth session (2026-12-03), the device tool's H200, carrying build/src/cutegen,
# build/src/cutegen-runner, .deps/wheels, .kb (KernelBench's level1/level2, not committed) and
# call.sh (beside this file, as .cache/prep/call1.sh). The kb stage compiles each task's kernel on
# the GPU machine (8 at once) unless the carried build cache holds it, then evaluates.
# Call A (commit 5abf0d0: the fp32 register split for GEMMs, and for 3xTF32 convolutions, reverted after this call):
GEMM_GLOB="level2/55_* level2/56_* level2/59_* level2/66_* level2/68_* level1/6_* level2/8_* level2/7_* level2/21_* level2/82_* level1/50_* level1/60_* level1/63_* level1/57_*" GEMM_S=480 bash .cache/prep/call1.sh
# Call B (commit 7b5a103, the conv part reverted): the convolutions measured before the epilogue fix
# and those never measured, with the build cache prepared on the CPU machine (call2.sh, beside this
# file); variants of the register split as edited kernels (59 promoting every 4 k-tiles; 59 at
# tile_n=64,stages=6 and 6 at split_k=16 emitted with --params); a profile of level 2's 8. The call's
# time ran out after 13 of the 56 convolutions listed. The variants, made on the CPU machine:
#   cutegen expert .kb/level2/59_Matmul_Swish_Scaling.py --emit | sed 's/ 2, true>;/ 4, true>;/' > .cache/prep/var/59_promote4.cu
#   cutegen expert .kb/level2/59_Matmul_Swish_Scaling.py --emit --params "tile_n=64,stages=6" > .cache/prep/var/59_n64.cu
#   cutegen expert .kb/level1/6_Matmul_with_large_K_dimension_.py --emit --params "split_k=16" > .cache/prep/var/6_split16.cu
# and the build cache: XDG=.cache/xdg-n bash prep.sh FILE... (emit, then `cutegen build --task`), packed
# into .cache/prep/cache-n.tgz:
CONV_GLOB="level1/66_* level1/70_* level1/71_* level1/74_* level1/78_* level1/85_* level1/54_* level1/59_* level1/58_* level1/61_* level1/64_* level1/65_* level1/68_* level1/69_* level1/72_* level1/73_* level1/75_* level1/77_* level1/79_* level1/81_* level1/82_* level1/83_* level1/84_* level2/4_* level2/11_* level2/13_* level2/19_* level2/25_* level2/26_* level2/36_* level2/42_* level2/49_* level2/77_* level2/91_* level2/93_* level2/6_* level2/23_* level2/24_* level2/27_* level2/48_* level2/79_* level2/83_* level2/10_* level2/5_* level2/47_* level2/61_* level2/32_* level2/100_* level2/74_* level2/44_* level2/1_* level2/17_* level2/43_* level2/54_* level2/35_* level2/46_*" VARIANTS=".kb/level2/59_Matmul_Swish_Scaling.py:.cache/prep/var/59_promote4.cu .kb/level2/59_Matmul_Swish_Scaling.py:.cache/prep/var/59_n64.cu .kb/level1/6_Matmul_with_large_K_dimension_.py:.cache/prep/var/6_split16.cu" PROFILE="level2/8_Conv3d_Divide_Max_GlobalAvgPool_BiasAdd_Sum" KB_S=420 PROFILE_S=45 bash .cache/prep/call2.sh
