// The tf32 mainloop over fp32 operands split ahead into two parts per k-tile (split_tf32_kernel.cuh's
// HiLo for A, LoHi for B): MainloopTmaWgmma's producer and pipeline over the parts, the products
// crossing each pair of stages.
//
// The three-part layout (mainloop_promoting.cuh) writes hi twice so that a plain GEMM over the parts
// is the 3xTF32 sum; here the pass writes two thirds of that, and a k-tile of the operands is two
// stages, loaded as the plain GEMM would load them: A's stages hold its hi then lo part, B's its lo
// then hi. The consumers wait for both and issue the three products, small ones first:
//   A hi x B lo (first stage's pair), A lo x B hi (second's), A hi x B hi (first A, second B).
// A k-tile here is such a pair: k_tile_count, the producer's ranges and the scheduler's split-K all
// count pairs, so a range never splits one. As in MainloopPromoting, the wgmmas go into a zeroed
// partial promoted into the fp32 accumulator every Config::PromoteEvery pairs.
// For the warp-specialized kernel only: the pipelined one refills one stage per k-tile.
#pragma once

#include <cute/tensor.hpp>

#include "k_tile_spans.cuh"
#include "mainloop_tma_wgmma.cuh"

namespace cutegen::gemm {

template <class Config>
struct MainloopPairedParts : MainloopTmaWgmma<Config> {
  using Base = MainloopTmaWgmma<Config>;
  using typename Base::Params;
  using typename Base::Pipeline;
  using typename Base::PipelineState;
  using typename Base::TensorStorage;
  using typename Base::TiledMma;
  static_assert(Config::PairedParts && Config::Stages >= 2, "two stages per k-tile");
  static constexpr int StagesPerKTile = 2;

  // Pairs of the parts' k-tiles (the parts' K is even in k-tiles: split_tf32 pads to whole k-tiles).
  CUTE_HOST_DEVICE static int k_tile_count(ProblemShape const& shape) { return Base::k_tile_count(shape) / 2; }

  // Producer: pairs [k_begin, k_begin + k_count), as the parts' k-tiles they hold.
  CUTE_DEVICE static void load(Params const& params, Pipeline& pipeline, PipelineState& write, int m_tile, int n_tile,
                               int batch, int k_begin, int k_count, TensorStorage& smem) {
    Base::load(params, pipeline, write, m_tile, n_tile, batch, 2 * k_begin, 2 * k_count, smem);
  }

  // Same contract as MainloopTmaWgmma::mma, over pairs.
  template <class Accumulator, class AfterRelease>
  CUTE_DEVICE static void mma(Pipeline& pipeline, PipelineState& read, Accumulator& accum, int k_count,
                              int consumer_thread, TensorStorage& smem, AfterRelease&& after_release) {
    using namespace cute;
    TiledMma tiled_mma;
    Tensor tCrA = Base::stage_fragments_a(tiled_mma, consumer_thread, smem);
    Tensor tCrB = Base::stage_fragments_b(tiled_mma, consumer_thread, smem);
    auto issue = [&](bool opens, auto& partial) {
      auto products = [&](int a_stage, int b_stage) {
        CUTE_UNROLL
        for (int kb = 0; kb < size<2>(tCrA); ++kb) {
          cute::gemm(tiled_mma, tCrA(_, _, kb, a_stage), tCrB(_, _, kb, b_stage), partial);
          tiled_mma.accumulate_ = GMMA::ScaleOut::One;
        }
      };
      pipeline.consumer_wait(read);
      int const first = read.index();
      ++read;
      pipeline.consumer_wait(read);
      int const second = read.index();
      ++read;
      warpgroup_fence_operand(partial);
      warpgroup_arrive();
      tiled_mma.accumulate_ = opens ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One;
      products(first, first);    // A hi x B lo
      products(second, second);  // A lo x B hi
      products(first, second);   // A hi x B hi
      warpgroup_commit_batch();
    };
    promote_in_spans<Config::PromoteEvery, StagesPerKTile>(pipeline, read, accum, k_count, after_release, issue);
  }
};

}  // namespace cutegen::gemm
