// The mainloop collective: TMA loads of A and B tiles into swizzled shared memory through a
// multi-stage mbarrier pipeline (cutlass::PipelineTmaAsync), and wgmma (SS: both operands read
// from shared memory) accumulating in fp32 registers.
//
// `load` runs on one producer thread, `mma` on the consumer warpgroups; the same pipeline state
// objects carry over from tile to tile, so a persistent kernel keeps loading the next tile while
// the consumers finish the current one.
#pragma once

#include <cute/tensor.hpp>  // first: the sm90 atom headers below need what it declares
#include <cute/arch/cluster_sm90.hpp>
#include <cute/atom/copy_traits_sm90_tma.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cutlass/pipeline/sm90_pipeline.hpp>

#include "gemm_config.cuh"
#include "tiled_mma.cuh"

namespace cutegen::gemm {

// The problem: C(M,N,L) = A(M,K,L) * B(N,K,L) with the strides of the operand layouts.
struct ProblemShape {
  int m, n, k, l;
};

template <class Config>
struct MainloopTmaWgmma {
  using ElementA = typename Config::ElementA;
  using ElementB = typename Config::ElementB;
  using TileShape = typename Config::TileShape;
  using ClusterShape = typename Config::ClusterShape;
  using StrideA = OperandStride<Config::MajorA>;
  using StrideB = OperandStride<Config::MajorB>;

  using SmemLayoutA =
      typename OperandSmem<ElementA, Config::MajorA, Config::TileM, Config::TileK, Config::Stages>::Layout;
  using SmemLayoutB =
      typename OperandSmem<ElementB, Config::MajorB, Config::TileN, Config::TileK, Config::Stages>::Layout;

  // A tile of A is needed by every CTA of the cluster in its row (same m), so it is multicast
  // along the cluster's N; B along the cluster's M.
  using CopyOpA = cute::conditional_t<Config::ClusterN == 1, cute::SM90_TMA_LOAD, cute::SM90_TMA_LOAD_MULTICAST>;
  using CopyOpB = cute::conditional_t<Config::ClusterM == 1, cute::SM90_TMA_LOAD, cute::SM90_TMA_LOAD_MULTICAST>;

  using TiledMma = SsTiledMma<Config>;
  static constexpr int MmaThreads = Config::MmaWarpgroups * cutlass::NumThreadsPerWarpGroup;  // per tile
  static_assert(cute::size(TiledMma{}) == MmaThreads);

  using Pipeline = cutlass::PipelineTmaAsync<Config::Stages>;
  using PipelineState = typename Pipeline::PipelineState;
  // Threads of the producer warpgroup that run `load` (a mainloop whose A tiles are gathered by
  // the warpgroup's own copies takes all 128; TMA needs one).
  static constexpr int ProducerThreads = 1;
  // Whether `mma` takes the mainloop's params first (a consumer that needs the problem's shape).
  static constexpr bool MmaReadsParams = false;
  // The producer warpgroup's registers after setmaxnreg.dec (one thread issuing TMA needs few).
  static constexpr uint32_t ProducerRegisters = 40;
  // Pipeline stages one k-tile of `load` and `mma` takes (mainloop_paired_parts.cuh's take two).
  static constexpr int StagesPerKTile = 1;

  // Every CTA's full barrier receives whole A and B tiles, whichever CTA of the cluster issued them.
  static constexpr uint32_t TransactionBytes =
      uint32_t(cute::size<0>(SmemLayoutA{}) * cute::size<1>(SmemLayoutA{}) * sizeof(ElementA)) +
      uint32_t(cute::size<0>(SmemLayoutB{}) * cute::size<1>(SmemLayoutB{}) * sizeof(ElementB));

  struct TensorStorage {
    // 1024-byte alignment: the 128-byte swizzle pattern repeats every 8 rows of 128 bytes and both
    // TMA and the wgmma descriptors assume a stage starts on a pattern boundary.
    alignas(1024) cute::array_aligned<ElementA, cute::cosize_v<SmemLayoutA>, 1024> a;
    alignas(1024) cute::array_aligned<ElementB, cute::cosize_v<SmemLayoutB>, 1024> b;
  };

  template <class Stride, class Element>
  using GmemTensor = decltype(cute::make_tensor(cute::make_gmem_ptr(static_cast<Element const*>(nullptr)),
                                                cute::make_layout(cute::make_shape(0, 0, 0), Stride{})));

  using TmaA = decltype(cute::make_tma_copy_A_sm90(CopyOpA{}, GmemTensor<StrideA, ElementA>{},
                                                   SmemLayoutA{}(cute::_, cute::_, 0), TileShape{}, ClusterShape{}));
  using TmaB = decltype(cute::make_tma_copy_B_sm90(CopyOpB{}, GmemTensor<StrideB, ElementB>{},
                                                   SmemLayoutB{}(cute::_, cute::_, 0), TileShape{}, ClusterShape{}));

  struct Params {
    TmaA tma_a;
    TmaB tma_b;
    ProblemShape shape;
    bool broadcast_a, broadcast_b;  // one matrix for every batch: its descriptor has one batch
  };

  // Host side: the TMA descriptors. TMA needs 16-byte aligned base pointers and leading
  // dimensions (the caller checks with `tma_aligned`). A batch stride of 0 broadcasts the operand.
  static Params make_params(ProblemShape shape, ElementA const* a, StrideA stride_a, ElementB const* b,
                            StrideB stride_b) {
    return {cute::make_tma_copy_A_sm90(CopyOpA{}, operand_tensor(a, shape.m, shape.k, shape.l, stride_a),
                                       SmemLayoutA{}(cute::_, cute::_, 0), TileShape{}, ClusterShape{}),
            cute::make_tma_copy_B_sm90(CopyOpB{}, operand_tensor(b, shape.n, shape.k, shape.l, stride_b),
                                       SmemLayoutB{}(cute::_, cute::_, 0), TileShape{}, ClusterShape{}),
            shape, cute::get<2>(stride_a) == 0, cute::get<2>(stride_b) == 0};
  }

  // An operand in global memory as (rows, K, L); a batch stride of 0 makes it one matrix.
  template <class Element, class Stride>
  static auto operand_tensor(Element const* ptr, int rows, int k, int batches, Stride stride) {
    bool broadcast = cute::get<2>(stride) == 0;
    return cute::make_tensor(cute::make_gmem_ptr(ptr),
                             cute::make_layout(cute::make_shape(rows, k, broadcast ? 1 : batches),
                                               with_single_batch_stride(stride, rows, k)));
  }

  // A zero batch stride means "one batch"; the descriptor then gets a harmless non-zero stride
  // (one whole matrix) rather than a 0 that TMA's stride rules do not cover.
  template <class Stride>
  static Stride with_single_batch_stride(Stride stride, int rows, int k) {
    if (cute::get<2>(stride) != 0) return stride;
    if constexpr (cute::is_same_v<Stride, OperandStride<cute::GMMA::Major::K>>) {
      cute::get<2>(stride) = cute::get<0>(stride) * rows;  // (rows, K) with rows ld apart
    } else {
      cute::get<2>(stride) = cute::get<1>(stride) * k;  // (rows, K) with K columns ld apart
    }
    return stride;
  }

  CUTE_HOST_DEVICE static int k_tile_count(ProblemShape const& shape) {
    return (shape.k + Config::TileK - 1) / Config::TileK;
  }

  template <class P>  // Params, or a derived mainloop's with the same two copies
  CUTE_DEVICE static void prefetch_descriptors(P const& params) {
    cute::prefetch_tma_descriptor(params.tma_a.get_tma_descriptor());
    cute::prefetch_tma_descriptor(params.tma_b.get_tma_descriptor());
  }

  // The producer's TMA views of output tile (m_tile, n_tile, batch): k-tiles of A beside A's stages
  // (from a_stages), and of B, as wide as its descriptor (b_k columns), beside sB (B's stages as the
  // caller lays them out); this CTA's slices of a cluster's multicasts.
  template <class P, class SmemB>  // Params, or a derived mainloop's with the same two copies
  CUTE_DEVICE static auto tma_views(P const& params, int m_tile, int n_tile, int batch, int b_k, ElementA* a_stages,
                                    SmemB const& sB) {
    using namespace cute;
    auto const& s = params.shape;
    Tensor mA = params.tma_a.get_tma_tensor(make_shape(s.m, s.k, params.broadcast_a ? 1 : s.l));  // (M,K,L)
    Tensor mB = params.tma_b.get_tma_tensor(make_shape(s.n, b_k, params.broadcast_b ? 1 : s.l));  // (N,b_k,L)
    Tensor gA = local_tile(mA, TileShape{}, make_coord(m_tile, _, _), Step<_1, X, _1>{})(
        _, _, _, params.broadcast_a ? 0 : batch);  // (BM,BK,k)
    Tensor gB = local_tile(mB, TileShape{}, make_coord(_, n_tile, _), Step<X, _1, _1>{})(
        _, _, _, params.broadcast_b ? 0 : batch);                     // (BN,BK,k)
    Tensor sA = make_tensor(make_smem_ptr(a_stages), SmemLayoutA{});  // (BM,BK,PIPE)
    // Position in the cluster: blockIdx.x and .y inside a (ClusterM, ClusterN) cluster.
    dim3 in_cluster = cute::block_id_in_cluster();
    auto tma_a = params.tma_a.get_slice(in_cluster.y);  // this CTA loads its 1/ClusterN share of A
    auto tma_b = params.tma_b.get_slice(in_cluster.x);
    return make_tuple(tma_a.partition_S(gA), tma_a.partition_D(sA), tma_b.partition_S(gB), tma_b.partition_D(sB));
  }

  // Producer: issue the TMA loads of k-tiles [k_begin, k_begin + k_count) of output tile
  // (m_tile, n_tile, batch) into the stages `write` walks through. Called by one thread, which
  // must be the pipeline's leader (it posts the transaction byte count on each full barrier).
  CUTE_DEVICE static void load(Params const& params, Pipeline& pipeline, PipelineState& write, int m_tile, int n_tile,
                               int batch, int k_begin, int k_count, TensorStorage& smem) {
    using namespace cute;
    Tensor sB = make_tensor(make_smem_ptr(smem.b.data()), SmemLayoutB{});  // (BN,BK,PIPE)
    auto [tAgA, tAsA, tBgB, tBsB] = tma_views(params, m_tile, n_tile, batch, params.shape.k, smem.a.data(), sB);

    // CTA rank in the cluster is x + y * ClusterM.
    dim3 in_cluster = cute::block_id_in_cluster();
    uint16_t mask_a = 0, mask_b = 0;
    for (int n = 0; n < Config::ClusterN; ++n)
      mask_a |= uint16_t(1u << (in_cluster.x + n * Config::ClusterM));
    for (int m = 0; m < Config::ClusterM; ++m)
      mask_b |= uint16_t(1u << (m + in_cluster.y * Config::ClusterM));

    for (int k = k_begin; k < k_begin + k_count; ++k) {
      pipeline.producer_acquire(write);
      auto* full = pipeline.producer_get_barrier(write);
      int stage = write.index();
      copy(params.tma_a.with(*full, mask_a), tAgA(_, _, _, k), tAsA(_, _, _, stage));
      copy(params.tma_b.with(*full, mask_b), tBgB(_, _, _, k), tBsB(_, _, _, stage));
      ++write;
    }
  }

  // A consumer thread's wgmma descriptors over every stage of A, (MMA,MMA_M,MMA_K,PIPE), and of B,
  // (MMA,MMA_N,MMA_K,PIPE).
  CUTE_DEVICE static auto stage_fragments_a(TiledMma const& tiled_mma, int consumer_thread, TensorStorage& smem) {
    auto thread_mma = tiled_mma.get_thread_slice(consumer_thread);
    return thread_mma.make_fragment_A(
        thread_mma.partition_A(cute::make_tensor(cute::make_smem_ptr(smem.a.data()), SmemLayoutA{})));
  }
  CUTE_DEVICE static auto stage_fragments_b(TiledMma const& tiled_mma, int consumer_thread, TensorStorage& smem) {
    auto thread_mma = tiled_mma.get_thread_slice(consumer_thread);
    return thread_mma.make_fragment_B(
        thread_mma.partition_B(cute::make_tensor(cute::make_smem_ptr(smem.b.data()), SmemLayoutB{})));
  }

  // Consumers: accumulate k_count k-tiles from the stages `read` walks through into `accum`
  // (zeroed by the first wgmma). One wgmma batch stays in flight: a stage is released as soon as
  // the batch that read it has retired. `after_release(i)` runs after k-tile i-1's stage was
  // released (a kernel without a producer warp refills it there); it is a no-op otherwise.
  // GenericWrites: the stages were (also) written by the generic proxy (cp.async or stores), which
  // a proxy fence orders before wgmma's reads.
  template <bool GenericWrites = false, class Accumulator, class AfterRelease>
  CUTE_DEVICE static void mma(Pipeline& pipeline, PipelineState& read, Accumulator& accum, int k_count,
                              int consumer_thread, TensorStorage& smem, AfterRelease&& after_release) {
    using namespace cute;
    TiledMma tiled_mma;
    Tensor tCrA = stage_fragments_a(tiled_mma, consumer_thread, smem);
    Tensor tCrB = stage_fragments_b(tiled_mma, consumer_thread, smem);
    CUTE_STATIC_ASSERT_V(size<1>(tCrA) == size<1>(accum));
    CUTE_STATIC_ASSERT_V(size<1>(tCrB) == size<2>(accum));
    run_stages<GenericWrites>(pipeline, read, accum, k_count, tiled_mma, after_release, [&](int stage) {
      CUTE_UNROLL
      for (int kb = 0; kb < size<2>(tCrA); ++kb) {
        cute::gemm(tiled_mma, tCrA(_, _, kb, stage), tCrB(_, _, kb, stage), accum);
        tiled_mma.accumulate_ = GMMA::ScaleOut::One;
      }
    });
  }

  // mma's loop over the stages, `issue(stage)` the wgmmas of one (a mainloop whose stage holds more
  // than one k-tile's operands issues them all: mainloop_conv_row_taps.cuh).
  template <bool GenericWrites, class Accumulator, class AfterRelease, class Issue>
  CUTE_DEVICE static void run_stages(Pipeline& pipeline, PipelineState& read, Accumulator& accum, int k_count,
                                     TiledMma& tiled_mma, AfterRelease&& after_release, Issue&& issue) {
    using namespace cute;
    if (k_count == 0) {  // K == 0: the product is all zeros
      clear(accum);
      return;
    }
    PipelineState release = read;
    tiled_mma.accumulate_ = GMMA::ScaleOut::Zero;
    warpgroup_fence_operand(accum);
    for (int i = 0; i < k_count; ++i) {
      pipeline.consumer_wait(read);
      if constexpr (GenericWrites) cutlass::arch::fence_view_async_shared();
      warpgroup_arrive();
      issue(read.index());
      warpgroup_commit_batch();
      warpgroup_wait<1>();  // the batch of k-tile i-1 has retired: its stage can be refilled
      warpgroup_fence_operand(accum);
      if (i > 0) {
        pipeline.consumer_release(release);
        ++release;
        after_release(i);
      }
      ++read;
    }
    warpgroup_wait<0>();
    warpgroup_fence_operand(accum);
    pipeline.consumer_release(release);
  }
};

}  // namespace cutegen::gemm
