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

// Where a tile's accumulator element (row, col) lands in the output; the store's and the fused
// reductions' (epilogue_nchw_reduce.cuh). Everything that does not change along the fragment is
// worked out once per tile (the shape is a kernel parameter, so a per-element k / groups or 64-bit
// index chain costs a division each): per element there is the fragment's compile-time offset and
// three compares. Offsets within an image are 32-bit (the expert declines outputs of 2^31 elements
// or more per image).
// MergeW > 1: a transposed convolution's W phases merged (MergedW): column n' of the GEMM is output
// channel n' / MergeW of W phase n' % MergeW, so output pixel q of the tile lands at q x MergeW +
// r_q, next to its neighbouring phases'.
// Flat: over a padded copy's rows (s.pitch, TileP 1) row r of the tile is pixel f = q0 + r of the
// slice's one row: output row f / pitch, column f % pitch, the tile's first pixel (p_first, q_first)
// that of the slice. A template parameter, so that no other tile tests the pitch per element (level
// 1's 87, 1 x 128 tiles: its kernel 2880 SASS instructions at 9c562d1, 3840 with the runtime test
// since 7c44c0a; on an H100 4.9 ms then, 6.7 ms at 8cd7d3a).
template <int TileP, int TileQ, int TileN, int MergeW, bool Flat = false>
struct NchwTile {
  static_assert(!Flat || (TileP == 1 && MergeW == 1), "flat tiles: 1 x TileQ pixels of a padded row");
  static_assert(TileN % MergeW == 0, "an N tile holds whole (channel, W phase) groups");
  PixelTile pixels;
  int k_first, k_valid, p_valid, q_valid, z, p_first, q_first, q_room, row_step, plane, channel, width, step_p, step_q,
      pitch;
  PitchDivider rows;  // of the padded copy (pitch > 0)

  CUTE_DEVICE NchwTile(ConvShape const& s, OutputPhase const& o, gemm::TileCoord tile)
      : pixels(PixelTiling<TileP, TileQ>::tile(s, tile.m)), pitch(Flat ? s.pitch : 0), rows(pitch) {
    int const k_group = s.k_group() / MergeW, n_first = tile.n * (TileN / MergeW);
    int const q0 = Flat ? 0 : pixels.q0;
    k_first = tile.batch * k_group + n_first, k_valid = k_group - n_first;
    p_valid = s.p - pixels.p0, q_valid = s.q - q0;
    z = pixels.z * o.step_z + o.r_z, row_step = o.step_p * o.q;
    plane = o.p * o.q, channel = o.z * plane, width = o.q;
    p_first = pixels.p0 * o.step_p + o.r_p, q_first = q0 * o.step_q + o.r_q;
    q_room = o.q - q_first;  // merged: output columns from the tile's first
    step_p = o.step_p, step_q = o.step_q;
  }
  // Row `row`'s output row and column from the tile's first pixel.
  CUTE_DEVICE int row_p(int row) const {
    if constexpr (Flat)
      return rows(pixels.q0 + row);
    else
      return row / TileQ;
  }
  CUTE_DEVICE int row_q(int row) const {
    if constexpr (Flat)
      return pixels.q0 + row - row_p(row) * pitch;
    else
      return row % TileQ;
  }

  // A cluster's tile past the last pixel tile (an odd count of them): nothing of it is stored.
  CUTE_DEVICE bool past_the_end(ConvShape const& s) const { return pixels.n >= s.n; }
  // The tile's first pixel of its first channel, in an output of `channels` channels a pixel.
  CUTE_DEVICE int64_t first(int channels) const {
    return (int64_t(pixels.n) * channels + k_first) * channel + (z * plane + p_first * width + q_first);
  }
  // Element (row, col): its channel among the tile's, its output column from the tile's first,
  // whether it is a pixel of the output (of the group's channels), and its offset from first()
  // within one channel.
  CUTE_DEVICE static int channel_of(int col) { return col / MergeW; }
  CUTE_DEVICE int column(int row, int col) const { return row_q(row) * (MergeW > 1 ? MergeW : step_q) + col % MergeW; }
  CUTE_DEVICE bool pixel_inside(int row, int col) const {
    return row_p(row) < p_valid && (MergeW == 1 ? row_q(row) < q_valid : column(row, col) < q_room);
  }
  CUTE_DEVICE bool inside(int row, int col) const { return pixel_inside(row, col) && channel_of(col) < k_valid; }
  CUTE_DEVICE int offset(int row, int col) const { return row_p(row) * row_step + column(row, col); }
  // Element (row, col)'s offset from first() (its channel's plane, then offset()).
  CUTE_DEVICE int element(int row, int col) const { return channel_of(col) * channel + offset(row, col); }
  // The functor's coordinates of element (row, col) in image pixels.n.
  template <class Functor>
  CUTE_DEVICE float apply(Functor const& f, float acc, int row, int col) const {
    return f.apply(acc, pixels.n, k_first + channel_of(col), z, p_first + row_p(row) * step_p,
                   q_first + column(row, col));
  }
};

template <class Config, int TileP, int TileQ, class Functor, int MergeW = 1, bool Flat = false>
struct EpilogueNchwStore {
  using ElementC = typename Config::ElementC;
  using Tile = NchwTile<TileP, TileQ, Config::TileN, MergeW, Flat>;

  struct Params {
    ElementC* out;
    ConvShape shape;  // the implicit GEMM's (for a transposed convolution, the phase's)
    Functor functor;
    OutputPhase phase;
  };

  template <class TiledMma, class Accumulator>
  CUTE_DEVICE static void store(Params const& params, TiledMma const& tiled_mma, Accumulator const& accum,
                                gemm::TileCoord tile, int consumer_thread) {
    using namespace cute;
    Tensor cC = make_identity_tensor(make_shape(Int<Config::TileM>{}, Int<Config::TileN>{}));  // (BM,BN) -> (row,col)
    Tensor tCcC = tiled_mma.get_thread_slice(consumer_thread).partition_C(cC);                 // (MMA,MMA_M,MMA_N)
    CUTE_STATIC_ASSERT_V(size(tCcC) == size(accum));
    Tile const t(params.shape, params.phase, tile);
    if (t.past_the_end(params.shape)) return;
    ElementC* const first = params.out + t.first(params.shape.k / MergeW);
    CUTE_UNROLL
    for (int i = 0; i < size(accum); ++i) {
      int const row = get<0>(tCcC(i)), col = get<1>(tCcC(i));
      if (t.inside(row, col)) first[t.element(row, col)] = ElementC(t.apply(params.functor, accum(i), row, col));
    }
  }
};

}  // namespace cutegen::conv
