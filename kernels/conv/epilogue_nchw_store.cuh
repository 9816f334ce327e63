// The convolution's epilogue: accumulators from registers to the channels-first output (N, K, Z,
// P, Q) through a functor, skipping the rows of a pixel tile past the image's edge and the columns
// past the group's channels. A wgmma fragment's values of one column and eight neighbouring rows
// are eight neighbouring pixels of one channel: each warp store fills whole 32-byte sectors (a
// transposed convolution's output phase writes every stride-th of them: OutputPhase).
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

// MergeW > 1: a transposed convolution's W phases merged (MergedW): column n' of the GEMM is output
// channel n' / MergeW of W phase n' % MergeW, so output pixel q of the tile lands at q x MergeW +
// r_q, next to its neighbouring phases'.
template <class Config, int TileP, int TileQ, class Functor, int MergeW = 1>
struct EpilogueNchwStore {
  static_assert(Config::TileN % MergeW == 0, "an N tile holds whole (channel, W phase) groups");
  using ElementC = typename Config::ElementC;
  using Tiling = PixelTiling<TileP, TileQ>;

  struct Params {
    ElementC* out;
    ConvShape shape;  // the implicit GEMM's (for a transposed convolution, the phase's)
    Functor functor;
    OutputPhase phase;
  };

  // Everything that does not change along the fragment is worked out once per tile (the shape is a
  // kernel parameter, so a per-element k / groups or 64-bit index chain costs a division each):
  // per element there is the fragment's compile-time offset, three compares and one store. Offsets
  // within an image are 32-bit (the expert declines outputs of 2^31 elements or more per image).
  template <class TiledMma, class Accumulator>
  CUTE_DEVICE static void store(Params const& params, TiledMma const& tiled_mma, Accumulator const& accum,
                                gemm::TileCoord tile, int consumer_thread) {
    using namespace cute;
    ConvShape const& s = params.shape;
    Tensor cC = make_identity_tensor(make_shape(Int<Config::TileM>{}, Int<Config::TileN>{}));  // (BM,BN) -> (row,col)
    Tensor tCcC = tiled_mma.get_thread_slice(consumer_thread).partition_C(cC);                 // (MMA,MMA_M,MMA_N)
    CUTE_STATIC_ASSERT_V(size(tCcC) == size(accum));
    OutputPhase const& o = params.phase;
    PixelTile const pixels = Tiling::tile(s, tile.m);
    if (pixels.n >= s.n) return;  // a cluster's tile past the last pixel tile (an odd count of them)
    int const k_group = s.k_group() / MergeW, n_first = tile.n * (Config::TileN / MergeW);
    int const k_first = tile.batch * k_group + n_first, k_valid = k_group - n_first;
    int const p_valid = s.p - pixels.p0, q_valid = s.q - pixels.q0;
    int const z = pixels.z * o.step_z + o.r_z, row_step = o.step_p * o.q;
    int const plane = o.p * o.q, channel = o.z * plane;
    int const p_first = pixels.p0 * o.step_p + o.r_p, q_first = pixels.q0 * o.step_q + o.r_q;
    int const q_room = o.q - q_first;  // merged: output columns from the tile's first
    ElementC* const first =
        params.out + (int64_t(pixels.n) * (s.k / MergeW) + k_first) * channel + (z * plane + p_first * o.q + q_first);
    CUTE_UNROLL
    for (int i = 0; i < size(accum); ++i) {
      int const row = get<0>(tCcC(i)), col = get<1>(tCcC(i)), kc = col / MergeW;
      int const pr = row / TileQ, qr = row % TileQ, qc = qr * (MergeW > 1 ? MergeW : o.step_q) + col % MergeW;
      if (pr < p_valid && (MergeW == 1 ? qr < q_valid : qc < q_room) && kc < k_valid)
        first[kc * channel + pr * row_step + qc] =
            ElementC(params.functor.apply(accum(i), pixels.n, k_first + kc, z, p_first + pr * o.step_p, q_first + qc));
    }
  }
};

}  // namespace cutegen::conv
