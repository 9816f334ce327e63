// Reduction over a middle dim of [outer, extent, inner]: threads own adjacent columns (coalesced),
// kSplit threads share a column's extent and combine through shared memory.
#pragma once

#include "reduce/ops.cuh"

// blockDim = (kCols, kSplit): kCols adjacent columns, kSplit threads sharing each column's extent,
// each keeping kUnroll independent partial results so that kUnroll loads are in flight at once.
template <class Op, class TIn, class TOut, int kCols, int kSplit, int kUnroll>
__global__ void __launch_bounds__(kCols* kSplit)
    reduce_columns(TIn const* __restrict__ x, TOut* __restrict__ out, int64_t outer, int64_t extent, int64_t inner) {
  __shared__ Acc smem[kSplit][kCols];
  Tensor mX = make_tensor(make_gmem_ptr(x),
                          make_layout(make_shape(inner, extent, outer),
                                      make_stride(Int<1>{}, inner, extent * inner)));  // (inner, extent, outer)
  Tensor mOut = make_tensor(make_gmem_ptr(out), make_layout(make_shape(inner, outer), make_stride(Int<1>{}, inner)));
  int64_t columns = outer * inner;
  for (int64_t base = int64_t(blockIdx.x) * kCols; base < columns; base += int64_t(gridDim.x) * kCols) {
    int64_t col = base + threadIdx.x;
    bool valid = col < columns;  // predicate for the last block's columns
    int64_t o = valid ? col / inner : 0, j = valid ? col % inner : 0;
    Acc part[kUnroll];
    CUTE_UNROLL
    for (int u = 0; u < kUnroll; ++u)
      part[u] = Op::identity();
    int64_t r = threadIdx.y;
    if (valid) {
      for (; r + (kUnroll - 1) * kSplit < extent; r += kUnroll * kSplit) {
        float v[kUnroll];
        CUTE_UNROLL
        for (int u = 0; u < kUnroll; ++u)
          v[u] = cg_expert::to_f(mX(j, r + u * kSplit, o));
        CUTE_UNROLL
        for (int u = 0; u < kUnroll; ++u)
          part[u] = Op::combine(part[u], Acc{v[u], r + u * kSplit});
      }
      for (; r < extent; r += kSplit)
        part[0] = Op::combine(part[0], Acc{cg_expert::to_f(mX(j, r, o)), r});
    }
    Acc acc = part[0];
    CUTE_UNROLL
    for (int u = 1; u < kUnroll; ++u)
      acc = Op::combine(acc, part[u]);
    smem[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.y == 0 && valid) {
      CUTE_UNROLL
      for (int s = 1; s < kSplit; ++s)
        acc = Op::combine(acc, smem[s][threadIdx.x]);
      mOut(j, o) = cg_reduce::result<Op, TOut>(acc, extent);
    }
    __syncthreads();
  }
}

// x viewed as [outer, extent, inner], reduced by Op along extent into [outer, inner].
template <class Op, int kThreads, int kSplit, int kUnroll, int64_t outer, int64_t extent, int64_t inner, class TIn,
          class TOut>
void launch_reduce_columns(TIn const* x, TOut* out, cudaStream_t stream) {
  constexpr int kCols = kThreads / kSplit;
  int64_t blocks = (outer * inner + kCols - 1) / kCols;
  if (blocks > (int64_t(1) << 30)) blocks = int64_t(1) << 30;
  reduce_columns<Op, TIn, TOut, kCols, kSplit, kUnroll>
      <<<static_cast<int>(blocks), dim3(kCols, kSplit), 0, stream>>>(x, out, outer, extent, inner);
}
