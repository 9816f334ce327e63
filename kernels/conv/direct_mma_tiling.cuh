// The tensor-core direct convolution's geometry (direct_mma.cuh): its tiles, wgmma, shared memory and
// where each wgmma operand element sits in the staged input patch. Its own header so that host tests
// check the gather against CuTe's fragments (no kernel here).
#pragma once

#include <cstddef>
#include <cstdint>

#include <cute/tensor.hpp>  // first: the sm90 atom headers below need what it declares
#include <cute/atom/mma_traits_sm90_gmma.hpp>
// The wgmma shapes CuTe guards as extended (N of 24, 40, 56), included whatever that guard says.
#include <cute/arch/mma_sm90_gmma_ext.hpp>
#include <cute/atom/mma_traits_sm90_gmma_ext.hpp>

#include "conv_shape.cuh"

namespace cutegen::conv {

// The tf32 wgmma (RS, A from registers) 64 x N x 8 for a block of N output channels, one instruction
// wide: CuTe's selector leaves N of odd multiples of 8 (24, 40, 56: sizes it guards as extended) to
// narrower atoms, N / 8 instructions of 64 x 8 for 24.
template <int N>
constexpr auto rs_tf32_atom() {
  using namespace cute::SM90::GMMA;
  static_assert(N % 8 == 0 && N >= 8 && N <= 64, "output channel blocks of 8 to 64");
  if constexpr (N == 8)
    return MMA_64x8x8_F32TF32TF32_RS_TN<>{};
  else if constexpr (N == 16)
    return MMA_64x16x8_F32TF32TF32_RS_TN<>{};
  else if constexpr (N == 24)
    return MMA_64x24x8_F32TF32TF32_RS_TN<>{};
  else if constexpr (N == 32)
    return MMA_64x32x8_F32TF32TF32_RS_TN<>{};
  else if constexpr (N == 40)
    return MMA_64x40x8_F32TF32TF32_RS_TN<>{};
  else if constexpr (N == 48)
    return MMA_64x48x8_F32TF32TF32_RS_TN<>{};
  else if constexpr (N == 56)
    return MMA_64x56x8_F32TF32TF32_RS_TN<>{};
  else
    return MMA_64x64x8_F32TF32TF32_RS_TN<>{};
}

// KBlocks: K / 8, K the group's channels x taps padded to 8 (the instance knows the shape's).
template <int TileH, int TileW, int TileN, int KBlocks>
struct DirectMmaTiling {
  static constexpr int TileM = TileH * TileW, KPad = 8 * KBlocks, Threads = 128;
  static_assert(TileM % 64 == 0 && TileW % 8 == 0, "64-pixel wgmma blocks whose rows of 8 are one output row's");
  static_assert(TileN % 8 == 0 && TileN <= 64, "one wgmma wide: blocks of up to 64 output channels");
  using Tf32 = cute::tfloat32_t;
  // One part of the weights, (TileN, KPad) K-major: 8 x 8 swizzle atoms (K a multiple of 8).
  using WeightLayout = decltype(cute::tile_to_shape(cute::GMMA::Layout_K_SW32_Atom<Tf32>{},
                                                    cute::Shape<cute::Int<TileN>, cute::Int<KPad>>{}));
  static constexpr int WeightFloats = cute::cosize_v<WeightLayout>;
  using TiledMma = decltype(cute::make_tiled_mma(rs_tf32_atom<TileN>()));

  CUTE_HOST_DEVICE static int patch_h(ConvShape const& s) { return (TileH - 1) * s.stride_h + (s.r - 1) * s.dil_h + 1; }
  CUTE_HOST_DEVICE static int patch_w(ConvShape const& s) { return (TileW - 1) * s.stride_w + (s.s - 1) * s.dil_w + 1; }
  // One patch buffer: (C/G, T, patch_h, patch_w), rows contiguous.
  CUTE_HOST_DEVICE static int patch_floats(ConvShape const& s) { return s.c_group() * s.t * patch_h(s) * patch_w(s); }
  // Shared bytes: the weights' hi and lo parts, the k offsets, two patch buffers.
  static size_t shared_bytes(ConvShape const& s) {
    return sizeof(float) * (2 * size_t(WeightFloats) + KPad + 2 * size_t(patch_floats(s)));
  }
  CUTE_HOST_DEVICE static int n_blocks(ConvShape const& s) { return (s.k_group() + TileN - 1) / TileN; }
  using Pixels = PixelTiling<TileH, TileW>;  // the pixel tiles, as the implicit GEMM's M tiles
  // Where k's value sits in the patch from a pixel's first ((channel, depth tap) plane, row, column;
  // k in the weight's (c, t, r, s) order), and pixel m of the tile's first (its row, then column):
  // the gather reads the patch at the sum. Padding k reads the pixel's first value, against zero weights.
  CUTE_HOST_DEVICE static int k_offset(ConvShape const& s, int k) {
    if (k >= s.c_group() * s.taps()) return 0;
    int const ks = k % s.s, kr = k / s.s % s.r, kt = k / (s.s * s.r) % s.t, c = k / s.taps();
    return ((c * s.t + kt) * patch_h(s) + kr * s.dil_h) * patch_w(s) + ks * s.dil_w;
  }
  CUTE_HOST_DEVICE static int pixel_offset(ConvShape const& s, int m) {
    return m / TileW * s.stride_h * patch_w(s) + m % TileW * s.stride_w;
  }
  // Whether the instance's K holds the shape's channels x taps.
  CUTE_HOST_DEVICE static bool fits(ConvShape const& s) {
    int const k = s.c_group() * s.taps();
    return k <= KPad && k > KPad - 8;
  }
};

}  // namespace cutegen::conv
