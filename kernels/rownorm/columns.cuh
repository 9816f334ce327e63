// Row normalization over a middle dim: one thread per column, coalesced.
#pragma once

#include "rownorm/stats.cuh"

// One thread per (outer, inner) column. Columns of up to 64 elements are held in registers and read
// once; longer ones are read twice (statistics, then output).
template <class Norm, class TIn, class TOut, int kThreads, int kCache>
__global__ void __launch_bounds__(kThreads)
    norm_columns(TIn const* __restrict__ x, TOut* __restrict__ out, int64_t outer, int64_t extent, int64_t inner) {
  auto layout = make_layout(make_shape(inner, extent, outer), make_stride(Int<1>{}, inner, extent * inner));
  Tensor mX = make_tensor(make_gmem_ptr(x), layout);    // (inner, extent, outer)
  Tensor mY = make_tensor(make_gmem_ptr(out), layout);  // (inner, extent, outer)
  for (int64_t col = int64_t(blockIdx.x) * kThreads + threadIdx.x; col < outer * inner;
       col += int64_t(gridDim.x) * kThreads) {
    int64_t o = col / inner, j = col % inner;
    Stat st = Norm::identity();
    if constexpr (kCache > 0) {
      float v[kCache];
      CUTE_UNROLL
      for (int r = 0; r < kCache; ++r)
        v[r] = cg_expert::to_f(mX(j, r, o));  // every load in flight at once
      CUTE_UNROLL
      for (int r = 0; r < kCache; ++r)
        Norm::update(st, v[r]);
      st = Norm::finalize(st);
      CUTE_UNROLL
      for (int r = 0; r < kCache; ++r)
        mY(j, r, o) = cg_expert::from_f<TOut>(cg_norm::apply<Norm>(v[r], r, st, nullptr, nullptr));
    } else {
      for (int64_t r = 0; r < extent; ++r)
        Norm::update(st, cg_expert::to_f(mX(j, r, o)));
      st = Norm::finalize(st);
      for (int64_t r = 0; r < extent; ++r)
        mY(j, r, o) =
            cg_expert::from_f<TOut>(cg_norm::apply<Norm>(cg_expert::to_f(mX(j, r, o)), r, st, nullptr, nullptr));
    }
  }
}

// x viewed as [outer, extent, inner], normalized along extent.
template <class Norm, int kThreads, int64_t outer, int64_t extent, int64_t inner, class TIn, class TOut>
void launch_norm_columns(TIn const* x, TOut* out, cudaStream_t stream) {
  constexpr int kCache = extent <= 64 ? int(extent) : 0;
  int64_t blocks = (outer * inner + kThreads - 1) / kThreads;
  if (blocks > (int64_t(1) << 30)) blocks = int64_t(1) << 30;
  norm_columns<Norm, TIn, TOut, kThreads, kCache>
      <<<static_cast<int>(blocks), kThreads, 0, stream>>>(x, out, outer, extent, inner);
}
