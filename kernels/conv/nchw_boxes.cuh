// Where TMA puts the channels-first input's boxes in an A stage (mainloop_conv_nchw.cuh), as a CuTe
// layout, so that the consumers' RS partition of it finds each thread's A elements. Its own header
// so that host tests can check it against TMA's placement (no TMA or pipeline headers here).
//
// An M tile is TileP rows x TileQ columns of output pixels, m = p * TileQ + q. Per k-tile (TileK
// channels of one tap) the stage holds one box per 32-column run of BoxRows rows (two, or one for a
// single-row tile): box (run, p / BoxRows) starts at element (p / BoxRows * Runs + run) x its size
// and holds [c][p % BoxRows][q % 32], rows of 32 floats (128 bytes), each 1024-byte block swizzled
// in TMA's 128-byte mode (the byte address's bits 4-6 XOR its bits 7-9: CuTe's Swizzle<3, 2, 3> on
// 4-byte elements). Every box and stage starts on a 1024-byte block.
// Why boxes of two rows: a consumer warp's load of one A element reads 8 neighbouring pixels of 4
// neighbouring channels; two rows a channel puts those channels' 128-byte rows an even number
// apart, where the swizzle sends them to 4 different bank groups (tests/nchw_boxes_test.cc: once
// per bank; boxes of one row or of four hit a bank twice).
#pragma once

#include <cute/tensor.hpp>

namespace cutegen::conv {

template <int TileP, int TileQ, int TileK, int Stages>
struct NchwBoxes {
  static constexpr int Runs = TileQ / 32;                   // boxes along a row
  static constexpr int BoxRows = TileP >= 2 ? 2 : 1;        // rows a box holds
  static constexpr int Boxes = Runs * TileP / BoxRows;      // per k-tile
  static constexpr int BoxElements = 32 * BoxRows * TileK;  // a box's size
  static_assert(TileQ % 32 == 0, "a box's row is 32 columns: one 128-byte swizzle row");
  static_assert(TileP % BoxRows == 0 && BoxRows * TileK % 8 == 0, "a box is whole 1024-byte swizzle blocks");
  // (m, k, stage) -> element offset, m = (q % 32, q / 32, p % BoxRows, p / BoxRows).
  using Layout = decltype(cute::composition(
      cute::Swizzle<3, 2, 3>{},
      cute::Layout<cute::Shape<cute::Shape<cute::_32, cute::Int<Runs>, cute::Int<BoxRows>, cute::Int<TileP / BoxRows>>,
                               cute::Int<TileK>, cute::Int<Stages>>,
                   cute::Stride<cute::Stride<cute::_1, cute::Int<BoxElements>, cute::_32, cute::Int<Runs * BoxElements>>,
                                cute::Int<32 * BoxRows>, cute::Int<Boxes * BoxElements>>>{}));
};

}  // namespace cutegen::conv
