// One GEMM instance's compile-time choices, gathered so every part (mainloop, epilogue, kernels)
// reads the same ones: element types, operand layouts, the CTA tile, pipeline depth, cluster shape.
#pragma once

#include <cute/tensor.hpp>
#include <cutlass/numeric_types.h>

#include "operand_layout.cuh"

namespace cutegen::gemm {

template <class ElementA_, class ElementB_, class ElementC_,  // cute::half_t, bfloat16_t, tfloat32_t or float in
          class LayoutA_, class LayoutB_,                     // RowMajor / ColMajor tags
          int TileM_, int TileN_, int Stages_, int ClusterM_ = 1, int ClusterN_ = 1, int MmaWarpgroups_ = 2,
          int PromoteEvery_ = 1, int RegisterSplit_ = 0, int AheadParts_ = 3, bool HalfParts_ = false>
struct GemmConfig {
  using ElementA = ElementA_;
  using ElementB = ElementB_;
  using ElementC = ElementC_;
  using ElementAccumulator = float;
  using LayoutA = LayoutA_;
  using LayoutB = LayoutB_;

  // fp32 operands are computed by 3xTF32 inside the kernel (mainloop_3xtf32.cuh): the tensor cores
  // see them as tf32, each smem stage split into hi and lo parts.
  static constexpr bool Fp32Via3xTf32 = cute::is_same_v<ElementA, float>;
  // k-tiles the 3xTF32 partial spans before it is promoted into the fp32 accumulator (one full
  // wgmma wait each; tests/tf32_accumulation_test.cc bounds the accuracy of longer spans).
  static constexpr int PromoteEvery = PromoteEvery_;
  // fp32 with A split in the consumers' registers (mainloop_register_split.cuh), B split ahead (1:
  // for a small B beside a large A, which a pass over A would cost more than it saves) or in shared
  // memory by the producer warpgroup (2: no pass over either operand).
  static constexpr bool RegisterSplit = RegisterSplit_ > 0;
  static constexpr bool SplitBInKernel = RegisterSplit_ == 2;
  // fp16 operands that are fp32 ones pre-split into fp16 hi and lo parts (fp16x3, fp16_split.cuh):
  // the three products of the tf32 parts below at twice the tensor cores' rate, within fp16's range.
  static constexpr bool HalfParts = HalfParts_;
  // tf32 operands are fp32 ones pre-split into three parts per k-tile (split_tf32_kernel.cuh): the
  // GEMM's partial then spans 3 k-tiles per k-tile of the operands (mainloop_promoting.cuh). 0: the
  // half-precision GEMMs sum all of K on the tensor cores, as cuBLAS does.
  static constexpr int PromoteSpan = cute::is_same_v<ElementA, cute::tfloat32_t> || HalfParts ? 3 * PromoteEvery : 0;
  // tf32 operands pre-split into two parts per k-tile instead (A hi, lo; B lo, hi): a third less to
  // write ahead and to load, the three products crossing each pair of stages
  // (mainloop_paired_parts.cuh; it promotes every PromoteEvery pairs).
  static constexpr bool PairedParts = AheadParts_ == 2;
  // 1 with the register split: plain TF32, one product of the operands rounded to nearest tf32 (wgmma
  // would truncate fp32 bits, a bias that does not average out). For long sums of K, where the
  // rounding errors average out below the accuracy rule's bound (level 1's 6: K = 524288).
  static constexpr bool OneProduct = AheadParts_ == 1;
  using MmaElementA = cute::conditional_t<Fp32Via3xTf32, cute::tfloat32_t, ElementA>;
  using MmaElementB = cute::conditional_t<Fp32Via3xTf32, cute::tfloat32_t, ElementB>;

  static constexpr cute::GMMA::Major MajorA = major_of_A<LayoutA>;
  static constexpr cute::GMMA::Major MajorB = major_of_B<LayoutB>;

  // A K-tile is one 128-byte swizzle row: 64 half-precision or 32 tf32 elements.
  static constexpr int TileM = TileM_;
  static constexpr int TileN = TileN_;
  static constexpr int TileK = 128 / int(sizeof(ElementA));
  static constexpr int Stages = Stages_;
  static constexpr int ClusterM = ClusterM_;
  static constexpr int ClusterN = ClusterN_;

  using TileShape = cute::Shape<cute::Int<TileM>, cute::Int<TileN>, cute::Int<TileK>>;
  using ClusterShape = cute::Shape<cute::Int<ClusterM>, cute::Int<ClusterN>, cute::_1>;

  // Warpgroups computing one tile together: 2 split its M between them (CUTLASS's "cooperative"
  // kernels), 1 gives every consumer warpgroup a tile of its own (the ping-pong kernel).
  static constexpr int MmaWarpgroups = MmaWarpgroups_;

  static_assert(sizeof(ElementA) == sizeof(ElementB), "mixed-width inputs are not supported");
  static_assert(MmaWarpgroups == 1 || MmaWarpgroups == 2, "one or two warpgroups per tile");
  static_assert(TileM % (64 * MmaWarpgroups) == 0, "each consumer warpgroup takes whole 64-row wgmma atoms");
  static_assert(TileN % 8 == 0 && TileN <= 256, "wgmma N is a multiple of 8, at most 256");
  static_assert(Stages >= 2, "a pipeline needs at least two stages");
  static_assert(PromoteEvery >= 1, "a partial spans at least one k-tile");
  static_assert(ClusterM * ClusterN <= 4, "TMA multicast masks here cover clusters of up to 4 CTAs");
  static_assert(cute::is_same_v<ElementA, float> == cute::is_same_v<ElementB, float>, "fp32 operands come in pairs");
  static_assert(AheadParts_ == 3 || (AheadParts_ == 2 && PromoteSpan > 0) || (AheadParts_ == 1 && RegisterSplit),
                "2 or 3 parts of tf32 operands split ahead, or 1 with the register split");
  static_assert(!HalfParts || (cute::is_same_v<ElementA, cute::half_t> && AheadParts_ == 3),
                "fp16x3 reads three fp16 parts per k-tile");
  static_assert(!RegisterSplit || (Fp32Via3xTf32 && ClusterM * ClusterN == 1),
                "the register split is for fp32 operands, without clusters");
  static_assert(!cute::is_same_v<MmaElementA, cute::tfloat32_t> || ((MajorA == cute::GMMA::Major::K || RegisterSplit) &&
                                                                    (MajorB == cute::GMMA::Major::K || SplitBInKernel)),
                "tf32 wgmma reads K-major operands only (A split in registers is loaded element by element, B "
                "split in the kernel is written K-major)");
};

}  // namespace cutegen::gemm
