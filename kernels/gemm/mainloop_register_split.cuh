// The fp32 mainloop for a large A beside a small B: 3xTF32 with A split in the consumers' registers.
//
// Splitting ahead (split_tf32_kernel.cuh) costs a pass over both operands; where one of them is
// small (128 rows against 32768) that pass over the large one costs more than the faster products
// save, and splitting in shared memory (mainloop_3xtf32.cuh) writes every tile back. Here only B is
// split ahead, into its lo and hi parts per k-tile (SplitParts::LoHi, two k-tiles of B' per
// k-tile), and A is read as stored:
//   producer: per k-tile one TMA box of fp32 A (TileM x 32) and two of B' (lo, hi: TileN x 32);
// or, with Config::SplitBInKernel, B is read as stored too and split by the producer warpgroup,
// which otherwise idles (no pass over either operand: large A and B alike, level 1's 6, 3):
//   producer: one thread loads A's box into the stage and B's fp32 box into a staging buffer (its
//     own barrier); all 128 threads split the staging buffer into the stage's lo and hi k-tiles
//     (element by element where B is K-major, as they are; where it is MN-major as stored, each
//     thread takes one row of lo and hi, reading its 32 values down the staging box's columns, a
//     warp's read one whole 128-byte row), fence them for wgmma's async reads and
//     complete their share of the full barrier's transaction bytes, which the pipeline's leader
//     posted for A and both parts, so the stage is full once A landed and every share is written;
//   consumers: per 8-wide k-block, A's fragment from shared memory into registers (the wgmma
//     RS form, which takes A from registers), split there into hi and lo, then
//     hi * lo(B), lo * hi(B), hi * hi(B) as one wgmma batch into the partial (Config::OneProduct:
//     hi * hi(B) alone, plain TF32 over operands rounded to nearest).
// Batches go out per k-block with at most two in flight (wait<2>), so a k-block's registers are
// rewritten only after the batch that read them, four k-blocks back, retired; a stage is released
// once k-tile i-1's last batch retired (in k-block 1 of k-tile i). As in mainloop_promoting.cuh
// the partial spans Config::PromoteEvery k-tiles and is added to the fp32 accumulator by FADDs
// (tests/tf32_accumulation_test.cc: the tensor cores' truncating sums stay short).
#pragma once

#include <cute/tensor.hpp>

#include "k_tile_spans.cuh"
#include "mainloop_tma_wgmma.cuh"
#include "split_tf32_kernel.cuh"
#include "tf32_split.cuh"
#include "tiled_mma.cuh"

namespace cutegen::gemm {

template <class Config>
struct MainloopRegisterSplit : MainloopTmaWgmma<Config> {
  using Base = MainloopTmaWgmma<Config>;
  using typename Base::ElementA;
  using typename Base::ElementB;
  using typename Base::PipelineState;
  using typename Base::SmemLayoutA;
  using typename Base::StrideA;
  using typename Base::StrideB;
  using typename Base::TileShape;
  using typename Base::TmaA;
  using typename Base::TmaB;
  using Pipeline = typename Base::Pipeline;
  using Tf32 = cute::tfloat32_t;
  static_assert(Config::RegisterSplit && Config::TileK == kSplitTile, "fp32 k-tiles of 32, as B' is laid out");
  static constexpr bool SplitB = Config::SplitBInKernel;
  // All of the producer warpgroup splits B; one thread loads otherwise.
  static constexpr int ProducerThreads = SplitB ? cutlass::NumThreadsPerWarpGroup : 1;
  // The transposing split's addresses: 72 registers spilled 4 bytes.
  static constexpr uint32_t ProducerRegisters = SplitB ? 80 : 40;
  static constexpr int StagingBarrier = 5;  // named barrier id: 0-1 ping-pong, 2-3 TMA-store staging, 4 conv gather

  // B's stages hold two k-tiles each: lo at 2 * stage, hi at 2 * stage + 1; K-major, as wgmma reads
  // tf32 (with SplitB, B as stored and staged may be MN-major: Base's layout and TMA are its).
  using SmemLayoutB =
      typename OperandSmem<ElementB, cute::GMMA::Major::K, Config::TileN, Config::TileK, 2 * Config::Stages>::Layout;
  static_assert(SplitB || Config::MajorB == cute::GMMA::Major::K, "B' is K-major");
  using TiledMma = RsTf32TiledMma<Config>;
  static constexpr int BTile = Config::TileN * Config::TileK;  // elements of one k-tile of B
  // A and both parts of B (with SplitB, the parts' bytes are completed by the splitting threads).
  static constexpr uint32_t TransactionBytes =
      uint32_t(Config::TileM * Config::TileK * sizeof(ElementA)) + 2u * BTile * sizeof(ElementB);

  // SplitB: B's fp32 k-tiles as TMA lands them (Base's B layout, one per stage), and their barriers.
  struct Staging {
    alignas(1024) cute::array_aligned<ElementB, cute::cosize_v<typename Base::SmemLayoutB>, 1024> b;
    uint64_t landed[Config::Stages];
  };
  struct NoStaging {};
  struct TensorStorage {
    alignas(1024) cute::array_aligned<ElementA, cute::cosize_v<SmemLayoutA>, 1024> a;
    alignas(1024) cute::array_aligned<ElementB, cute::cosize_v<SmemLayoutB>, 1024> b;
    cute::conditional_t<SplitB, Staging, NoStaging> staging;
  };

  struct Params {
    TmaA tma_a;
    TmaB tma_b;  // over B' (N, 2 x K padded to 32, L); with SplitB over B as stored (N, K, L)
    ProblemShape shape;
    bool broadcast_a, broadcast_b;
  };

  // Host side. b points to B' (split_operand<SplitParts::LoHi>), or with SplitB to B (K-major fp32),
  // stride_b its leading dimension and batch stride; shape.k is the GEMM's K.
  static Params make_params(ProblemShape shape, ElementA const* a, StrideA stride_a, ElementB const* b,
                            StrideB stride_b) {
    int parts_k = SplitB ? shape.k : int(split_row_length<SplitParts::LoHi>(shape.k));
    auto cluster = typename Config::ClusterShape{};
    return {
        cute::make_tma_copy_A_sm90(cute::SM90_TMA_LOAD{}, Base::operand_tensor(a, shape.m, shape.k, shape.l, stride_a),
                                   SmemLayoutA{}(cute::_, cute::_, 0), TileShape{}, cluster),
        cute::make_tma_copy_B_sm90(cute::SM90_TMA_LOAD{}, Base::operand_tensor(b, shape.n, parts_k, shape.l, stride_b),
                                   typename Base::SmemLayoutB{}(cute::_, cute::_, 0), TileShape{}, cluster),
        shape, cute::get<2>(stride_a) == 0, cute::get<2>(stride_b) == 0};
  }

  // Producer (ProducerThreads threads, the first the pipeline's leader): k-tiles [k_begin, k_begin + k_count).
  CUTE_DEVICE static void load(Params const& params, Pipeline& pipeline, PipelineState& write, int m_tile, int n_tile,
                               int batch, int k_begin, int k_count, TensorStorage& smem) {
    if constexpr (SplitB)
      load_splitting_b(params, pipeline, write, m_tile, n_tile, batch, k_begin, k_count, smem);
    else
      load_b_parts(params, pipeline, write, m_tile, n_tile, batch, k_begin, k_count, smem);
  }

  // Same contract as MainloopTmaWgmma::mma; `accum` is written (not accumulated into).
  template <class Accumulator, class AfterRelease>
  CUTE_DEVICE static void mma(Pipeline& pipeline, PipelineState& read, Accumulator& accum, int k_count,
                              int consumer_thread, TensorStorage& smem, AfterRelease&& after_release) {
    using namespace cute;
    Tensor sA = make_tensor(make_smem_ptr(reinterpret_cast<Tf32*>(smem.a.data())), SmemLayoutA{});  // (BM,BK,PIPE)
    Tensor sB = make_tensor(make_smem_ptr(reinterpret_cast<Tf32*>(smem.b.data())), SmemLayoutB{});  // (BN,BK,2*PIPE)
    TiledMma tiled_mma;
    auto thread_mma = tiled_mma.get_thread_slice(consumer_thread);
    Tensor tCsA = thread_mma.partition_A(sA);                  // (MMA,MMA_M,MMA_K,PIPE) in smem
    Tensor hi = thread_mma.partition_fragment_A(sA(_, _, 0));  // (MMA,MMA_M,MMA_K) registers
    Tensor lo = make_fragment_like(hi);
    Tensor raw = make_fragment_like<uint32_t>(hi);                         // A as stored: fp32 bits
    Tensor tCrB = thread_mma.make_fragment_B(thread_mma.partition_B(sB));  // (MMA,MMA_N,MMA_K,2*PIPE)
    Tensor partial = make_fragment_like(accum);                            // one span's products, promoted at its end
    constexpr int KBlocks = decltype(size<2>(hi))::value;
    static_assert(KBlocks >= 3, "a k-block's registers are rewritten three batches after the one that read them");
    CUTE_STATIC_ASSERT_V(size<1>(hi) == size<1>(accum) && size<1>(tCrB) == size<2>(accum));
    auto load = [&](int kb, int stage) {  // ld.shared: a generic load would not know the state space
      CUTE_UNROLL
      for (int j = 0; j < size(raw(_, _, kb)); ++j)
        asm volatile("ld.shared.b32 %0, [%1];"
                     : "=r"(raw(_, _, kb)(j))
                     : "r"(cast_smem_ptr_to_uint(&tCsA(_, _, kb, stage)(j))));
    };

    clear(accum);
    if (k_count == 0) return;
    StageReleaser<Pipeline, PipelineState, AfterRelease> release{pipeline, read, after_release};
    // One k-tile: A's k-blocks loaded one ahead of the batch that splits and multiplies them.
    auto step = [&](int i, bool opens, bool closes) {
      pipeline.consumer_wait(read);
      int stage = read.index();
      ++read;
      load(0, stage);
      CUTE_UNROLL
      for (int kb = 0; kb < KBlocks; ++kb) {
        CUTE_UNROLL
        for (int j = 0; j < size(raw(_, _, kb)); ++j) {
          if constexpr (Config::OneProduct) {
            hi(_, _, kb)(j) = Tf32::bitcast(float_bits(round_to_tf32(float_from_bits(raw(_, _, kb)(j)))));
          } else {
            Tf32Pair p = split_tf32(float_from_bits(raw(_, _, kb)(j)));
            hi(_, _, kb)(j) = Tf32::bitcast(float_bits(p.hi));
            lo(_, _, kb)(j) = Tf32::bitcast(float_bits(p.lo));
          }
        }
        if (kb + 1 < KBlocks) load(kb + 1, stage);  // in flight while this k-block's wgmmas issue
        warpgroup_fence_operand(hi);
        warpgroup_fence_operand(lo);
        warpgroup_fence_operand(partial);
        warpgroup_arrive();
        tiled_mma.accumulate_ = opens && kb == 0 ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One;
        if constexpr (!Config::OneProduct) {
          cute::gemm(tiled_mma, hi(_, _, kb), tCrB(_, _, kb, 2 * stage), partial);  // small terms first
          tiled_mma.accumulate_ = GMMA::ScaleOut::One;
          cute::gemm(tiled_mma, lo(_, _, kb), tCrB(_, _, kb, 2 * stage + 1), partial);
        }
        cute::gemm(tiled_mma, hi(_, _, kb), tCrB(_, _, kb, 2 * stage + 1), partial);
        warpgroup_commit_batch();
        warpgroup_wait<2>();
        warpgroup_fence_operand(partial);
        if (kb == 1) release.through(i - 1);  // k-tile i-1's batches all retired
      }
      if (closes) {  // the span ends: drain the partial into the accumulator
        promote(accum, partial);
        release.through(i);
      }
    };
    for_each_k_tile_in_spans<Config::PromoteEvery>(k_count, step);  // the last k-tile closes a span
  }

 private:
  // B's two parts ahead in B': per k-tile one box of A and two of B' (lo, hi).
  CUTE_DEVICE static void load_b_parts(Params const& params, Pipeline& pipeline, PipelineState& write, int m_tile,
                                       int n_tile, int batch, int k_begin, int k_count, TensorStorage& smem) {
    using namespace cute;
    int const parts_k = int(split_row_length<SplitParts::LoHi>(params.shape.k));
    Tensor sB = make_tensor(make_smem_ptr(smem.b.data()), SmemLayoutB{});  // (BN,BK,2*PIPE)
    auto [tAgA, tAsA, tBgB, tBsB] = Base::tma_views(params, m_tile, n_tile, batch, parts_k, smem.a.data(), sB);
    for (int k = k_begin; k < k_begin + k_count; ++k) {
      pipeline.producer_acquire(write);
      auto* full = pipeline.producer_get_barrier(write);
      int stage = write.index();
      copy(params.tma_a.with(*full), tAgA(_, _, _, k), tAsA(_, _, _, stage));
      copy(params.tma_b.with(*full), tBgB(_, _, _, 2 * k), tBsB(_, _, _, 2 * stage));
      copy(params.tma_b.with(*full), tBgB(_, _, _, 2 * k + 1), tBsB(_, _, _, 2 * stage + 1));
      ++write;
    }
  }

  // SplitB, on the producer warpgroup's 128 threads: thread 0 loads A into the stage and B into its
  // staging buffer; all split the staging buffer into the stage's lo and hi k-tiles.
  CUTE_DEVICE static void load_splitting_b(Params const& params, Pipeline& pipeline, PipelineState& write, int m_tile,
                                           int n_tile, int batch, int k_begin, int k_count, TensorStorage& smem) {
    using namespace cute;
    using Barrier = cutlass::arch::ClusterTransactionBarrier;
    int const thread = int(threadIdx.x) % cutlass::NumThreadsPerWarpGroup;
    auto& staging = smem.staging;
    if (write.count() == 0) {  // this CTA's first tile: its staging barriers, before any thread waits on one
      if (thread == 0) {
        for (int s = 0; s < Config::Stages; ++s)
          Barrier::init(&staging.landed[s], 1);
        cutlass::arch::fence_barrier_init();
      }
      cutlass::arch::NamedBarrier::sync(ProducerThreads, StagingBarrier);
    }
    Tensor sB = make_tensor(make_smem_ptr(staging.b.data()), typename Base::SmemLayoutB{});  // (BN,BK,PIPE)
    auto [tAgA, tAsA, tBgB, tBsB] = Base::tma_views(params, m_tile, n_tile, batch, params.shape.k, smem.a.data(), sB);
    constexpr int PerThread = BTile / cutlass::NumThreadsPerWarpGroup;  // elements a thread splits
    for (int k = k_begin; k < k_begin + k_count; ++k) {
      pipeline.producer_acquire(write);  // the leader posts A's and both parts' bytes on the full barrier
      auto* full = pipeline.producer_get_barrier(write);
      int const stage = write.index();
      uint32_t const parity = (write.count() / Config::Stages) & 1;
      if (thread == 0) {
        copy(params.tma_a.with(*full), tAgA(_, _, _, k), tAsA(_, _, _, stage));
        Barrier::arrive_and_expect_tx(&staging.landed[stage], uint32_t(BTile * sizeof(ElementB)));
        copy(params.tma_b.with(staging.landed[stage]), tBgB(_, _, _, k), tBsB(_, _, _, stage));
      }
      Barrier::wait(&staging.landed[stage], parity);
      split_staged(staging.b.data() + stage * BTile, smem.b.data() + 2 * stage * BTile, thread);
      cutlass::arch::fence_view_async_shared();  // the generic writes, before wgmma's async reads
      __threadfence_block();                     // and before the completion that publishes them
      Barrier::complete_transaction(full, 0, uint32_t(2 * PerThread * sizeof(ElementB)), 1);
      ++write;
    }
  }

  // One staged k-tile of B split into the stage's lo and hi k-tiles (lo_hi: lo, then hi), by the
  // producer warpgroup's thread `thread`.
  CUTE_DEVICE static void split_staged(ElementB const* staged, ElementB* lo_hi, int thread) {
    using namespace cute;
    constexpr int Threads = cutlass::NumThreadsPerWarpGroup;
    if constexpr (Config::MajorB == GMMA::Major::K) {
      // One layout for all three: element i of the staging tile is element i of lo and of hi.
      static_assert(BTile % (4 * Threads) == 0, "float4s");
      float4 const* src = reinterpret_cast<float4 const*>(staged);
      float4* lo = reinterpret_cast<float4*>(lo_hi);
      float4* hi = lo + BTile / 4;
      CUTE_UNROLL
      for (int j = 0; j < BTile / 4 / Threads; ++j) {
        int const i = thread + j * Threads;
        float4 const v = src[i];
        Tf32Pair const x = split_tf32(v.x), y = split_tf32(v.y), z = split_tf32(v.z), w = split_tf32(v.w);
        lo[i] = make_float4(x.lo, y.lo, z.lo, w.lo);
        hi[i] = make_float4(x.hi, y.hi, z.hi, w.hi);
      }
    } else {
      // MN-major staging: thread n writes row n of lo and hi (K-major: 16-byte chunks of 4 k), reading
      // its values down the staging box's k columns (a warp's read of one k is one 128-byte row). The
      // swizzled addresses come from CuTe's layouts; ld/st.shared, since through them the compiler
      // loses the state space (generic loads and stores otherwise).
      using OneTile = decltype(take<0, 2>(typename Base::SmemLayoutB{}));
      Tensor src = make_tensor(make_smem_ptr(staged), OneTile{});                        // (BN,BK)
      Tensor lo = make_tensor(make_smem_ptr(lo_hi), take<0, 2>(SmemLayoutB{}));          // (BN,BK)
      Tensor hi = make_tensor(make_smem_ptr(lo_hi + BTile), take<0, 2>(SmemLayoutB{}));  // (BN,BK)
      auto load = [](auto const& element) {
        uint32_t bits;
        asm volatile("ld.shared.b32 %0, [%1];" : "=r"(bits) : "r"(cast_smem_ptr_to_uint(&element)));
        return split_tf32(float_from_bits(bits));
      };
      auto store = [](auto& element, float x, float y, float z, float w) {
        asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(cast_smem_ptr_to_uint(&element)), "f"(x), "f"(y),
                     "f"(z), "f"(w)
                     : "memory");
      };
      static_assert(Config::TileN % Threads == 0 && Config::TileK % 4 == 0, "whole rows, float4s");
      CUTE_UNROLL
      for (int n = thread; n < Config::TileN; n += Threads) {
#pragma unroll 1  // unrolled, the swizzled addresses spilled from the producer's 80 registers
        for (int k = 0; k < Config::TileK; k += 4) {
          Tf32Pair const x = load(src(n, k)), y = load(src(n, k + 1)), z = load(src(n, k + 2)), w = load(src(n, k + 3));
          store(lo(n, k), x.lo, y.lo, z.lo, w.lo);
          store(hi(n, k), x.hi, y.hi, z.hi, w.hi);
        }
      }
    }
  }
};

}  // namespace cutegen::gemm
