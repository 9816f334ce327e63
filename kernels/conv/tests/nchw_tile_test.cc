// Where the implicit GEMM's epilogues put each accumulator (NchwTile, epilogue_nchw_store.cuh), on the
// host: over every tile of every launch of a convolution (forward; transposed, phase by phase; with
// its W phases merged), the elements inside the output land at the channels-first offset of the
// coordinates the functor is given, and together they cover the output exactly once.
#include <gtest/gtest.h>

#include <vector>

#include "epilogue_nchw_store.cuh"
#include "transposed_phases.cuh"

namespace cutegen::conv {
namespace {

// A functor that keeps the coordinates it was applied at.
struct Coordinates {
  mutable int n = -1, k = -1, z = -1, p = -1, q = -1;
  float apply(float, int n_, int k_, int z_, int p_, int q_) const {
    n = n_, k = k_, z = z_, p = p_, q = q_;
    return 0.f;
  }
};

// One launch of the implicit GEMM g, its pixels placed by o, counted into hits (one per element of an
// output of `channels` channels).
template <int TileP, int TileQ, int TileN, int MergeW, bool Flat = false>
void cover(ConvShape const& g, OutputPhase const& o, int channels, std::vector<int>& hits) {
  using Tile = NchwTile<TileP, TileQ, TileN, MergeW, Flat>;
  int const n_tiles = (g.k_group() + TileN - 1) / TileN;  // the group's columns (merged: channel x phase)
  for (int batch = 0; batch < g.groups; ++batch)
    for (int m = 0; m < PixelTiling<TileP, TileQ>::m_tiles(g); ++m)
      for (int n = 0; n < n_tiles; ++n) {
        Tile const t(g, o, gemm::TileCoord{m, n, batch});
        ASSERT_FALSE(t.past_the_end(g));
        for (int row = 0; row < TileP * TileQ; ++row)
          for (int col = 0; col < TileN; ++col) {
            if (!t.inside(row, col)) continue;
            Coordinates at;
            t.apply(at, 0.f, row, col);
            ASSERT_TRUE(at.k < channels && at.z < o.z && at.p < o.p && at.q < o.q) << m << " " << row << " " << col;
            int64_t const offset = t.first(channels) + t.element(row, col);
            ASSERT_EQ(offset, (((int64_t(at.n) * channels + at.k) * o.z + at.z) * o.p + at.p) * o.q + at.q);
            ++hits[offset];
          }
      }
}

void expect_each_once(std::vector<int> const& hits) {
  for (size_t i = 0; i < hits.size(); ++i)
    ASSERT_EQ(hits[i], 1) << "output element " << i;
}

ConvShape shape(int k, int groups, int out_p, int out_q, int stride_h, int stride_w, int transposed) {
  // n, c, k, groups; d, h, w; z, p, q; t, r, s; strides; padding; dilation; transposed; pack_w; pitch
  return {2, 8,        k,        groups, 1, 7, 9, 1, out_p, out_q,      1, 3, 3,
          1, stride_h, stride_w, 0,      1, 1, 1, 1, 1,     transposed, 0, 0};
}

TEST(NchwTile, AForwardConvolutionsTilesCoverItsOutputOnce) {
  ConvShape const s = shape(24, 2, 7, 9, 1, 1, 0);  // 12 channels a group on 8-wide N tiles: partial ones
  std::vector<int> hits(size_t(s.n) * s.k * s.p * s.q);
  cover<4, 8, 8, 1>(s, OutputPhase::whole(s), s.k, hits);
  expect_each_once(hits);
}

TEST(NchwTile, ATransposedConvolutionsPhasesCoverItsOutputOnce) {
  ConvShape const t = shape(24, 1, 13, 25, 2, 3, 1);  // out = (in - 1) x stride - 2 pad + 3
  std::vector<int> hits(size_t(t.n) * t.k * t.p * t.q);
  for (int r_p = 0; r_p < t.stride_h; ++r_p)
    for (int r_q = 0; r_q < t.stride_w; ++r_q) {
      TransposedPhase const phase = TransposedPhase::of(t, 0, r_p, r_q);
      ASSERT_GT(phase.taps(), 0);
      cover<2, 16, 16, 1>(phase.forward(t), OutputPhase::of(t, 0, r_p, r_q), t.k, hits);
    }
  expect_each_once(hits);
}

TEST(NchwTile, MergedWPhasesCoverTheOutputOnce) {
  ConvShape const t = shape(24, 1, 13, 17, 2, 2, 1);
  ASSERT_TRUE(MergedW::applies(t));
  std::vector<int> hits(size_t(t.n) * t.k * t.p * t.q);
  for (int r_p = 0; r_p < t.stride_h; ++r_p) {
    TransposedPhase const dh = TransposedPhase::of(t, 0, r_p, 0);
    cover<2, 16, 32, 2>(MergedW::of(t).forward(t, dh), OutputPhase::of(t, 0, r_p, 0), t.k, hits);
  }
  expect_each_once(hits);
}

// Flat tiles over a padded copy's rows (FlatRows): 128 consecutive pixels of a slice's row of
// p x pitch, the padding's columns not stored; a 3-D forward convolution and a transposed one of
// stride 1 (its one phase).
TEST(NchwTile, FlatTilesOverAPaddedCopyCoverTheOutputOnce) {
  ConvShape s = shape(24, 2, 7, 9, 1, 1, 0);  // 7 x 9 input, 3 x 3 kernel padded by 1: 7 x 9 output
  s.pad_h = s.pad_w = 1, s.d = s.z = 3;
  std::vector<int> hits(size_t(s.n) * s.k * s.z * s.p * s.q);
  cover<1, 128, 8, 1, true>(FlatRows::of(s).gemm(s), OutputPhase::whole(s), s.k, hits);
  expect_each_once(hits);
  ConvShape const t = shape(24, 1, 9, 11, 1, 1, 1);  // transposed 7 x 9 -> 9 x 11
  TransposedPhase const phase = TransposedPhase::of(t, 0, 0, 0);
  ConvShape const f = phase.forward(t);
  std::vector<int> out(size_t(t.n) * t.k * t.p * t.q);
  cover<1, 64, 16, 1, true>(FlatRows::of(f).gemm(f), OutputPhase::of(t, 0, 0, 0), t.k, out);
  expect_each_once(out);
}

}  // namespace
}  // namespace cutegen::conv
