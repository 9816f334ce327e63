// The fp32 mainloop: 3xTF32 inside the kernel, with each k-tile's products promoted into the fp32
// accumulator by ordinary FADDs.
//
// The producer side is MainloopTmaWgmma's: TMA loads fp32 A and B tiles (K-major) into the stages.
// The consumers then, per k-tile:
//   1. split the stage in shared memory: each x becomes hi = tf32(x) in place and lo = tf32(x - hi)
//      in one of two lo buffers (tf32_split.cuh, the host-tested code). An elementwise map at
//      identical offsets, so the swizzled layout does not matter;
//   2. run hi*lo, lo*hi, then hi*hi (small terms first) as wgmma into a zeroed partial accumulator;
//   3. once that batch retired, add the partial to the fp32 accumulator on the CUDA cores.
// Why step 3: the tensor cores' fp32 accumulation truncates (rounds toward zero) rather than rounds
// to nearest, so a long sum inside wgmma drifts by about one ulp of the running sum per step,
// linearly in K; a partial over one k-tile stays small, and the FADDs round to nearest
// (tests/tf32_accumulation_test.cc emulates both schemes against float64).
// The split of k-tile i+1 runs while the tensor cores compute k-tile i. The partial spans
// Config::PromoteEvery k-tiles and is drained (wgmma wait 0) before its promotion, as CUTLASS's FP8
// promotion does: two partials alternating would avoid that wait, but ptxas then copies in-flight
// accumulators and serializes the wgmmas. Between promotions one batch stays in flight, as in the
// half-precision mainloop.
#pragma once

#include <cute/tensor.hpp>
#include <cutlass/arch/barrier.h>

#include "k_tile_spans.cuh"
#include "mainloop_tma_wgmma.cuh"
#include "tf32_split.cuh"

namespace cutegen::gemm {

template <class Config>
struct Mainloop3xTf32 : MainloopTmaWgmma<Config> {
  using Base = MainloopTmaWgmma<Config>;
  using Base::MmaThreads;
  using typename Base::Pipeline;
  using typename Base::PipelineState;
  using typename Base::SmemLayoutA;
  using typename Base::SmemLayoutB;
  using typename Base::TiledMma;
  static_assert(Config::Fp32Via3xTf32, "fp32 operands only");

  static constexpr int StageElementsA = Config::TileM * Config::TileK;
  static constexpr int StageElementsB = Config::TileN * Config::TileK;
  static_assert(cute::cosize_v<SmemLayoutA> == StageElementsA * Config::Stages, "stages are contiguous blocks");
  static_assert(StageElementsA % 4 == 0 && StageElementsB % 4 == 0, "the split reads whole float4s");

  // The lo parts of two k-tiles: the one being split and the one the tensor cores may still read.
  using SmemLayoutLoA = typename OperandSmem<float, Config::MajorA, Config::TileM, Config::TileK, 2>::Layout;
  using SmemLayoutLoB = typename OperandSmem<float, Config::MajorB, Config::TileN, Config::TileK, 2>::Layout;

  struct TensorStorage : Base::TensorStorage {
    alignas(1024) cute::array_aligned<float, cute::cosize_v<SmemLayoutLoA>, 1024> a_lo;
    alignas(1024) cute::array_aligned<float, cute::cosize_v<SmemLayoutLoB>, 1024> b_lo;
  };

  // Named barrier ids past the kernels' own (0 and 1, the ping-pong hand-over).
  static constexpr int FirstSplitBarrier = 2;

  // x -> (hi in place, lo beside it) for `Elements` floats, spread over the team's threads.
  template <int Elements>
  CUTE_DEVICE static void split_in_place(float* x, float* lo, int thread) {
    auto* x4 = reinterpret_cast<float4*>(x);
    auto* lo4 = reinterpret_cast<float4*>(lo);
    CUTE_UNROLL
    for (int j = 0; j < (Elements / 4 + MmaThreads - 1) / MmaThreads; ++j) {
      int i = thread + j * MmaThreads;  // a warp covers 512 contiguous bytes: no bank conflicts
      if (Elements / 4 % MmaThreads != 0 && i >= Elements / 4) break;  // a narrow tile: fewer float4s than threads
      float4 v = x4[i];
      Tf32Pair px = split_tf32(v.x), py = split_tf32(v.y), pz = split_tf32(v.z), pw = split_tf32(v.w);
      x4[i] = make_float4(px.hi, py.hi, pz.hi, pw.hi);
      lo4[i] = make_float4(px.lo, py.lo, pz.lo, pw.lo);
    }
  }

  // Same contract as MainloopTmaWgmma::mma; `accum` is written (not accumulated into).
  template <class Accumulator, class AfterRelease>
  CUTE_DEVICE static void mma(Pipeline& pipeline, PipelineState& read, Accumulator& accum, int k_count,
                              int consumer_thread, TensorStorage& smem, AfterRelease&& after_release) {
    using namespace cute;
    using Tf32 = tfloat32_t;
    Tensor sA = make_tensor(make_smem_ptr(reinterpret_cast<Tf32*>(smem.a.data())), SmemLayoutA{});  // (BM,BK,PIPE)
    Tensor sB = make_tensor(make_smem_ptr(reinterpret_cast<Tf32*>(smem.b.data())), SmemLayoutB{});  // (BN,BK,PIPE)
    Tensor sAlo = make_tensor(make_smem_ptr(reinterpret_cast<Tf32*>(smem.a_lo.data())), SmemLayoutLoA{});  // (BM,BK,2)
    Tensor sBlo = make_tensor(make_smem_ptr(reinterpret_cast<Tf32*>(smem.b_lo.data())), SmemLayoutLoB{});  // (BN,BK,2)
    TiledMma tiled_mma;
    auto thread_mma = tiled_mma.get_thread_slice(consumer_thread);
    Tensor tCrA = thread_mma.make_fragment_A(thread_mma.partition_A(sA));      // (MMA,MMA_M,MMA_K,PIPE)
    Tensor tCrB = thread_mma.make_fragment_B(thread_mma.partition_B(sB));      // (MMA,MMA_N,MMA_K,PIPE)
    Tensor tCrAlo = thread_mma.make_fragment_A(thread_mma.partition_A(sAlo));  // (MMA,MMA_M,MMA_K,2)
    Tensor tCrBlo = thread_mma.make_fragment_B(thread_mma.partition_B(sBlo));  // (MMA,MMA_N,MMA_K,2)
    Tensor partial = make_fragment_like(accum);
    clear(accum);
    if (k_count == 0) return;
    // The team's first thread names its barrier: teams of one kernel start at distinct multiples of MmaThreads.
    uint32_t barrier = FirstSplitBarrier + (uint32_t(threadIdx.x) - uint32_t(consumer_thread)) / MmaThreads;
    StageReleaser<Pipeline, PipelineState, AfterRelease> release{pipeline, read, after_release};

    // Waits for the next k-tile's stage and splits it into lo buffer `buf` (the caller makes it visible).
    int stage = 0;
    auto split_next = [&](int buf) {
      pipeline.consumer_wait(read);
      stage = read.index();
      split_in_place<StageElementsA>(smem.a.data() + stage * StageElementsA, smem.a_lo.data() + buf * StageElementsA,
                                     consumer_thread);
      split_in_place<StageElementsB>(smem.b.data() + stage * StageElementsB, smem.b_lo.data() + buf * StageElementsB,
                                     consumer_thread);
      cutlass::arch::fence_view_async_shared();  // the generic-proxy writes, visible to wgmma
      ++read;
    };
    // One k-tile; `opens` and `closes` say where it stands in its partial's span.
    auto step = [&](int i, bool opens, bool closes) {
      int buf = i % 2, current = stage;
      warpgroup_fence_operand(partial);
      warpgroup_arrive();
      tiled_mma.accumulate_ = opens ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One;
      CUTE_UNROLL
      for (int kb = 0; kb < size<2>(tCrA); ++kb) {
        cute::gemm(tiled_mma, tCrA(_, _, kb, current), tCrBlo(_, _, kb, buf), partial);
        tiled_mma.accumulate_ = GMMA::ScaleOut::One;
      }
      CUTE_UNROLL
      for (int kb = 0; kb < size<2>(tCrA); ++kb) {
        cute::gemm(tiled_mma, tCrAlo(_, _, kb, buf), tCrB(_, _, kb, current), partial);
      }
      CUTE_UNROLL
      for (int kb = 0; kb < size<2>(tCrA); ++kb) {
        cute::gemm(tiled_mma, tCrA(_, _, kb, current), tCrB(_, _, kb, current), partial);
      }
      warpgroup_commit_batch();
      // k-tile i-1's batch retired: its stage is free, and so is its lo buffer, where k-tile i+1 is
      // split while the tensor cores compute k-tile i. The split is shared, so when k-tile i-1 did
      // not end a span (no wait 0 before the last barrier), every warpgroup's batch must have retired.
      warpgroup_wait<1>();
      warpgroup_fence_operand(partial);
      release.through(i - 1);
      if (!opens) cutlass::arch::NamedBarrier::sync(MmaThreads, barrier);
      if (i + 1 < k_count) split_next(1 - buf);
      if (closes) {  // the span ends: drain the partial into the accumulator
        promote(accum, partial);
        release.through(i);
      }
      cutlass::arch::NamedBarrier::sync(MmaThreads, barrier);  // k-tile i+1 split everywhere
    };
    split_next(0);
    cutlass::arch::NamedBarrier::sync(MmaThreads, barrier);
    for_each_k_tile_in_spans<Config::PromoteEvery>(k_count, step);
  }
};

}  // namespace cutegen::gemm
