// Row-normalization kernel text: short rows held in one warp's registers.
// rownorm_template.cc prepends the statistic's code (namespace cg_norm) and fills the $variables.
#include "expert/rownorm_kernels.h"

namespace cutegen {

const char* const kRowNormWarp = R"(
// A warp per row, held in registers: kIters steps of 32 lanes x kVec elements, all loaded at once
// (vectors through the tiled copy when the rows are 16-byte aligned, else coalesced scalars), then
// shuffles combine the lanes' statistics, and the normalized registers are stored. No shared memory
// and no barrier: short rows are latency-bound, and a block per row paid for both.
template <int kVec, int kIters>
__global__ void __launch_bounds__(32) norm_rows_warp($in_type const* __restrict__ x, $out_type* __restrict__ out,
                                                     float const* weight, float const* bias, int64_t extent, bool vectorized) {
  using Step = Int<32 * kVec>;
  const int lane = threadIdx.x;
  Tensor mX = make_tensor(make_gmem_ptr(x + blockIdx.x * extent), make_shape(extent));     // this row
  Tensor mY = make_tensor(make_gmem_ptr(out + blockIdx.x * extent), make_shape(extent));
  auto copy_in = cg_expert::vec_tiled_copy<$in_type, 32, kVec>();
  auto copy_out = cg_expert::vec_tiled_copy<$out_type, 32, kVec>();
  auto thr_in = copy_in.get_thread_slice(lane);
  auto thr_out = copy_out.get_thread_slice(lane);
  // Element k of step i: lane-contiguous vectors, or (scalar) lane-interleaved for coalescing.
  auto position = [&](int i, int k) -> int64_t { return vectorized ? (i * 32 + lane) * kVec + k : (i * kVec + k) * 32 + lane; };
  float v[kIters][kVec];
  CUTE_UNROLL
  for (int i = 0; i < kIters; ++i) {
    if (vectorized) {
      Tensor tXgX = thr_in.partition_S(local_tile(mX, make_shape(Step{}), make_coord(i)));  // (CPY, 1)
      Tensor tXrX = make_fragment_like(tXgX);
      if (position(i, 0) < extent) copy(copy_in, tXgX, tXrX);  // a row of whole vectors: all or none
      CUTE_UNROLL
      for (int k = 0; k < kVec; ++k) v[i][k] = cg_expert::to_f(tXrX(k));
    } else {
      CUTE_UNROLL
      for (int k = 0; k < kVec; ++k) v[i][k] = position(i, k) < extent ? cg_expert::to_f(mX(position(i, k))) : 0.0f;
    }
  }
  Stat st = cg_norm::identity();
  CUTE_UNROLL
  for (int i = 0; i < kIters; ++i)
    CUTE_UNROLL
    for (int k = 0; k < kVec; ++k)
      if (position(i, k) < extent) cg_norm::update(st, v[i][k]);
  CUTE_UNROLL
  for (int m = 16; m > 0; m >>= 1) st = cg_norm::combine(st, cg_expert::shfl_xor(st, m));
  st = cg_norm::finalize(st);
  CUTE_UNROLL
  for (int i = 0; i < kIters; ++i) {
    if (vectorized) {
      Tensor tYgY = thr_out.partition_D(local_tile(mY, make_shape(Step{}), make_coord(i)));  // (CPY, 1)
      Tensor tYrY = make_fragment_like(tYgY);
      CUTE_UNROLL
      for (int k = 0; k < kVec; ++k) tYrY(k) = cg_expert::from_f<$out_type>(cg_norm::apply(v[i][k], position(i, k), st, weight, bias));
      if (position(i, 0) < extent) copy(copy_out, tYrY, tYgY);
    } else {
      CUTE_UNROLL
      for (int k = 0; k < kVec; ++k)
        if (position(i, k) < extent) mY(position(i, k)) = cg_expert::from_f<$out_type>(cg_norm::apply(v[i][k], position(i, k), st, weight, bias));
    }
  }
}

$signature {
  constexpr int kVec = $vec;
  constexpr int64_t rows = $outer, extent = $extent;
  constexpr int kIters = int((extent + 32 * kVec - 1) / (32 * kVec));
  static_assert(rows < (int64_t(1) << 31), "a block per row");
  bool vectorized = cg_expert::aligned_to($in_name, 16) && cg_expert::aligned_to($out_name, 16) && extent % kVec == 0;
  norm_rows_warp<kVec, kIters><<<static_cast<int>(rows), 32, 0, stream>>>($in_name, $out_name, $weight, $bias, extent, vectorized);
}
)";

}  // namespace cutegen
