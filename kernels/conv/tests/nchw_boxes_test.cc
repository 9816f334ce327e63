// The channels-first input's A stage (nchw_boxes.cuh, mainloop_conv_nchw.cuh), on the host: the CuTe
// layout the consumers read through puts every (pixel, channel, tap) where TMA's boxes land it, CuTe's RS
// wgmma partition of it gives each element of a stage to exactly one consumer thread, and a warp's
// load of one fragment element hits each shared-memory bank once.
#include "nchw_boxes.cuh"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <vector>

#include "gemm/gemm_config.cuh"
#include "gemm/tiled_mma.cuh"

namespace cutegen::conv {
namespace {

constexpr int TileK = 32, Stages = 3;

// TMA's placement: per tap of the k-tile (one, or two of TileK / 2 channels each), box (p, q / 32)
// of 40 columns x the tap's channels, written densely as [c][column] after the boxes before it (no
// swizzle), k = tap x the tap's channels + c.
int tma_element(int tile_p, int tile_q, int taps_per_k, int stage, int m, int k) {
  int const p = m / tile_q, q = m % tile_q, boxes = tile_p * tile_q / 32, channels = TileK / taps_per_k;
  int const tap = k / channels, c = k % channels;
  return ((stage * taps_per_k + tap) * boxes + p * (tile_q / 32) + q / 32) * 40 * channels + c * 40 + q % 32;
}

template <int TileP, int TileQ, int TapsPerK = 1>
void expect_tma_placement() {
  using Layout = typename NchwBoxes<TileP, TileQ, TileK, Stages, TapsPerK>::Layout;
  Layout layout;
  for (int stage = 0; stage < Stages; ++stage)
    for (int m = 0; m < TileP * TileQ; ++m)
      for (int k = 0; k < TileK; ++k)
        ASSERT_EQ(int(layout(m, k, stage)), tma_element(TileP, TileQ, TapsPerK, stage, m, k))
            << TileP << " x " << TileQ << ", " << TapsPerK << " taps, stage " << stage << " m " << m << " k " << k;
}

TEST(NchwBoxes, LayoutIsWhereTmaLandsTheBoxes) {
  expect_tma_placement<4, 32>();
  expect_tma_placement<2, 64>();
  expect_tma_placement<1, 128>();
  expect_tma_placement<1, 128, 2>();
  expect_tma_placement<4, 32, 2>();
}

// Per consumer thread and fragment element, the element offset it loads from stage 0.
template <int TileP, int TileQ, int TapsPerK = 1>
std::vector<std::vector<int>> fragment_offsets() {
  using Config = gemm::GemmConfig<cute::tfloat32_t, cute::tfloat32_t, float, gemm::RowMajor, gemm::ColMajor,
                                  TileP * TileQ, 128, Stages>;
  using Layout = typename NchwBoxes<TileP, TileQ, TileK, Stages, TapsPerK>::Layout;
  static std::vector<float> smem(cute::cosize_v<Layout>);
  auto sA = cute::make_tensor(smem.data(), Layout{});
  gemm::RsTf32TiledMma<Config> tiled_mma;
  std::vector<std::vector<int>> offsets;
  for (int t = 0; t < int(cute::size(tiled_mma)); ++t) {
    auto tCsA = tiled_mma.get_thread_slice(t).partition_A(sA);  // (MMA,MMA_M,MMA_K,PIPE)
    auto stage0 = tCsA(cute::_, cute::_, cute::_, 0);
    offsets.emplace_back();
    for (int j = 0; j < int(cute::size(stage0)); ++j)
      offsets.back().push_back(int(&stage0(j) - smem.data()));
  }
  return offsets;
}

template <int TileP, int TileQ, int TapsPerK = 1>
void expect_each_element_once() {
  std::map<int, int> hits;
  for (auto const& thread : fragment_offsets<TileP, TileQ, TapsPerK>())
    for (int o : thread)
      ++hits[o];
  std::set<int> stage0;  // where the stage's (m, k) lie
  for (int m = 0; m < TileP * TileQ; ++m)
    for (int k = 0; k < TileK; ++k)
      stage0.insert(tma_element(TileP, TileQ, TapsPerK, 0, m, k));
  EXPECT_EQ(hits.size(), stage0.size());
  for (auto [offset, n] : hits) {
    EXPECT_TRUE(stage0.count(offset)) << "offset " << offset;
    EXPECT_EQ(n, 1) << "offset " << offset;
  }
}

TEST(NchwBoxes, ConsumersLoadEachElementOfAStageOnce) {
  expect_each_element_once<4, 32>();
  expect_each_element_once<2, 64>();
  expect_each_element_once<1, 128>();
  expect_each_element_once<1, 128, 2>();
}

// The most distinct 4-byte words one bank serves in a warp's load of one fragment element.
template <int TileP, int TileQ, int TapsPerK = 1>
int worst_bank_ways() {
  auto offsets = fragment_offsets<TileP, TileQ, TapsPerK>();
  int worst = 0;
  for (size_t warp = 0; warp < offsets.size() / 32; ++warp)
    for (size_t j = 0; j < offsets[0].size(); ++j) {
      std::map<int, std::set<int>> words;
      for (int lane = 0; lane < 32; ++lane) {
        int o = offsets[warp * 32 + lane][j];
        words[o % 32].insert(o);
      }
      for (auto const& [bank, w] : words)
        worst = std::max(worst, int(w.size()));
    }
  return worst;
}

TEST(NchwBoxes, AWarpsLoadHitsEachBankOnce) {
  EXPECT_EQ((worst_bank_ways<4, 32>()), 1);
  EXPECT_EQ((worst_bank_ways<2, 64>()), 1);
  EXPECT_EQ((worst_bank_ways<1, 128>()), 1);
  EXPECT_EQ((worst_bank_ways<1, 128, 2>()), 1);
}

TEST(NchwBoxes, ATapsBoxesStartOnA16ByteColumnAndHoldItsRun) {
  // TMA faults on a box whose innermost coordinate is off a 16-byte boundary (every multi-tap
  // convolution did, 2026-12-06): the box starts at the aligned column at or below the tap's first,
  // padding's negative columns included, and its 40 columns still hold the run's 32.
  using Boxes = NchwBoxes<1, 128, TileK, Stages>;
  for (int col = -13; col <= 13; ++col) {
    int const shift = Boxes::column_shift(col), start = col - shift;
    EXPECT_EQ(((start % 4) + 4) % 4, 0) << col;
    EXPECT_GE(shift, 0) << col;
    EXPECT_LE(shift + 32, Boxes::Pitch) << col;
    // A pixel tile starts at a multiple of 32, so the consumers' shift from the tap alone is the same.
    EXPECT_EQ(Boxes::column_shift(col + 96), shift) << col;
  }
}

}  // namespace
}  // namespace cutegen::conv
