// The rasterized tile order, on the host: every CTA tile exactly once, and the swizzle keeps the
// tiles in flight together within a strip.
#include "tile_scheduler.cuh"

#include <algorithm>
#include <set>
#include <vector>
#include <tuple>

#include <gtest/gtest.h>

namespace cutegen::gemm {
namespace {

template <int ClusterM, int ClusterN>
void expect_each_tile_once(int m, int n, int batches, int tile_m, int tile_n, int swizzle) {
  using Scheduler = SwizzledTileScheduler<ClusterM, ClusterN>;
  auto p = Scheduler::make_params(m, n, batches, tile_m, tile_n, swizzle);
  std::set<std::tuple<int, int, int>> seen;
  for (int t = 0; t < Scheduler::total_cluster_tiles(p); ++t)
    for (int cm = 0; cm < ClusterM; ++cm)
      for (int cn = 0; cn < ClusterN; ++cn) {
        TileCoord c = Scheduler::tile_of(p, t, cm, cn);
        ASSERT_TRUE(seen.insert({c.m, c.n, c.batch}).second) << "tile visited twice";
      }
  int tiles_m = (m + tile_m * ClusterM - 1) / (tile_m * ClusterM) * ClusterM;
  int tiles_n = (n + tile_n * ClusterN - 1) / (tile_n * ClusterN) * ClusterN;
  ASSERT_EQ(int(seen.size()), tiles_m * tiles_n * batches);
  for (auto [tm, tn, b] : seen) {
    ASSERT_TRUE(tm >= 0 && tm < tiles_m && tn >= 0 && tn < tiles_n && b >= 0 && b < batches);
  }
}

TEST(TileScheduler, VisitsEveryTileOnceForAnySwizzleClusterAndRaggedShape) {
  for (int swizzle : {1, 3, 8, 64}) {
    expect_each_tile_once<1, 1>(4096, 4096, 1, 128, 256, swizzle);
    expect_each_tile_once<1, 1>(4097, 3001, 3, 128, 256, swizzle);
    expect_each_tile_once<2, 1>(4097, 3001, 2, 128, 256, swizzle);
    expect_each_tile_once<1, 2>(1000, 5000, 1, 256, 128, swizzle);
  }
}

TEST(TileScheduler, ConsecutiveTilesStayInsideOneStrip) {
  using Scheduler = SwizzledTileScheduler<1, 1>;
  auto p = Scheduler::make_params(8192, 8192, 1, 128, 256, 8);  // 64 x 32 tiles, strips 8 wide
  for (int t = 0; t < 64 * 8; ++t) {
    TileCoord c = Scheduler::tile_of(p, t, 0, 0);
    EXPECT_LT(c.n, 8);
    EXPECT_EQ(c.m, t / 8);
  }
  EXPECT_EQ(Scheduler::tile_of(p, 64 * 8, 0, 0).n, 8);  // the next strip starts at column 8
}

TEST(TileScheduler, SplitKRangesCoverEveryKTileOnceWithoutEmptyRanges) {
  using Scheduler = SwizzledTileScheduler<2, 1>;
  for (int k_tiles : {1, 7, 64, 16384}) {
    for (int splits : {1, 2, 5, 33, 200}) {
      auto p = Scheduler::make_params(256, 256, 2, 128, 128, 8, k_tiles, splits);
      ASSERT_LE(p.splits, splits);
      ASSERT_EQ(Scheduler::total_units(p), Scheduler::total_cluster_tiles(p) * p.splits);
      int next = 0;
      for (int s = 0; s < p.splits; ++s) {
        ASSERT_EQ(Scheduler::k_begin(p, s), next) << k_tiles << " k-tiles in " << splits;
        ASSERT_GT(Scheduler::k_count(p, s), 0) << k_tiles << " k-tiles in " << splits;
        next += Scheduler::k_count(p, s);
      }
      ASSERT_EQ(next, k_tiles);
    }
  }
}

// Whether CTA tile (tm, tn) of tile_m x tile_n, clipped to m x n, holds an element the mask keeps.
bool holds_kept(TileMask mask, int tm, int tn, int tile_m, int tile_n, int m, int n) {
  for (int r = tm * tile_m; r < (tm + 1) * tile_m && r < m; ++r)
    for (int c = tn * tile_n; c < (tn + 1) * tile_n && c < n; ++c)
      if (mask.kind == TileMask::kUpper ? c - r >= mask.diagonal : c - r <= mask.diagonal) return true;
  return false;
}

TEST(TileScheduler, ATriangularMaskDropsOnlyTilesWithNothingKeptAndDealsTheRestEvenly) {
  using Scheduler = SwizzledTileScheduler<2, 1, true>;
  for (TileMask mask : {TileMask{TileMask::kUpper, 0}, TileMask{TileMask::kLower, 0}, TileMask{TileMask::kUpper, 700},
                        TileMask{TileMask::kLower, -300}}) {
    int const m = 1000, n = 1300, tile_m = 128, tile_n = 192, clusters = 7;
    auto p = Scheduler::make_params(m, n, 2, tile_m, tile_n, 3, 0, 1, mask);
    std::set<int> walked;
    std::vector<int> per_cluster(clusters);
    for (int c = 0; c < clusters; ++c)
      for (int u = Scheduler::next_unit(p, -1, c + 1); u < Scheduler::total_units(p);
           u = Scheduler::next_unit(p, u, clusters)) {
        ASSERT_TRUE(walked.insert(u).second) << "unit walked twice";
        ++per_cluster[c];
      }
    ASSERT_EQ(int(walked.size()), Scheduler::kept_units(p));
    int dropped = 0;
    for (int u = 0; u < Scheduler::total_units(p); ++u) {
      bool kept = false;
      for (int cm = 0; cm < 2; ++cm) {
        TileCoord t = Scheduler::tile_of(p, u, cm, 0);
        kept = kept || holds_kept(mask, t.m, t.n, tile_m, tile_n, m, n);
      }
      // A cluster tile is walked when it holds a kept element (its padding past m x n may count too).
      if (kept) {
        EXPECT_TRUE(walked.count(u)) << "a tile with kept elements was dropped: unit " << u;
      }
      dropped += !walked.count(u);
    }
    EXPECT_GT(dropped, 0) << "each of these masks leaves whole tiles out";
    auto [lo, hi] = std::minmax_element(per_cluster.begin(), per_cluster.end());
    EXPECT_LE(*hi - *lo, 1) << "the kept units dealt round the clusters";
  }
  // With kAll, and without a mask, the walk is every unit, in order.
  auto all = Scheduler::make_params(1000, 1300, 2, 128, 192, 3);
  EXPECT_EQ(Scheduler::kept_units(all), Scheduler::total_units(all));
  EXPECT_EQ(Scheduler::next_unit(all, 4, 3), 7);
  EXPECT_EQ(Scheduler::next_unit(all, Scheduler::total_units(all) - 1, 3), Scheduler::total_units(all));
  using Unmasked = SwizzledTileScheduler<2, 1>;
  auto p = Unmasked::make_params(1000, 1300, 2, 128, 192, 3);
  EXPECT_EQ(Unmasked::kept_units(p), Unmasked::total_units(p));
  EXPECT_EQ(Unmasked::next_unit(p, 4, 3), 7);
}

}  // namespace
}  // namespace cutegen::gemm
