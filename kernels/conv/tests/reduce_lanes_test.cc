// The fused reductions' lane arithmetic (reduce_lanes.cuh) against CuTe's wgmma accumulator, on the
// host: where each consumer thread's elements sit in the tile, as epilogue_nchw_reduce.cuh indexes
// them, and then its shuffles played as unions of the pixels and channels each lane holds, so that
// every value a writer lane stores covers exactly what it must (a window, a pixel's channels of one
// W phase, a column's rows in its warp) and each is stored once.
#include "reduce_lanes.cuh"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <utility>
#include <vector>

#include "gemm/gemm_config.cuh"
#include "gemm/tiled_mma.cuh"

namespace cutegen::conv {
namespace {

using Cell = std::pair<int, int>;  // (row, col) of the tile

// Element (c, half, group) of each of the tile's 256 consumer threads, from CuTe's partition of the
// tile, after checking the form the epilogue computes it in: row 64 warpgroup + 16 warp + lane / 4
// + 8 half, column 2 (lane % 4) + 8 group + c.
template <int TileN>
std::vector<std::map<std::tuple<int, int, int>, Cell>> fragment() {
  using Config =
      gemm::GemmConfig<cute::tfloat32_t, cute::tfloat32_t, float, gemm::RowMajor, gemm::ColMajor, 128, TileN, 4>;
  using namespace cute;
  gemm::SsTiledMma<Config> tiled_mma;  // the kernel's (MainloopTmaWgmma::TiledMma)
  Tensor cC = make_identity_tensor(make_shape(Int<128>{}, Int<TileN>{}));
  std::vector<std::map<std::tuple<int, int, int>, Cell>> threads(256);
  for (int t = 0; t < 256; ++t) {
    Tensor tCcC = tiled_mma.get_thread_slice(t).partition_C(cC);
    EXPECT_EQ(int(size<1>(tCcC)), 1);  // one 64-row atom per warpgroup
    int const lane = t % 32, row0 = 64 * (t / 128) + 16 * (t % 128 / 32) + lane / 4, col0 = 2 * (lane % 4);
    for (int group = 0; group < TileN / 8; ++group)
      for (int half = 0; half < 2; ++half)
        for (int c = 0; c < 2; ++c) {
          Cell cell{get<0>(tCcC(make_coord(make_coord(c, half, group), 0, 0))),
                    get<1>(tCcC(make_coord(make_coord(c, half, group), 0, 0)))};
          EXPECT_EQ(cell, Cell(row0 + 8 * half, col0 + 8 * group + c)) << t;
          threads[t][{c, half, group}] = cell;
        }
  }
  return threads;
}

// The lanes of lane's warp that the masks' shuffles reach (a butterfly: every xor of a subset).
std::vector<int> reached(int lane, int masks) {
  std::set<int> lanes = {lane};
  for (int m = 1; m < 32; m *= 2)
    if (masks & m)
      for (int l : std::set<int>(lanes))
        lanes.insert(l ^ m);
  return {lanes.begin(), lanes.end()};
}

TEST(ReduceLanes, OverThePixelsAWarpsLanesOfEqualColumnsHoldAllItsRows) {
  auto threads = fragment<64>();
  for (int t = 0; t < 256; ++t)
    for (int group = 0; group < 8; ++group)
      for (int c = 0; c < 2; ++c) {
        std::set<int> rows, cols;
        for (int l : reached(t % 32, ReduceLanes::kPixelMasks))
          for (int half = 0; half < 2; ++half) {
            Cell cell = threads[t - t % 32 + l][{c, half, group}];
            rows.insert(cell.first), cols.insert(cell.second);
          }
        EXPECT_EQ(rows.size(), 16u) << t;
        EXPECT_EQ(*rows.begin(), 16 * (t / 32)) << t;
        EXPECT_EQ(cols.size(), 1u) << t;
      }
}

// Each (row, phase) stored once, by a lane whose reached lanes hold all the phase's columns of it.
template <int TileN, int MergeW>
void expect_channels() {
  auto threads = fragment<TileN>();
  std::map<Cell, int> stores;
  for (int t = 0; t < 256; ++t) {
    int const lane = t % 32;
    for (int half = 0; half < 2; ++half)
      for (int slot = 0; slot < (MergeW > 1 ? 2 : 1); ++slot) {
        std::set<int> cols, rows;
        for (int l : reached(lane, ReduceLanes::channel_masks(MergeW)))
          for (int group = 0; group < TileN / 8; ++group)
            for (int c = 0; c < 2; ++c)
              if (MergeW == 1 || c == slot) {
                Cell cell = threads[t - lane + l][{c, half, group}];
                rows.insert(cell.first), cols.insert(cell.second);
              }
        ASSERT_EQ(rows.size(), 1u) << t;
        int const phase = *cols.begin() % MergeW;
        for (int col : cols)
          EXPECT_EQ(col % MergeW, phase) << t << ": one W phase";
        if (ReduceLanes::channel_writer(MergeW, lane)) {
          EXPECT_EQ(int(cols.size()), TileN / MergeW) << t << ": all the phase's channels";
          ++stores[{*rows.begin(), phase}];
        }
      }
  }
  EXPECT_EQ(int(stores.size()), 128 * MergeW);
  for (auto& [key, n] : stores)
    EXPECT_EQ(n, 1) << key.first << ", " << key.second;
}

TEST(ReduceLanes, OverTheChannelsEachPixelIsStoredOnceWithAllItsChannels) {
  expect_channels<64, 1>();
  expect_channels<128, 1>();
  expect_channels<64, 2>();
  expect_channels<128, 4>();
}

// Each (window, column) stored once, by a lane whose two rows and reached lanes hold the whole window.
template <int W>
void expect_pool() {
  constexpr int TileQ = ReduceLanes::pool_tile_q(W);
  auto threads = fragment<64>();
  auto window = [](int row) { return Cell(row / TileQ / W, row % TileQ / W); };
  std::map<std::pair<Cell, int>, int> stores;
  for (int t = 0; t < 256; ++t) {
    int const lane = t % 32;
    for (int group = 0; group < 8; ++group)
      for (int c = 0; c < 2; ++c) {
        std::set<int> rows, cols;
        for (int l : reached(lane, ReduceLanes::pool_masks(W)))
          for (int half = 0; half < 2; ++half) {
            Cell cell = threads[t - lane + l][{c, half, group}];
            rows.insert(cell.first), cols.insert(cell.second);
          }
        ASSERT_EQ(cols.size(), 1u) << t;
        ASSERT_EQ(int(rows.size()), W * W) << t << ": the window's pixels";
        for (int row : rows)
          EXPECT_EQ(window(row), window(*rows.begin())) << t << ": one window";
        if (ReduceLanes::pool_writer(W, lane)) ++stores[{window(*rows.begin()), *cols.begin()}];
      }
  }
  EXPECT_EQ(int(stores.size()), 128 / (W * W) * 64);
  for (auto& [key, n] : stores)
    EXPECT_EQ(n, 1);
}

TEST(ReduceLanes, APoolsWindowsLieInOneWarpAndAreStoredOnce) {
  expect_pool<2>();
  expect_pool<4>();
}

}  // namespace
}  // namespace cutegen::conv
