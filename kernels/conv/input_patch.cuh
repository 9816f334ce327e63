// The input patch a tile of output pixels reads, staged in shared memory by the direct templates
// (direct.cuh, direct_mma.cuh): for each of the group's channels and each of the kernel's depth taps,
// the rows and columns the tile's taps reach, zeros outside the input (the padding).
#pragma once

#include <cstdint>

#include <cute/arch/copy_sm80.hpp>
#include <cute/tensor.hpp>

#include "conv_shape.cuh"

namespace cutegen::conv {

// Channels [c0, c0 + channels) of the image (the group's first channel of one input image) into
// `patch`, a shared tensor (channels, T, patch rows, patch columns): patch row ph of depth tap kt is
// input row h0 + ph of depth slice d0 + kt x dil_d, column pw input column w0 + pw. A warp per patch
// row (its coordinates divided out once), the lanes along it; cp.async copies with zero fill, all in
// flight at once (loaded row by row they were latency-bound), committed as one group. `zero`: any
// readable address, the source of a zero fill.
template <int Threads, class Patch>
CUTE_DEVICE void stage_patch(Patch&& patch, float const* image, ConvShape const& s, int c0, int channels, int d0,
                             int h0, int w0, float const* zero) {
  using namespace cute;
  using Fill = SM80_CP_ASYNC_CACHEALWAYS_ZFILL<float>;
  int const patch_h = size<2>(patch), patch_w = size<3>(patch);
  int const warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int row = warp; row < channels * s.t * patch_h; row += Threads / 32) {
    int const ph = row % patch_h, kt = row / patch_h % s.t, c = row / (patch_h * s.t);
    int const d = d0 + kt * s.dil_d, hh = h0 + ph;
    bool const inside = d >= 0 && d < s.d && hh >= 0 && hh < s.h;
    float const* line = image + ((int64_t(c0 + c) * s.d + d) * s.h + hh) * s.w;
    for (int pw = lane; pw < patch_w; pw += 32) {
      bool const at = inside && w0 + pw >= 0 && w0 + pw < s.w;
      Fill::copy(at ? line[w0 + pw] : *zero, patch(c, kt, ph, pw), at);
    }
  }
  cp_async_fence();
}

}  // namespace cutegen::conv
