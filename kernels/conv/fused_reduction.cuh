// A level-2 chain's first stage, a reduction of the convolution's output, fused into the implicit
// GEMM's epilogue (epilogue_nchw_reduce.cuh; kPixels and kStats also the tensor-core direct one's,
// direct_mma.cuh), so that the full output is never written. The
// epilogue functor declares it:
//   using Reduction = cutegen::conv::FusedReduction<ReduceDims::kPixels, ReduceOp::kSum, 64516>;
// and the kernel then writes the reduction's result where it would have written the output.
#pragma once

#include <cstdint>
#include <type_traits>

namespace cutegen::conv {

// kPixels: over every output pixel of each (image, channel), out (N, K): each tile's partial sums
//   added by atomics into zeros (ConvForward::run clears them first); kSum only.
// kChannels: over the output channels of each pixel, out (N, Z, P, Q): one N tile holds them all
//   (one group, the tile at least as wide), so each value is whole in its tile and written once.
// kPool: a 2-D pool of Window x Window windows at stride Window (no padding, floor mode), out (N, K,
//   P / Window, Q / Window): tiles of 128 / TileQ x TileQ pixels whose windows lie in one warp
//   (TileQ 8 for windows of 2, 4 for windows of 4); kMax, or kSum with the window's size as divisor.
// kStats: a norm's statistics beside the output, which is written whole: each (image, channel)'s sum
//   and sum of squares, (N, K, 2) doubles at the functor's `double* stats` (ConvForward::run clears
//   them), each tile's fp32 partial sums added by atomics in double; kSum only. The norm's stage
//   then reads the output once (kernels/chain/stages.cuh norm_stats_stage).
enum class ReduceDims { kPixels, kChannels, kPool, kStats };
enum class ReduceOp { kSum, kMax, kMin, kLogSumExp };

// Divisor: a mean's count (the values are scaled by its inverse as they are reduced).
template <ReduceDims Dims_, ReduceOp Op_, int64_t Divisor = 1, int Window_ = 1>
struct FusedReduction {
  static_assert((Dims_ != ReduceDims::kPixels && Dims_ != ReduceDims::kStats) || Op_ == ReduceOp::kSum,
                "atomics across tiles sum only");
  static_assert(Dims_ != ReduceDims::kPool ||
                    ((Window_ == 2 || Window_ == 4) && Op_ != ReduceOp::kMin && Op_ != ReduceOp::kLogSumExp),
                "pools of 2 x 2 or 4 x 4, max or average");
  static constexpr ReduceDims Dims = Dims_;
  static constexpr ReduceOp Op = Op_;
  static constexpr int Window = Window_;
  static constexpr float Scale = 1.f / float(Divisor);
};

template <class Functor, class = void>
struct ReductionOf {
  using type = void;
};
template <class Functor>
struct ReductionOf<Functor, std::void_t<typename Functor::Reduction>> {
  using type = typename Functor::Reduction;
};
// Whether the functor's kernel writes a fused reduction rather than, or beside, the output (the
// templates other than the implicit GEMM and the tensor-core direct one refuse such a functor).
template <class Functor>
constexpr bool fuses_reduction = !std::is_void_v<typename ReductionOf<Functor>::type>;

}  // namespace cutegen::conv
