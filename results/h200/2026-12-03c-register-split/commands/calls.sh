# Fifteenth session (2026-12-03), the device tool's H200, carrying build/src/cutegen,
# build/src/cutegen-runner, .deps/wheels, .kb (KernelBench's level1/level2, not committed) and
# call.sh (beside this file, as .cache/prep/call1.sh). The kb stage compiles each task's kernel on
# the GPU machine (8 at once) unless the carried build cache holds it, then evaluates.
# Call A (commit 5abf0d0: the fp32 register split for GEMMs, and for 3xTF32 convolutions, reverted after this call):
GEMM_GLOB="level2/55_* level2/56_* level2/59_* level2/66_* level2/68_* level1/6_* level2/8_* level2/7_* level2/21_* level2/82_* level1/50_* level1/60_* level1/63_* level1/57_*" GEMM_S=480 bash .cache/prep/call1.sh
