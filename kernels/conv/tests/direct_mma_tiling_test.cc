// The tensor-core direct convolution's gather (direct_mma.cuh), on the host: for every thread of the
// warpgroup and every value of its wgmma A fragment (CuTe's RS partition of the tile's (pixel, k)
// coordinates), the patch element at pixel_offset + k_offset is the input value the convolution
// multiplies by weight element k for that output pixel (zero in the padding); and the accumulator
// fragments cover each (pixel, channel) of the tile once.
#include "direct_mma_tiling.cuh"

#include <gtest/gtest.h>

#include <vector>

namespace cutegen::conv {
namespace {

// A patch staged as input_patch.cuh's stage_patch stages it: (C/G, T, patch_h, patch_w), zeros outside
// the input; the input's value at (c, d, h, w) is a distinct number.
float input_value(ConvShape const& s, int c, int d, int h, int w) {
  if (d < 0 || d >= s.d || h < 0 || h >= s.h || w < 0 || w >= s.w) return 0.f;
  return float(((c * s.d + d) * s.h + h) * s.w + w + 1);
}

template <int TileH, int TileW, int TileN, int KBlocks>
void check_gather(ConvShape const& s, int p0, int q0, int z) {
  using Tiling = DirectMmaTiling<TileH, TileW, TileN, KBlocks>;
  ASSERT_TRUE(Tiling::fits(s));
  int const ph = Tiling::patch_h(s), pw = Tiling::patch_w(s), d0 = z * s.stride_d - s.pad_d;
  int const h0 = p0 * s.stride_h - s.pad_h, w0 = q0 * s.stride_w - s.pad_w;
  std::vector<float> patch(Tiling::patch_floats(s));
  for (int c = 0; c < s.c_group(); ++c)
    for (int kt = 0; kt < s.t; ++kt)
      for (int r = 0; r < ph; ++r)
        for (int col = 0; col < pw; ++col)
          patch[((c * s.t + kt) * ph + r) * pw + col] = input_value(s, c, d0 + kt * s.dil_d, h0 + r, w0 + col);
  using namespace cute;
  typename Tiling::TiledMma mma;
  int checked = 0;
  for (int thread = 0; thread < Tiling::Threads; ++thread) {
    Tensor coord =
        mma.get_thread_slice(thread).partition_A(make_identity_tensor(Shape<Int<Tiling::TileM>, Int<Tiling::KPad>>{}));
    for (int i = 0; i < size(coord); ++i) {
      int const m = get<0>(coord(i)), k = get<1>(coord(i));
      if (k >= s.c_group() * s.taps()) continue;  // padding: any value, against zero weights
      int const ks = k % s.s, kr = k / s.s % s.r, kt = k / (s.s * s.r) % s.t, c = k / s.taps();
      int const p = p0 + m / TileW, q = q0 + m % TileW;
      float const want = input_value(s, c, z * s.stride_d - s.pad_d + kt * s.dil_d,
                                     p * s.stride_h - s.pad_h + kr * s.dil_h, q * s.stride_w - s.pad_w + ks * s.dil_w);
      int const at = Tiling::pixel_offset(s, m) + Tiling::k_offset(s, k);
      ASSERT_TRUE(at >= 0 && at < int(patch.size())) << thread << " " << m << " " << k;
      ASSERT_EQ(patch[at], want) << "thread " << thread << ", pixel " << m << ", k " << k;
      ++checked;
    }
  }
  EXPECT_EQ(checked, Tiling::TileM * s.c_group() * s.taps());  // each (pixel, k) once over the warpgroup
}

ConvShape shape3d(int c, int stride, int pad, int dil) {
  // n, c, k, groups; d, h, w; z, p, q; t, r, s; strides; padding; dilation; transposed; pack_w; pitch
  auto out = [&](int in) { return (in + 2 * pad - dil * 2 - 1) / stride + 1; };
  return {2,      c,      24,     1,   9,   20,  40,  out(9), out(20), out(40), 3, 3, 3,
          stride, stride, stride, pad, pad, pad, dil, dil,    dil,     0,       0, 0};
}

TEST(DirectMmaTiling, EachFragmentValueIsTheInputItsPixelAndTapMultiply) {
  // Three channels x 27 taps (81 of 88), stride 1, no padding (level 1's 54, level 2's 23 and 24).
  check_gather<4, 32, 24, 11>(shape3d(3, 1, 0, 1), 4, 0, 2);
  // Strided, padded and dilated, a tile at the image's corner and one past its last rows.
  check_gather<4, 32, 24, 11>(shape3d(3, 2, 1, 2), 0, 0, 0);
  check_gather<8, 16, 24, 11>(shape3d(3, 1, 1, 1), 16, 16, 1);
  // Eight channels (216 = 27 k-blocks, no padding: level 2's 7 and 8).
  check_gather<4, 32, 16, 27>(shape3d(8, 1, 0, 1), 8, 0, 3);
  // 2-D: a 3 x 3 kernel over 3 channels (27 of 32), two groups.
  ConvShape two_d{2, 6, 16, 2, 1, 30, 30, 1, 28, 28, 1, 3, 3, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0};
  check_gather<4, 16, 8, 4>(two_d, 12, 16, 0);
}

TEST(DirectMmaTiling, TheAccumulatorsCoverEachPixelAndChannelOnce) {
  using Tiling = DirectMmaTiling<4, 32, 24, 11>;
  using namespace cute;
  typename Tiling::TiledMma mma;
  std::vector<int> hits(Tiling::TileM * 24);
  for (int thread = 0; thread < Tiling::Threads; ++thread) {
    Tensor coord = mma.get_thread_slice(thread).partition_C(make_identity_tensor(Shape<Int<Tiling::TileM>, _24>{}));
    for (int i = 0; i < size(coord); ++i)
      ++hits[get<0>(coord(i)) * 24 + get<1>(coord(i))];
  }
  for (int h : hits)
    ASSERT_EQ(h, 1);
}

}  // namespace
}  // namespace cutegen::conv
