// The convolution's epilogue: accumulators from registers to the channels-first output (N, K, Z,
// P, Q) through a functor, skipping the rows of a pixel tile past the image's edge and the columns
// past the group's channels. A wgmma fragment's values of one column and eight neighbouring rows
// are eight neighbouring pixels of one channel: each warp store fills whole 32-byte sectors.
//
// The functor's contract (fused pointwise and per-channel ops, the bias among them):
//   CUTE_DEVICE float apply(float acc, int n, int k, int z, int p, int q) const;
// with the element's output coordinates (k over all groups; z, p = 0 for lower dims).
#pragma once

#include <cstdint>

#include <cute/tensor.hpp>

#include "conv_shape.cuh"
#include "gemm/tile_scheduler.cuh"

namespace cutegen::conv {

template <class Config, int TileP, int TileQ, class Functor>
struct EpilogueNchwStore {
  using ElementC = typename Config::ElementC;
  using Tiling = PixelTiling<TileP, TileQ>;

  struct Params {
    ElementC* out;
    ConvShape shape;
    Functor functor;
  };

  template <class TiledMma, class Accumulator>
  CUTE_DEVICE static void store(Params const& params, TiledMma const& tiled_mma, Accumulator const& accum,
                                gemm::TileCoord tile, int consumer_thread) {
    using namespace cute;
    ConvShape const& s = params.shape;
    Tensor cC = make_identity_tensor(make_shape(Int<Config::TileM>{}, Int<Config::TileN>{}));  // (BM,BN) -> (row,col)
    Tensor tCcC = tiled_mma.get_thread_slice(consumer_thread).partition_C(cC);                 // (MMA,MMA_M,MMA_N)
    CUTE_STATIC_ASSERT_V(size(tCcC) == size(accum));
    PixelTile pixels = Tiling::tile(s, tile.m);
    int64_t plane = int64_t(s.p) * s.q;
    int k0 = tile.n * Config::TileN;
    CUTE_UNROLL
    for (int i = 0; i < size(accum); ++i) {
      int row = get<0>(tCcC(i)), col = get<1>(tCcC(i));
      int p = pixels.p0 + row / TileQ, q = pixels.q0 + row % TileQ, k = k0 + col;
      if (p < s.p && q < s.q && k < s.k_group()) {
        k += tile.batch * s.k_group();
        params.out[((int64_t(pixels.n) * s.k + k) * s.z + pixels.z) * plane + int64_t(p) * s.q + q] =
            ElementC(params.functor.apply(accum(i), pixels.n, k, pixels.z, p, q));
      }
    }
  }
};

}  // namespace cutegen::conv
