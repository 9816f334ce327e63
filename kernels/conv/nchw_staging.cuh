// Where the convolution's TMA-store epilogue (epilogue_nchw_tma_store.cuh) stages a consumer
// warpgroup's 64-row block of 32 channels for TMA: two boxes of (32 pixels, 32 channels), each
// channel's 32 pixels one 128-byte row, 128-byte swizzled as the descriptor says (a row's 16-byte
// chunks XOR the channel mod 8). Its own header so that host tests can check it against TMA's
// swizzle and count a warp's banks (no TMA or driver headers here).
#pragma once

#include <cute/config.hpp>

namespace cutegen::conv {

struct NchwStaging {
  static constexpr int Run = 32;        // pixels a box: one 128-byte row per channel
  static constexpr int SubC = 32;       // channels a sub-tile
  static constexpr int BlockRows = 64;  // one wgmma atom's rows: two runs
  static constexpr int BoxElements = Run * SubC;
  static constexpr int SubElements = BlockRows / Run * BoxElements;

  // Element offset of (pixel, channel) of a block in a staging buffer: the run's box, the channel's
  // row, the pixel's 16-byte chunk XOR the channel mod 8.
  CUTE_HOST_DEVICE static constexpr int offset(int pixel, int channel) {
    int const px = pixel % Run;
    return pixel / Run * BoxElements + channel * Run + ((px / 4) ^ (channel % 8)) * 4 + px % 4;
  }
};

}  // namespace cutegen::conv
