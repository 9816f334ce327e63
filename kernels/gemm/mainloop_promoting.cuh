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

#include "mainloop_tma_wgmma.cuh"

namespace cutegen::gemm {

template <class Config>
struct MainloopPromoting : MainloopTmaWgmma<Config> {
  using Base = MainloopTmaWgmma<Config>;
  using typename Base::Pipeline;
  using typename Base::PipelineState;
  using typename Base::SmemLayoutA;
  using typename Base::SmemLayoutB;
  using typename Base::TensorStorage;
  using typename Base::TiledMma;
  static_assert(Config::PromoteSpan > 0, "a span to promote after");

  // Same contract as MainloopTmaWgmma::mma.
  template <class Accumulator, class AfterRelease>
  CUTE_DEVICE static void mma(Pipeline& pipeline, PipelineState& read, Accumulator& accum, int k_count,
                              int consumer_thread, TensorStorage& smem, AfterRelease&& after_release) {
    using namespace cute;
    Tensor sA = make_tensor(make_smem_ptr(smem.a.data()), SmemLayoutA{});  // (BM,BK,PIPE)
    Tensor sB = make_tensor(make_smem_ptr(smem.b.data()), SmemLayoutB{});  // (BN,BK,PIPE)
    TiledMma tiled_mma;
    auto thread_mma = tiled_mma.get_thread_slice(consumer_thread);
    Tensor tCrA = thread_mma.make_fragment_A(thread_mma.partition_A(sA));  // (MMA,MMA_M,MMA_K,PIPE)
    Tensor tCrB = thread_mma.make_fragment_B(thread_mma.partition_B(sB));  // (MMA,MMA_N,MMA_K,PIPE)
    Tensor partial = make_fragment_like(accum);
    clear(accum);
    if (k_count == 0) return;
    PipelineState release = read;
    int released = 0;
    auto release_through = [&](int last) {  // the stages of k-tiles up to `last`, their wgmmas retired
      for (; released <= last; ++released) {
        pipeline.consumer_release(release);
        ++release;
        after_release(released + 1);
      }
    };
    // One k-tile; `opens` and `closes` say where it stands in its span. They are constants once the
    // span's loop is unrolled: a branch around the promotion would make ptxas serialize the wgmmas.
    auto step = [&](int i, bool opens, bool closes) {
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
      if (closes) {
        warpgroup_wait<0>();
        warpgroup_fence_operand(partial);
        CUTE_UNROLL
        for (int j = 0; j < size(accum); ++j)
          accum(j) += partial(j);
        release_through(i);
      } else {
        warpgroup_wait<1>();  // k-tile i-1's batch retired: its stage can be refilled
        warpgroup_fence_operand(partial);
        release_through(i - 1);
      }
    };
    constexpr int Span = Config::PromoteSpan;
    int whole_spans_end = k_count / Span * Span;
    for (int i = 0; i < whole_spans_end; i += Span) {
      CUTE_UNROLL
      for (int j = 0; j < Span; ++j)
        step(i + j, j == 0, j == Span - 1);
    }
    for (int i = whole_spans_end; i < k_count; ++i)  // the last k-tiles, fewer than a span: one each
      step(i, true, true);
  }
};

}  // namespace cutegen::gemm
