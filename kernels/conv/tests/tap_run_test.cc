// The taps an M tile runs (conv_shape.cuh's TapRun, PixelTiling::outer_taps), on the host: every tap
// left out reads only padding from every output position of the tile; for one position (a depth
// slice) every tap kept reads input.
#include "conv_shape.cuh"

#include <algorithm>

#include <gtest/gtest.h>

namespace cutegen::conv {
namespace {

bool reaches(int o, int tap, int stride, int pad, int dil, int extent) {
  int const i = o * stride - pad + tap * dil;
  return i >= 0 && i < extent;
}

bool reaches_any(int first, int last, int tap, int stride, int pad, int dil, int extent) {
  for (int o = first; o <= last; ++o)
    if (reaches(o, tap, stride, pad, dil, extent)) return true;
  return false;
}

TEST(TapRun, LeavesOutOnlyTapsThatReadPaddingAndKeepsOnlyTapsThatReadInputForOnePosition) {
  int runs = 0, narrowed = 0;
  for (int taps = 1; taps <= 7; ++taps)
    for (int stride = 1; stride <= 3; ++stride)
      for (int dil = 1; dil <= 3; ++dil)
        for (int pad = -2; pad <= 7; ++pad)  // a transposed convolution's phases pad negatively too
          for (int extent = 1; extent <= 9; ++extent)
            for (int first = 0; first <= 6; ++first)
              for (int last = first; last <= first + 3; ++last) {
                TapRun const run = TapRun::of(first, last, taps, stride, pad, dil, extent);
                ++runs;
                ASSERT_GE(run.lo, 0);
                ASSERT_LE(run.hi, taps);
                for (int tap = 0; tap < taps; ++tap)
                  if (tap < run.lo || tap >= run.hi)
                    ASSERT_FALSE(reaches_any(first, last, tap, stride, pad, dil, extent))
                        << "tap " << tap << " of " << taps << " left out, stride " << stride << " pad " << pad
                        << " dil " << dil << " extent " << extent << " outputs " << first << ".." << last;
                if (first == last)  // one position (a depth slice): exactly its taps that read input
                  for (int tap = run.lo; tap < run.hi; ++tap)
                    ASSERT_TRUE(reaches(first, tap, stride, pad, dil, extent));
                narrowed += run.hi - run.lo < taps;
              }
  EXPECT_GT(narrowed, runs / 10);  // the cases exercise narrowing, not only whole runs
}

// Level 2's 77 (ConvTranspose3d 64 -> 128, 5x5x5 kernel, stride 1, no padding: forward padding 4,
// depth 16 -> 20): a depth slice near the ends runs fewer of the 5 depth taps, 80 of 100 over the 20.
TEST(TapRun, OuterTapsOfATransposedConvolutionsDepthSlices) {
  ConvShape s{};
  s.n = 2, s.c = 64, s.k = 128, s.groups = 1;
  s.d = 16, s.h = 32, s.w = 32, s.z = 20, s.p = 36, s.q = 36, s.t = 5, s.r = 5, s.s = 5;
  s.stride_d = s.stride_h = s.stride_w = 1, s.pad_d = s.pad_h = s.pad_w = 4, s.dil_d = s.dil_h = s.dil_w = 1;
  using Tiling = PixelTiling<4, 32>;
  int taps = 0;
  for (int z = 0; z < s.z; ++z) {
    int per_step = 0;
    int const m_tile = z * Tiling::tiles_p(s) * Tiling::tiles_q(s);  // image 0, slice z, first tile
    TapRun const run = Tiling::outer_taps(s, m_tile, per_step);
    EXPECT_EQ(per_step, 5);  // kernel rows a depth tap
    taps += run.hi - run.lo;
  }
  EXPECT_EQ(taps, 80);
  // A 2-D kernel narrows over rows: a 4-row tile at the top of a 36-row output padded by 4.
  s.t = 1, s.d = 1, s.z = 1, s.pad_d = 0;
  int per_step = 0;
  TapRun const top = Tiling::outer_taps(s, 0, per_step);
  EXPECT_EQ(per_step, 1);
  EXPECT_EQ(top.lo, 1);  // rows 0..3 read input rows -4..-1 at tap 0
  EXPECT_EQ(top.hi, 5);
}

// A padded copy read along its rows (FlatRows, the implicit GEMM's flat tiles): for every output
// pixel and tap of stride-1 convolutions of any padding (negative too: a transposed convolution's
// phase) and dilation, the position the producer's box reads for it (the box at its tile's first
// pixel shifted by the tap, the pixel's row within it) lies inside the copy's slice, and the copy
// holds there the input pixel that tap reads, or a zero where it reads padding.
TEST(FlatRows, EveryTapOfEveryOutputPixelReadsItsInputPixelOrAZero) {
  using Tiling = PixelTiling<1, 128>;
  int cases = 0;
  for (int h = 1; h <= 6; h += 5)
    for (int w = 1; w <= 9; w += 4)
      for (int taps = 1; taps <= 5; taps += 2)
        for (int dil = 1; dil <= 2; ++dil)
          for (int pad = -2; pad <= 4; ++pad) {
            ConvShape g{};
            g.n = 1, g.c = 4, g.k = 4, g.groups = 1, g.d = g.z = g.t = 1;
            g.h = h, g.w = w, g.r = taps, g.s = taps == 1 ? 3 : taps - 1;
            g.stride_d = g.stride_h = g.stride_w = 1, g.dil_d = 1, g.dil_h = dil, g.dil_w = 3 - dil;
            g.pad_h = pad, g.pad_w = pad > 0 ? pad - 1 : pad;
            g.p = h + 2 * g.pad_h - dil * (g.r - 1), g.q = w + 2 * g.pad_w - g.dil_w * (g.s - 1);
            if (g.p < 1 || g.q < 1) continue;
            FlatRows const rows = FlatRows::of(g);
            ConvShape const v = rows.gemm(g);
            ASSERT_EQ(v.pitch, rows.wp);
            ASSERT_EQ(v.tap_row_h(), 0) << "a row of taps moves along the copy's one row";
            ASSERT_GE(Tiling::tiles_q(v) * 128, g.p * v.pitch);
            for (int p = 0; p < g.p; ++p)
              for (int q = 0; q < g.q; ++q) {
                int const m = p * v.pitch + q;
                PixelTile const tile = Tiling::tile(v, m / 128);
                for (int kr = 0; kr < g.r; ++kr)
                  for (int ks = 0; ks < g.s; ++ks) {
                    // The producer's box start (mainloop_conv_tma.cuh; the row box's, mainloop_conv_row_taps.cuh,
                    // is the same box less the tap's ks x dil_w, which its consumers add), and this pixel's place in
                    // it.
                    int const at = tile.q0 - v.pad_w + kr * v.tap_row_w() + ks * v.dil_w + (m - tile.q0);
                    ASSERT_GE(at, 0);
                    ASSERT_LT(at, v.w) << "a valid pixel's tap read past its slice";
                    int const y = p - g.pad_h + kr * g.dil_h, x = q - g.pad_w + ks * g.dil_w;
                    int const want = y >= 0 && y < h && x >= 0 && x < w ? y * w + x : -1;
                    ASSERT_EQ(rows.source(at, h, w), want)
                        << "pixel " << p << "," << q << " tap " << kr << "," << ks << " pad " << pad << " dil " << dil;
                  }
              }
            ++cases;
          }
  EXPECT_GT(cases, 50);
}

// The epilogue's division of a flat pixel index by the pitch, as a multiply: exact wherever
// FlatRows::exact admits the index (f x pitch < 2^32), at the ends of that range and inside it.
TEST(FlatRows, PitchDividerDividesExactlyWhereAdmitted) {
  for (int64_t pitch = 1; pitch <= 70000; pitch = pitch < 64 ? pitch + 1 : pitch * 5 / 4) {
    PitchDivider const divide{int(pitch)};
    int64_t const end = std::min<int64_t>((int64_t(1) << 32) / pitch, int64_t(1) << 31);  // f x pitch < 2^32
    for (int64_t f : {int64_t(0), pitch - 1, pitch, 7 * pitch + 3, end / 2, end - pitch, end - 2, end - 1})
      if (f >= 0 && f < end) ASSERT_EQ(divide(int(f)), f / pitch) << f << " / " << pitch;
    for (int64_t f = 0; f < std::min<int64_t>(end, 20000); ++f)
      ASSERT_EQ(divide(int(f)), f / pitch) << f << " / " << pitch;
  }
}

}  // namespace
}  // namespace cutegen::conv
