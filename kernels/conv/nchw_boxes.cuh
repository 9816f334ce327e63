// Where TMA puts the channels-first input's boxes in an A stage (mainloop_conv_nchw.cuh), as a CuTe
// layout, so that the consumers' RS partition of it finds each thread's A elements. Its own header
// so that host tests can check it against TMA's placement (no TMA or pipeline headers here).
//
// An M tile is TileP rows x TileQ columns of output pixels, m = p * TileQ + q. A k-tile is TileK
// channels of one tap, or, where a group has at most TileK / 2 channels, TileK / 2 channels of each
// of two taps (TapsPerK 2: k = tap within the k-tile x TileK / 2 + c, half the tensor work of a
// k-tile that is half zeros). Per tap the stage holds one box per 32-column run of each row: box
// (p, q / 32) starts at element (p * Runs + q / 32) x its size after the taps before it and holds
// [c][q % 32], unswizzled rows of Pitch = 40 floats of which the first 32 are the run's (TMA writes
// a box densely; the 8 past them are the next run's columns, read again there).
// Why rows of 40: a consumer warp's load of one A element reads 8 neighbouring pixels of 4
// neighbouring channels, and rows 40 floats apart put the 4 channels' 8 floats in 4 different
// 8-bank groups (tests/nchw_boxes_test.cc: every bank once); rows of 32 would hit each bank 4
// times. No swizzle. A W stride cannot be TMA's traversal stride: without interleave TMA ignores
// the innermost dim's, so W stride 1 only. TMA faults on a box whose innermost coordinate is off a
// 16-byte boundary, so a tap's boxes start at the aligned column at or below its first (column_shift:
// the 8 spare columns of a row cover a shift of up to 3), and the consumers read that many columns on.
#pragma once

#include <cute/tensor.hpp>

namespace cutegen::conv {

template <int TileP, int TileQ, int TileK, int Stages, int TapsPerK = 1>
struct NchwBoxes {
  static constexpr int Pitch = 40;                         // floats a box's row takes (32 used)
  static constexpr int Channels = TileK / TapsPerK;        // a box's: one tap's share of the k-tile
  static constexpr int Runs = TileQ / 32;                  // boxes along a row
  static constexpr int Boxes = Runs * TileP;               // per tap
  static constexpr int BoxElements = Pitch * Channels;     // a box's size (128-byte multiple)
  static constexpr int TapElements = Boxes * BoxElements;  // one tap's boxes
  static constexpr int StageElements = TapsPerK * TapElements;
  static_assert(TileQ % 32 == 0, "a tile's rows are whole 32-column runs");
  // Columns from a box's aligned start to the tap's first, for a tap's first column `col` (any sign).
  CUTE_HOST_DEVICE static constexpr int column_shift(int col) { return (col % 4 + 4) % 4; }
  static_assert(Channels % 8 == 0, "a tap's channels are whole 8-wide wgmma k-blocks");
  // (m, k, stage) -> element offset, m = (q % 32, q / 32, p), k = (c, tap within the k-tile).
  using Layout =
      cute::Layout<cute::Shape<cute::Shape<cute::_32, cute::Int<Runs>, cute::Int<TileP>>,
                               cute::Shape<cute::Int<Channels>, cute::Int<TapsPerK>>, cute::Int<Stages>>,
                   cute::Stride<cute::Stride<cute::_1, cute::Int<BoxElements>, cute::Int<Runs * BoxElements>>,
                                cute::Stride<cute::Int<Pitch>, cute::Int<TapElements>>, cute::Int<StageElements>>>;
};

}  // namespace cutegen::conv
