// Elementwise kernels: out = expr(operands...) over n elements. Every operand that is dense, or
// broadcast in contiguous runs of whole tiles, moves global -> registers through a 128-bit tiled copy
// (evict_last, `Tiled`); other broadcast or strided operands are read one element at a time through a
// CuTe layout over the output's dims, stride 0 on broadcast dims (`Gathered`). The fused expression
// (`expr(float const* v)`, v[k] operand k's value) runs in fp32 and a tiled copy stores the result. Full tiles first
// (grid-stride, possibly a persistent grid), then a predicated tail. The instance declares the __global__ kernel (its
// parameters are the task's operands and scalars) and calls tiles() with its expression and operands.
#pragma once

#include <utility>

#include "common/prelude.cuh"

namespace cg_elementwise {

// An operand read with the output's tiled copy: its tensor has one mode over the flat index.
template <class TensorT>
struct Tiled {
  TensorT m;
  // Registers for this thread's elements of a tile, and tile t's loaded into them.
  template <int kThreads, int kVec, class TileShape>
  __device__ __forceinline__ auto fragment(TileShape tile) const {
    auto copy_in = cg_expert::evict_last_tiled_copy<typename TensorT::value_type, kThreads, kVec>();
    return make_fragment_like(copy_in.get_thread_slice(threadIdx.x).partition_S(local_tile(m, tile, make_coord(0))));
  }
  template <int kThreads, int kVec, class TileShape, class Fragment>
  __device__ __forceinline__ void load(TileShape tile, int64_t t, Fragment& tIrIn) const {
    auto copy_in = cg_expert::evict_last_tiled_copy<typename TensorT::value_type, kThreads, kVec>();
    Tensor tIgIn =
        copy_in.get_thread_slice(threadIdx.x).partition_S(local_tile(m, tile, make_coord(t)));  // (CPY, kUnroll)
    copy(copy_in, tIgIn, tIrIn);
  }
  template <class Fragment>
  __device__ __forceinline__ float at(Fragment const& r, int i, int64_t idx) const {
    (void)idx;
    return cg_expert::to_f(r(i));
  }
  __device__ __forceinline__ float at(int64_t idx) const { return cg_expert::to_f(m(idx)); }
};

// An operand read element by element at the output's linear index.
template <class TensorT>
struct Gathered {
  TensorT m;
  template <int kThreads, int kVec, class TileShape>
  __device__ __forceinline__ int fragment(TileShape) const {
    return 0;
  }
  template <int kThreads, int kVec, class TileShape>
  __device__ __forceinline__ void load(TileShape, int64_t, int&) const {}
  __device__ __forceinline__ float at(int, int, int64_t idx) const { return cg_expert::to_f(m(idx)); }
  __device__ __forceinline__ float at(int64_t idx) const { return cg_expert::to_f(m(idx)); }
};

template <class TensorT>
__device__ __forceinline__ Tiled<TensorT> tiled(TensorT m) {
  return {m};
}
template <class TensorT>
__device__ __forceinline__ Gathered<TensorT> gathered(TensorT m) {
  return {m};
}

// Tile t of every operand into its fragment.
template <int kThreads, int kVec, class TileShape, class Fragments, size_t... K, class... Operands>
__device__ __forceinline__ void load_tile(TileShape tile, int64_t t, Fragments& fragments, std::index_sequence<K...>,
                                          Operands const&... in) {
  (in.template load<kThreads, kVec>(tile, t, get<K>(fragments)), ...);
}

// expr(v) with v[k] operand k's value at element i of the tile (linear index idx), in operand order.
template <class Expr, class Fragments, size_t... K, class... Operands>
__device__ __forceinline__ float fused_at(Expr const& expr, Fragments const& fragments, int i, int64_t idx,
                                          std::index_sequence<K...>, Operands const&... in) {
  const float v[] = {in.at(get<K>(fragments), i, idx)...};
  return expr(v);
}

// out[i] = expr(v), v the operands' values at i, for i < n; `vectorized`: every tiled operand and out 16-byte
// aligned, so full tiles move as vectors (else everything takes the tail's path).
template <int kThreads, int kVec, int kUnroll, class TOut, class Expr, class... Operands>
__device__ __forceinline__ void tiles(Expr const& expr, TOut* out_ptr, int64_t n, bool vectorized,
                                      Operands const&... in) {
  using Tile = Int<kThreads * kVec * kUnroll>;
  Tensor mOut = make_tensor(make_gmem_ptr(out_ptr), make_shape(n));  // (n)
  auto copy_out = cg_expert::vec_tiled_copy<TOut, kThreads, kVec>();
  auto thr_out = copy_out.get_thread_slice(threadIdx.x);
  Tensor cOut = make_identity_tensor(make_shape(n));  // (n) -> linear index, for gathered operands

  int64_t full_tiles = vectorized ? n / Tile{} : 0;
  for (int64_t t = blockIdx.x; t < full_tiles; t += gridDim.x) {
    Tensor gOut = local_tile(mOut, make_shape(Tile{}), make_coord(t));  // (Tile)
    Tensor tOgOut = thr_out.partition_D(gOut);                          // (CPY, kUnroll)
    Tensor tOcOut = thr_out.partition_D(local_tile(cOut, make_shape(Tile{}), make_coord(t)));
    Tensor tOrOut = make_fragment_like(tOgOut);                                                      // registers
    auto fragments = cute::make_tuple(in.template fragment<kThreads, kVec>(make_shape(Tile{}))...);  // registers
    load_tile<kThreads, kVec>(make_shape(Tile{}), t, fragments, std::index_sequence_for<Operands...>{}, in...);
    CUTE_UNROLL
    for (int i = 0; i < size(tOrOut); ++i) {
      int64_t idx = get<0>(tOcOut(i));
      tOrOut(i) =
          cg_expert::from_f<TOut>(fused_at(expr, fragments, i, idx, std::index_sequence_for<Operands...>{}, in...));
    }
    copy(copy_out, tOrOut, tOgOut);
  }
  // Tail (or everything, when a pointer is not 16-byte aligned): one element per thread, predicated.
  for (int64_t idx = full_tiles * Tile{} + int64_t(blockIdx.x) * kThreads + threadIdx.x; idx < n;
       idx += int64_t(gridDim.x) * kThreads) {
    const float v[] = {in.at(idx)...};
    mOut(idx) = cg_expert::from_f<TOut>(expr(v));
  }
}

// Blocks for n elements in tiles of kThreads x kVec x kUnroll (one per tile, capped at kBlocksPerSm per
// SM when that is > 0), or one element per thread when not vectorized.
template <int kThreads, int kVec, int kUnroll, int kBlocksPerSm, int64_t n>
inline int blocks_for(bool vectorized) {
  int64_t tiles = n / (kThreads * kVec * kUnroll) + 1;
  int64_t cap = kBlocksPerSm > 0 ? int64_t(cg_expert::sm_count()) * kBlocksPerSm : int64_t(1) << 30;
  if (!vectorized) tiles = (n + kThreads - 1) / kThreads;
  return static_cast<int>(tiles < cap ? tiles : cap);
}

}  // namespace cg_elementwise
