#!/usr/bin/env python3
"""Compiles sass_probe.cu (the convolution kernels at a representative point) for sm_90a and checks,
per kernel, that ptxas reports no stack frame and no spills, and that the SASS holds what the
kernel is built on: the implicit GEMM's HGMMA (TF32 wgmma; the 3xTF32 form's FADDs promoting its
partials), its 5-D input and 3-D weight TMA loads (UTMALDG.5D/.3D; over the channels-first input,
its shared loads into registers) and register reallocation (USETMAXREG); the depthwise kernel's FFMA
and shared loads without tensor cores; the direct kernel's FFMA with its taps read as float4 and its
fills as cp.async (LDGSTS), its tap loops unrolled where R and S are constants (nine times the FFMA
of the looped form), whole or chunked patches, one or two columns a thread; the gathering transposed
kernel's FFMA over float4 weights; the direct kernel on the tensor cores' HGMMA over A gathered by
shared loads (not generic ones) from its cp.async patch; and that ptxas did not serialize the wgmmas. The GEMM's checker
(kernels/gemm/tests/check_sass.py) lends its build and checks. Needs nvcc and cuobjdump, no GPU."""

import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(KERNELS, "gemm", "tests"))
from check_sass import build_probe, check_expectations, count, demangle, find_cuobjdump, report, sass_opcodes  # noqa: E402

# The direct kernel looped over its taps, and with 3 x 3 taps as constants (its patch whole; and in
# chunks of channels, two columns a thread).
DIRECT_LOOPED = r"direct_conv_kernel<32, 32, 4, 16, 1, .*BiasRelu, 0, 0, false>"
DIRECT_3X3 = r"direct_conv_kernel<32, 32, 4, 16, 1, .*BiasRelu, 3, 3, false>"
DIRECT_CHUNKED = r"direct_conv_kernel<32, 32, 4, 16, 1, .*BiasRelu, (0, 0|3, 3), true>"
DIRECT_TWO_COLUMNS = r"direct_conv_kernel<16, 64, 4, 16, 2, .*BiasRelu, 3, 3, (true|false)>"

# How the implicit GEMM reads its input (ConvParams' last argument, InputRead): its channels-last copy,
# the input gathered by cp.async, or loaded as pixel-major TMA boxes (one tap a k-tile, or two).
# kCopyFlat: a padded copy's rows. Either copy with RowTaps > 0: one box a kernel row shared by its taps.
COPY, GATHER, BOXES, BOX_PAIRS, COPY_FLAT = (r"\(cutegen::conv::InputRead\)" + str(i) for i in range(5))

# (what it checks, demangled-name pattern, kernels expected, SASS opcodes required, opcodes forbidden)
EXPECTATIONS = [
    ("implicit-GEMM conv, tf32", r"GemmWarpSpecialized<.*tfloat32_t.*ConvParams<.*, 8, 16, .*BiasRelu, false, 1, " + COPY + ", false, 0, 0>", 1,
     ["HGMMA.64x128x8.F32.TF32", "UTMALDG.5D", "UTMALDG.3D", "USETMAXREG"], []),
    ("its input gathered by cp.async, no copy",
     r"GemmWarpSpecialized<.*tfloat32_t.*128, 128, 5, 1, 1, .*ConvParams<.*, 8, 16, .*BiasRelu, false, 1, " + GATHER + ", false, 0, 0>",
     1, ["HGMMA.64x128x8.F32.TF32", "LDGSTS", "ARRIVES.LDGSTSBAR", "UTMALDG.3D", "USETMAXREG"],
     ["UTMALDG.5D", "UTMALDG.3D.MULTICAST"]),
    ("clusters of two, the weight's tile multicast, over pixel-major boxes",
     r"GemmWarpSpecialized<.*tfloat32_t.*128, 128, 5, 2, 1, .*ConvParams<.*, 4, 32, .*BiasRelu, false, 1, " + BOXES + ", false, 0, 0>",
     1, ["HGMMA.64x128x8.F32.TF32", "UTMALDG.5D", "UTMALDG.3D.MULTICAST", "LDS", "USETMAXREG"], ["LDGSTS"]),
    ("ping-pong, each warpgroup a tile, in clusters of two",
     r"GemmWarpSpecialized<.*tfloat32_t.*128, 128, 6, 2, 1, 1, .*ConvParams<.*, 2, 64, .*BiasRelu, false, 1, " + COPY + ", false, 0, 0>",
     1, ["HGMMA.64x128x8.F32.TF32", "UTMALDG.5D", "UTMALDG.3D.MULTICAST", "BAR.ARV", "USETMAXREG"], ["LDGSTS"]),
    ("one box a kernel row, its 3 taps' wgmmas on shifted descriptors; ping-pong in clusters of two",
     r"GemmWarpSpecialized<.*tfloat32_t.*128, 128, 3, 2, 1, 1, .*ConvParams<.*, 1, 128, .*BiasRelu, false, 1, " + COPY
     + ", false, 3, 136>", 1, ["HGMMA.64x128x8.F32.TF32", "UTMALDG.5D", "UTMALDG.3D.MULTICAST", "BAR.ARV", "USETMAXREG"],
     ["LDGSTS", "LDS"]),
    ("the same over flat tiles, a row of taps a pitch along a padded copy's rows",
     r"GemmWarpSpecialized<.*tfloat32_t.*128, 32, 7, 2, 1, 1, .*ConvParams<.*, 1, 128, .*BiasRelu, false, 1, " + COPY_FLAT
     + ", false, 3, 136>", 1, ["HGMMA.64x32x8.F32.TF32", "UTMALDG.5D", "UTMALDG.3D.MULTICAST", "BAR.ARV", "USETMAXREG"],
     ["LDGSTS", "LDS"]),
    ("flat tiles over a padded copy's rows, a row of taps a pitch along",
     r"GemmWarpSpecialized<.*tfloat32_t.*128, 128, 5, 1, 1, .*ConvParams<.*, 1, 128, .*BiasRelu, false, 1, " + COPY_FLAT + ", false, 0, 0>",
     1, ["HGMMA.64x128x8.F32.TF32", "UTMALDG.5D", "UTMALDG.3D", "USETMAXREG"], ["LDGSTS", "LDS"]),
    ("the same storing its output by TMA from shared memory",
     r"GemmWarpSpecialized<.*tfloat32_t.*128, 128, 5, 2, 1, 1, .*ConvParams<.*, 1, 128, .*BiasRelu, false, 1, " + COPY + ", true, 0, 0>",
     1, ["HGMMA.64x128x8.F32.TF32", "UTMALDG.5D", "UTMASTG.5D", "BAR.ARV", "USETMAXREG"], ["LDGSTS"]),
    ("its input loaded as pixel-major boxes, A transposed into registers (wgmma RS)",
     r"GemmWarpSpecialized<.*tfloat32_t.*128, 128, 5, 1, 1, .*ConvParams<.*, 4, 32, .*BiasRelu, false, 1, " + BOXES + ", false, 0, 0>", 1,
     ["HGMMA.64x128x8.F32.TF32", "UTMALDG.5D", "UTMALDG.3D", "LDS", "USETMAXREG"], ["LDGSTS"]),
    ("the same, two taps a k-tile",
     r"GemmWarpSpecialized<.*tfloat32_t.*ConvParams<.*, 1, 128, .*BiasRelu, false, 1, " + BOX_PAIRS + ", false, 0, 0>", 1,
     ["HGMMA.64x128x8.F32.TF32", "UTMALDG.5D", "UTMALDG.3D", "LDS", "USETMAXREG"], ["LDGSTS"]),
    ("transposed, W phases merged", r"GemmWarpSpecialized<.*tfloat32_t.*ConvParams<.*, 8, 16, .*BiasRelu, false, 2, " + COPY + ", false, 0, 0>", 1,
     ["HGMMA.64x64x8.F32.TF32", "UTMALDG.5D", "UTMALDG.3D", "USETMAXREG"], []),
    ("its merged phase weight", r"merged_phase_weight_kernel<float>", 1, [], ["HGMMA"]),
    ("implicit-GEMM conv, 3xTF32", r"GemmWarpSpecialized<.*tfloat32_t.*, 0, 3, false>, 4, 32, .*BiasRelu, true, 1, " + COPY + ", false, 0, 0>", 1,
     ["HGMMA.64x64x8.F32.TF32", "UTMALDG.5D", "UTMALDG.3D", "USETMAXREG", "FADD"], []),
    ("its two stages per k-tile, crossed", r"GemmWarpSpecialized<.*tfloat32_t.*, 0, 2, false>, 4, 32, .*BiasRelu, true, 1, " + COPY + ", false, 0, 0>", 1,
     ["HGMMA.64x64x8.F32.TF32", "UTMALDG.5D", "UTMALDG.3D", "USETMAXREG", "FADD"], []),
    ("its ping-pong form in clusters of two", r"GemmWarpSpecialized<.*tfloat32_t.*128, 64, 6, 2, 1, 1, 1, 0, 2, false>, 8, 16, .*BiasRelu, true, 1, " + COPY + ", false, 0, 0>", 1,
     ["HGMMA.64x64x8.F32.TF32", "UTMALDG.5D", "UTMALDG.3D.MULTICAST", "BAR.ARV", "FADD"], []),
    ("implicit-GEMM conv, 3xTF32 split in the kernel", r"GemmWarpSpecialized<.*ConvParams<.*, 2, 64, .*BiasRelu, true, 1, " + COPY + ", false, 0, 0>", 1,
     ["HGMMA.64x16x8.F32.TF32", "UTMALDG.5D", "UTMALDG.3D", "USETMAXREG", "FADD"], []),
    ("channels-last copy", r"to_channels_last_kernel<float, cutegen::conv::SameInner>", 1, [], ["HGMMA"]),
    ("its padded form, for flat tiles", r"to_channels_last_kernel<float, cutegen::conv::PaddedInner>", 1, [], ["HGMMA"]),
    ("a transposed convolution's phase weight", r"(?<!merged_)phase_weight_kernel<float>", 1, [], ["HGMMA"]),
    ("its phases no tap reaches", r"bias_only_phase_kernel<", 1, [], ["HGMMA"]),
    ("row packing of few input channels", r"pack_rows_kernel<float>", 1, [], ["HGMMA"]),
    ("its weight", r"pack_weight_rows_kernel<float>", 1, [], ["HGMMA"]),
    ("a chain's mean over the pixels fused: atomics per tile",
     r"GemmWarpSpecialized<.*ConvParams<.*, 8, 16, .*BiasMeanOverPixels, false, 1, " + COPY + ", false, 0, 0>", 1,
     ["HGMMA.64x128x8.F32.TF32", "UTMALDG.5D", "SHFL.BFLY", "BAR.SYNC", "REDG.E.ADD.F32"], []),
    ("the min over the channels fused: quad shuffles, no atomics",
     r"GemmWarpSpecialized<.*ConvParams<.*, 1, 128, .*BiasMinOverChannels, false, 1, " + COPY + ", false, 0, 0>", 1,
     ["HGMMA.64x64x8.F32.TF32", "UTMALDG.5D", "SHFL.BFLY", "FMNMX"], ["REDG", "ATOMG"]),
    ("the logsumexp over them, W phases merged",
     r"GemmWarpSpecialized<.*ConvParams<.*, 8, 16, .*BiasLogSumExpOverChannels, false, 2, " + COPY + ", false, 0, 0>", 1,
     ["HGMMA.64x64x8.F32.TF32", "UTMALDG.5D", "SHFL.BFLY", "MUFU.EX2"], ["REDG", "ATOMG"]),
    ("a 2 x 2 max pool fused: the thread's rows, then a shuffle",
     r"GemmWarpSpecialized<.*ConvParams<.*, 16, 8, .*BiasMaxPool2, false, 1, " + COPY + ", false, 0, 0>", 1,
     ["HGMMA.64x128x8.F32.TF32", "UTMALDG.5D", "SHFL.BFLY", "FMNMX"], ["REDG", "ATOMG"]),
    ("a 4 x 4 average pool fused into a 3xTF32 convolution",
     r"GemmWarpSpecialized<.*ConvParams<.*, 32, 4, .*BiasAvgPool4, true, 1, " + COPY + ", false, 0, 0>", 1,
     ["HGMMA.64x64x8.F32.TF32", "UTMALDG.5D", "SHFL.BFLY", "FADD"], ["REDG", "ATOMG"]),
    ("a norm's statistics beside the output: stores, and atomics in double",
     r"GemmWarpSpecialized<.*ConvParams<.*, 8, 16, .*BiasNormStatistics, false, 1, " + COPY + ", false, 0, 0>", 1,
     ["HGMMA.64x64x8.F32.TF32", "UTMALDG.5D", "SHFL.BFLY", "STG.E", "DADD", "REDG.E.ADD.F64"], []),
    ("transposed, gathered per output pixel, exact fp32", r"transposed_gather_kernel<128, 16, .*BiasRelu>", 1,
     ["FFMA", "LDS.128", "LDG.E.CONSTANT"], ["HGMMA"]),
    ("depthwise, exact fp32", r"depthwise_conv_kernel<64, 4, 8, 3, 3,", 1, ["FFMA", "LDS"], ["HGMMA"]),
    ("direct, exact fp32, taps as float4 broadcasts", DIRECT_LOOPED, 1, ["FFMA", "LDS.128", "LDGSTS"], ["HGMMA"]),
    ("direct with its 3 x 3 taps unrolled", DIRECT_3X3, 1, ["FFMA", "LDS.128", "LDGSTS"], ["HGMMA"]),
    ("direct, its patch in chunks of channels (looped, unrolled)", DIRECT_CHUNKED, 2, ["FFMA", "LDS.128", "LDGSTS"],
     ["HGMMA"]),
    ("direct, two columns a thread (patch whole, chunked)", DIRECT_TWO_COLUMNS, 2, ["FFMA", "LDS.128", "LDGSTS"],
     ["HGMMA"]),
    ("direct on the tensor cores: A gathered from the patch, 3xTF32 in wgmma RS, promoted every 4 k-blocks",
     r"direct_mma_kernel<4, 32, 64, 11, 4, 3, .*BiasRelu>", 1, ["HGMMA.64x64x8.F32.TF32", "LDS", "LDGSTS", "STG.E", "FADD"],
     ["LD.E", "LDL", "STL"]),
    ("the same in plain TF32 (one product a k-block) over 27 k-blocks and 16 channels",
     r"direct_mma_kernel<4, 32, 16, 27, 0, 1, .*BiasRelu>", 1, ["HGMMA.64x16x8.F32.TF32", "LDS", "LDGSTS", "STG.E"],
     ["LD.E", "LDL", "STL"]),
    ("the same with a norm's statistics fused: stores, shuffles, atomics in double",
     r"direct_mma_kernel<4, 32, 24, 11, 0, 3, .*BiasNormStatistics>", 1,
     ["HGMMA.64x24x8.F32.TF32", "SHFL.BFLY", "STG.E", "REDG.E.ADD.F64"], ["LD.E", "LDL", "STL"]),
    ("and a mean over the pixels, the whole K in the tensor cores' sums: atomics, no stores of the output",
     r"direct_mma_kernel<4, 32, 64, 11, 0, 3, .*BiasMeanOverPixels>", 1,
     ["HGMMA.64x64x8.F32.TF32", "SHFL.BFLY", "REDG.E.ADD.F32"], ["STG.E ", "LD.E", "LDL", "STL"]),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    ap.add_argument("--cutlass", required=True, help="CUTLASS include directory")
    ap.add_argument("--work", required=True, help="directory for the object file")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    obj = os.path.join(args.work, "sass_probe.cubin")
    resources, serialized = build_probe(args.nvcc, [args.cutlass, KERNELS], os.path.join(HERE, "sass_probe.cu"), obj)
    opcodes = sass_opcodes(find_cuobjdump(args.nvcc), obj)
    names = demangle(sorted(opcodes))
    failures = check_expectations(EXPECTATIONS, names, opcodes, resources) + [f"ptxas: {w}" for w in serialized]
    failures += check_unrolled_taps(names, opcodes)
    return report(names, failures)


def check_unrolled_taps(names, opcodes):
    """The direct kernel with 3 x 3 taps as constants holds the 9 taps' multiply-adds unrolled: at
    least nine times the FFMA of the looped form (one tap's Rows x KB)."""
    looped = [m for m, d in names.items() if re.search(DIRECT_LOOPED, d)]
    unrolled = [m for m, d in names.items() if re.search(DIRECT_3X3, d)]
    if len(looped) != 1 or len(unrolled) != 1:
        return []  # check_expectations reports the missing kernel
    n_looped, n_unrolled = count(opcodes[looped[0]], "FFMA"), count(opcodes[unrolled[0]], "FFMA")
    if n_unrolled >= 9 * n_looped > 0:
        return []
    return [f"direct with its 3 x 3 taps unrolled: {n_unrolled} FFMA against {n_looped} looped (want 9x)"]


if __name__ == "__main__":
    sys.exit(main())
