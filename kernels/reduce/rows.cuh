// Reduction over the last dim: one block per row (a warp for short rows), the row streamed through
// 128-bit tiled copies (kUnroll vectors in flight) and then whole vectors (a row not 16-byte aligned,
// scalar by scalar), then a shuffle and shared-memory block reduction.
#pragma once

#include "reduce/ops.cuh"

template <class Op, class TIn, class TOut, int kThreads, int kVec, int kUnroll>
__global__ void __launch_bounds__(kThreads)
    reduce_rows(TIn const* __restrict__ x, TOut* __restrict__ out, int64_t rows, int64_t extent, bool vectorized) {
  using Tile = Int<kThreads * kVec * kUnroll>;
  __shared__ Acc smem[32];
  auto tiled_copy = cg_expert::vec_tiled_copy<TIn, kThreads, kVec>();
  auto thr_copy = tiled_copy.get_thread_slice(threadIdx.x);
  Tensor mX = make_tensor(make_gmem_ptr(x),
                          make_layout(make_shape(extent, rows), make_stride(Int<1>{}, extent)));  // (extent, rows)
  Tensor cRow = make_identity_tensor(make_shape(extent));  // (extent) -> index in the row
  int64_t full_tiles = vectorized ? extent / Tile{} : 0;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    Tensor mRow = mX(_, row);  // (extent)
    Acc acc = Op::identity();
    for (int64_t t = 0; t < full_tiles; ++t) {
      Tensor tXgX = thr_copy.partition_S(local_tile(mRow, make_shape(Tile{}), make_coord(t)));  // (CPY, kUnroll)
      Tensor tXcX = thr_copy.partition_S(local_tile(cRow, make_shape(Tile{}), make_coord(t)));
      Tensor tXrX = make_fragment_like(tXgX);
      copy(tiled_copy, tXgX, tXrX);
      CUTE_UNROLL
      for (int i = 0; i < size(tXrX); ++i)
        acc = Op::combine(acc, Acc{cg_expert::to_f(tXrX(i)), get<0>(tXcX(i))});
    }
    if (vectorized) {  // whole vectors past the last full tile (a row shorter than a tile is all tail)
      for (int64_t v = full_tiles * (Tile{} / kVec) + threadIdx.x; v < extent / kVec; v += kThreads) {
        Tensor gV = local_tile(mRow, make_shape(Int<kVec>{}), make_coord(v));  // (kVec)
        Tensor rV = make_fragment_like(gV);
        copy(cg_expert::VecCopy<TIn, kVec>{}, gV, rV);
        CUTE_UNROLL
        for (int i = 0; i < kVec; ++i)
          acc = Op::combine(acc, Acc{cg_expert::to_f(rV(i)), v * kVec + i});
      }
    } else {
      for (int64_t i = threadIdx.x; i < extent; i += kThreads)  // unaligned rows: scalar loads
        acc = Op::combine(acc, Acc{cg_expert::to_f(mRow(i)), i});
    }
    acc = cg_expert::block_reduce<kThreads>(acc, Op::combine, smem);
    if (threadIdx.x == 0) out[row] = cg_reduce::result<Op, TOut>(acc, extent);
  }
}

// `rows` rows of `extent` elements, each reduced by Op into one value of `out`.
template <class Op, int kThreads, int kVec, int kUnroll, int64_t rows, int64_t extent, class TIn, class TOut>
void launch_reduce_rows(TIn const* x, TOut* out, cudaStream_t stream) {
  bool vectorized = cg_expert::aligned_to(x, kVec * sizeof(TIn)) && extent % kVec == 0;
  int blocks = static_cast<int>(rows < (int64_t(1) << 30) ? rows : (int64_t(1) << 30));
  reduce_rows<Op, TIn, TOut, kThreads, kVec, kUnroll>
      <<<blocks, kThreads, 0, stream>>>(x, out, rows, extent, vectorized);
}
