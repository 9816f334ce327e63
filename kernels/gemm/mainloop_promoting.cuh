// The tf32 mainloop over pre-split fp32 operands (split_tf32_kernel.cuh's HiLoHi / LoHiHi parts):
// MainloopTmaWgmma's pipeline and wgmmas, with the sum kept short on the tensor cores.
//
// The tensor cores' fp32 accumulation truncates, so one wgmma sum over all of K drifts linearly in
// K (tests/tf32_accumulation_test.cc); here every Config::PromoteSpan k-tiles the wgmmas go into a
// zeroed partial, which is then drained (wgmma wait 0) and added to the fp32 accumulator by FADDs,
// rounded to nearest. Three k-tiles of the GEMM are one k-tile of the operands' 3xTF32 terms, so a
// span of 3 * PromoteEvery k-tiles sums the same terms as mainloop_3xtf32.cuh's span of PromoteEvery.
// Unlike there, nothing is split in shared memory: the consumers only issue wgmmas.
#pragma once

#include <cute/tensor.hpp>

#include "k_tile_spans.cuh"
#include "mainloop_tma_wgmma.cuh"

namespace cutegen::gemm {

template <class Config>
struct MainloopPromoting : MainloopTmaWgmma<Config> {
  using Base = MainloopTmaWgmma<Config>;
  using typename Base::Pipeline;
  using typename Base::PipelineState;
  using typename Base::TensorStorage;
  using typename Base::TiledMma;
  static_assert(Config::PromoteSpan > 0, "a span to promote after");

  // Same contract as MainloopTmaWgmma::mma.
  template <class Accumulator, class AfterRelease>
  CUTE_DEVICE static void mma(Pipeline& pipeline, PipelineState& read, Accumulator& accum, int k_count,
                              int consumer_thread, TensorStorage& smem, AfterRelease&& after_release) {
    using namespace cute;
    TiledMma tiled_mma;
    Tensor tCrA = Base::stage_fragments_a(tiled_mma, consumer_thread, smem);
    Tensor tCrB = Base::stage_fragments_b(tiled_mma, consumer_thread, smem);
    auto issue = [&](bool opens, auto& partial) {
      pipeline.consumer_wait(read);
      int stage = read.index();
      warpgroup_fence_operand(partial);
      warpgroup_arrive();
      tiled_mma.accumulate_ = opens ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One;
      CUTE_UNROLL
      for (int kb = 0; kb < size<2>(tCrA); ++kb) {
        cute::gemm(tiled_mma, tCrA(_, _, kb, stage), tCrB(_, _, kb, stage), partial);
        tiled_mma.accumulate_ = GMMA::ScaleOut::One;
      }
      warpgroup_commit_batch();
      ++read;
    };
    promote_in_spans<Config::PromoteSpan, 1>(pipeline, read, accum, k_count, after_release, issue);
  }
};

}  // namespace cutegen::gemm
