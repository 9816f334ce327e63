// Which lanes of a warp combine, and which store, in the fused reductions (epilogue_nchw_reduce.cuh),
// from the wgmma accumulator's layout: lane l of a warp holds its 16 rows' l / 4 and l / 4 + 8 and
// columns 2 (l % 4) + c + 8 group. Shuffle masks are sets of xor distances, as bits.
// tests/reduce_lanes_test.cc checks them against CuTe's fragment on the host.
#pragma once

#include <cute/config.hpp>

namespace cutegen::conv {

struct ReduceLanes {
  // Over the pixels: the warp's eight lanes holding the same columns (its other rows).
  static constexpr int kPixelMasks = 4 | 8 | 16;
  // Over the channels: the quad's lanes holding the same W phase (all four when not merged; a
  // column's phase is (2 (l % 4) + c) % merge_w), and the lanes left holding each row's whole value.
  CUTE_HOST_DEVICE static constexpr int channel_masks(int merge_w) { return (merge_w <= 2 ? 1 : 0) | 2; }
  CUTE_HOST_DEVICE static constexpr bool channel_writer(int merge_w, int lane) {
    return lane % 4 < (merge_w > 1 ? merge_w / 2 : 1);
  }
  // A pool of w x w windows on tiles 8 (w = 2) or 4 (w = 4) pixels wide: with the thread's two rows
  // (vertical neighbours, or two rows apart) the lanes 4 apart (the next column) and, for w = 4, 8
  // apart (two columns) and 16 apart (the next row) make the window; one lane of it stores.
  CUTE_HOST_DEVICE static constexpr int pool_tile_q(int w) { return w == 2 ? 8 : 4; }
  CUTE_HOST_DEVICE static constexpr int pool_masks(int w) { return w == 2 ? 4 : 4 | 8 | 16; }
  CUTE_HOST_DEVICE static constexpr bool pool_writer(int w, int lane) { return w == 2 ? lane / 4 % 2 == 0 : lane < 4; }
};

}  // namespace cutegen::conv
