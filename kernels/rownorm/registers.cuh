// Row normalization, short rows held in the registers of a block (a warp or more), read once.
#pragma once

#include "rownorm/stats.cuh"

// A block per row, held in registers: kIters steps of kThreads threads x kVec elements, all loaded
// at once (vectors through the tiled copy, evict_last, when the rows are 16-byte aligned, else
// coalesced scalars), the row's statistic taken by Norm::held_stats with reductions by shuffles
// (and, past one warp, through shared memory), then the normalized registers are stored. A warp per row
// needs no shared memory and no barrier; few rows take more warps each, since one warp's long serial
// chain then sets the time. The row length is a constant, so that whole steps need no bounds checks.
template <class Norm, class TIn, class TOut, int kThreads, int kVec, int kIters, int64_t kExtent>
__global__ void __launch_bounds__(kThreads)
    norm_rows_registers(TIn const* __restrict__ x, TOut* __restrict__ out, float const* __restrict__ weight,
                        float const* __restrict__ bias, bool vectorized) {
  using Step = Int<kThreads * kVec>;
  constexpr int64_t extent = kExtent;
  const int tid = threadIdx.x;
  __builtin_assume(tid < kThreads);
  Tensor mX = make_tensor(make_gmem_ptr(x + blockIdx.x * extent), make_shape(extent));  // this row
  Tensor mY = make_tensor(make_gmem_ptr(out + blockIdx.x * extent), make_shape(extent));
  auto copy_in = cg_expert::evict_last_tiled_copy<TIn, kThreads, kVec>();
  auto copy_out = cg_expert::vec_tiled_copy<TOut, kThreads, kVec>();
  auto thr_in = copy_in.get_thread_slice(tid);
  auto copy_param = cg_expert::vec_tiled_copy<float, kThreads, kVec>();
  auto thr_out = copy_out.get_thread_slice(tid);
  // Element k of step i: thread-contiguous vectors, or (scalar) thread-interleaved for coalescing.
  auto position = [&](int i, int k) -> int64_t {
    return vectorized ? (i * kThreads + tid) * kVec + k : (i * kVec + k) * kThreads + tid;
  };
  float v[kIters][kVec];
  CUTE_UNROLL
  for (int i = 0; i < kIters; ++i) {
    if (vectorized) {
      Tensor tXgX = thr_in.partition_S(local_tile(mX, make_shape(Step{}), make_coord(i)));  // (CPY, 1)
      Tensor tXrX = make_fragment_like(tXgX);
      if (position(i, 0) < extent) copy(copy_in, tXgX, tXrX);  // a row of whole vectors: all or none
      CUTE_UNROLL
      for (int k = 0; k < kVec; ++k)
        v[i][k] = cg_expert::to_f(tXrX(k));
    } else {
      CUTE_UNROLL
      for (int k = 0; k < kVec; ++k)
        v[i][k] = position(i, k) < extent ? cg_expert::to_f(mX(position(i, k))) : 0.0f;
    }
  }
  auto for_each = [&](auto&& f) {
    CUTE_UNROLL
    for (int i = 0; i < kIters; ++i)
      CUTE_UNROLL
    for (int k = 0; k < kVec; ++k)
      if (position(i, k) < extent) f(v[i][k]);
  };
  auto reduce = [&](auto value, auto op) {
    if constexpr (kThreads == 32) {
      return cg_expert::warp_reduce(value, op);
    } else {
      __shared__ decltype(value) smem[kThreads / 32];
      return cg_expert::block_reduce<kThreads>(value, op, smem);
    }
  };
  // The same as a tree: a butterfly in each warp, then one across the warps' results.
  constexpr int kWarps = kThreads / 32;
  auto tree = [&](auto value, auto op) {
    __shared__ decltype(value) warps[kWarps];
    return cg_expert::block_tree<kThreads>(value, op, warps);
  };
  // Elements per thread, where every thread holds as many, of a block of a power of two of warps (more
  // than one: a warp's rows keep two sums, measured as fast as torch.compile's); else 0.
  constexpr int kPerThread =
      kIters * kThreads * kVec == kExtent && kWarps > 1 && (kWarps & (kWarps - 1)) == 0 ? kIters * kVec : 0;
  const Stat st = Norm::held_stats(for_each, reduce, tree, Int<kPerThread>{});
  CUTE_UNROLL
  for (int i = 0; i < kIters; ++i) {
    if (vectorized) {
      Tensor tYgY = thr_out.partition_D(local_tile(mY, make_shape(Step{}), make_coord(i)));  // (CPY, 1)
      Tensor tYrY = make_fragment_like(tYgY);
      // Weight and bias as vectors too (as scalars, 8 loads per vector of x).
      auto [tWrW, tBrB] =
          cg_norm::param_tiles<Norm>(copy_param, weight, bias, extent, make_shape(Step{}), i, position(i, 0) < extent);
      CUTE_UNROLL
      for (int k = 0; k < kVec; ++k)
        tYrY(k) = cg_expert::from_f<TOut>(Norm::held_apply_to(v[i][k], st, tWrW(k), tBrB(k)));
      if (position(i, 0) < extent) copy(copy_out, tYrY, tYgY);
    } else {
      CUTE_UNROLL
      for (int k = 0; k < kVec; ++k)
        if (position(i, k) < extent) {
          const int64_t j = position(i, k);
          mY(j) = cg_expert::from_f<TOut>(
              Norm::held_apply_to(v[i][k], st, cg_norm::weight_at<Norm>(weight, j), cg_norm::bias_at<Norm>(bias, j)));
        }
    }
  }
}

// Rows of `extent` elements, a block of kThreads per row, kVec-element vectors.
template <class Norm, int kThreads, int kVec, int64_t rows, int64_t extent, class TIn, class TOut>
void launch_norm_registers(TIn const* x, TOut* out, float const* weight, float const* bias, cudaStream_t stream) {
  constexpr int kIters = int((extent + kThreads * kVec - 1) / (kThreads * kVec));
  static_assert(rows < (int64_t(1) << 31), "a block per row");
  bool vectorized = cg_expert::aligned_to(x, 16) && cg_expert::aligned_to(out, 16) && extent % kVec == 0 &&
                    cg_norm::params_aligned<Norm>(weight, bias);
  norm_rows_registers<Norm, TIn, TOut, kThreads, kVec, kIters, extent>
      <<<static_cast<int>(rows), kThreads, 0, stream>>>(x, out, weight, bias, vectorized);
}
