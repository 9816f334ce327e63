// The implicit GEMM's mainloop over the channels-first input as it is: no channels-last copy of it.
//
// tf32 wgmma reads A from shared memory K-major only, and an NCHW input is pixel-major (a channel's
// row of pixels is contiguous). So A takes the wgmma RS form instead, as the GEMM's register split
// does (kernels/gemm/mainloop_register_split.cuh): the consumers load their A fragment from the
// pixel-major stage into registers, which transposes it on the way; B stays the weight's
// channels-last copy in shared memory, K-major, loaded as MainloopConvTma loads it.
//   producer (one thread): per k-tile (one tap and TileK channels, or with TapsPerK 2 two taps and
//     TileK / 2 channels: a group of at most 16) and per tap one TMA box of the input (40 columns,
//     1, 1, the tap's channels, 1) over its dims (W, H, D, C, N) per 32-column run of each of the M
//     tile's rows, shifted by the tap and the padding, the W stride TMA's traversal stride;
//     TMA's zero fill is the padding (and the channels past C). A box lands as [c][40 columns],
//     unswizzled (nchw_boxes.cuh: why 40);
//   consumers: per k-tile, the thread's A elements from that layout (SmemLayoutA spells it, so
//     CuTe's RS partition of it finds them) into registers, then its k-blocks' wgmmas as one batch.
//     The registers alternate between two sets (even and odd k-tiles): the odd set is loaded while
//     the even one's batch runs. Every second k-tile all batches retire: ptxas serializes the
//     wgmmas wherever registers a wgmma reads are rewritten while a batch issued in an earlier
//     iteration of the loop may be in flight, however many batches back the wait proves it.
// Limits: a W stride of at most 6 (a box's 40 x stride columns within TMA's 256) and the input's W
// a multiple of 4 (TMA's 16-byte strides); make_params says false past them.
#pragma once

#include <cute/tensor.hpp>

#include "gemm/k_tile_spans.cuh"
#include "gemm/tiled_mma.cuh"
#include "mainloop_conv_tma.cuh"
#include "nchw_boxes.cuh"

namespace cutegen::conv {

template <class Config, int TileP, int TileQ, int TapsPerK = 1>
struct MainloopConvNchw : MainloopConvTma<Config, TileP, TileQ> {
  using Base = MainloopConvTma<Config, TileP, TileQ>;
  using typename Base::ElementA;
  using typename Base::ElementB;
  using typename Base::KTileWalk;
  using typename Base::Params;
  using typename Base::Pipeline;
  using typename Base::PipelineState;
  using typename Base::Tiling;
  using Tf32 = cute::tfloat32_t;
  static constexpr int TileK = Config::TileK;
  using Boxes = NchwBoxes<TileP, TileQ, TileK, Config::Stages, TapsPerK>;
  using SmemLayoutA = typename Boxes::Layout;  // (BM,BK,PIPE)
  static_assert(cute::is_same_v<ElementA, Tf32>, "the channels-first input runs TF32");
  using TiledMma = gemm::RsTf32TiledMma<Config>;
  // One thread issues a k-tile's boxes (up to eight): 40 registers spilled one.
  static constexpr uint32_t ProducerRegisters = 48;

  struct TensorStorage {
    alignas(1024) cute::array_aligned<ElementA, cute::cosize_v<SmemLayoutA>, 1024> a;
    alignas(1024) cute::array_aligned<ElementB, cute::cosize_v<typename Base::SmemLayoutB>, 1024> b;
  };
  // Every CTA's full barrier receives its boxes whole (their 8 extra columns too) and the whole B tile.
  static constexpr uint32_t TransactionBytes =
      uint32_t(Boxes::StageElements * sizeof(ElementA) + Config::TileN * TileK * sizeof(ElementB));

  // The weight's channels-last copy (K, weight_taps, weight_channels) the kernel reads; with two taps
  // a k-tile, each tap's TileK / 2 channels (zero-padded) and the taps padded to pairs, so that a
  // pair of taps is one TileK-wide row of B.
  CUTE_HOST_DEVICE static int weight_channels(ConvShape const& s) {
    return TapsPerK == 1 ? s.c_group_padded() : Boxes::Channels;
  }
  CUTE_HOST_DEVICE static int weight_taps(ConvShape const& s) {
    return (s.taps() + TapsPerK - 1) / TapsPerK * TapsPerK;
  }
  CUTE_HOST_DEVICE static int k_tile_count(ConvShape const& s) {
    return TapsPerK == 1 ? Base::k_tile_count(s) : weight_taps(s) / TapsPerK;
  }

  // Host side. x is the input (N, C, D, H, W) itself, w the weight's channels-last copy; false where
  // TMA cannot take the input (a W stride past 1, W not a multiple of 4) or the driver refuses a box,
  // or a tap's share of the k-tile would not hold a group's channels.
  static bool make_params(ConvShape const& s, ElementA const* x, ElementB const* w, Params& out) {
    if (s.stride_w != 1 || (TapsPerK > 1 && s.c_group() > Boxes::Channels)) return false;
    out.shape = s;
    out.x = x;
    uint64_t const e = sizeof(ElementA);
    uint64_t dims[5] = {uint64_t(s.w), uint64_t(s.h), uint64_t(s.d), uint64_t(s.c), uint64_t(s.n)};
    uint64_t strides[4] = {dims[0] * e, dims[0] * dims[1] * e, dims[0] * dims[1] * dims[2] * e,
                           dims[0] * dims[1] * dims[2] * dims[3] * e};
    uint32_t box[5] = {uint32_t(Boxes::Pitch), 1, 1, Boxes::Channels, 1};
    uint32_t step[5] = {1, 1, 1, 1, 1};
    return Base::encode(&out.a, x, 5, dims, strides, box, step, CU_TENSOR_MAP_SWIZZLE_NONE) &&
           Base::make_b(w, TapsPerK * weight_channels(s), weight_taps(s) / TapsPerK, s.k, out);
  }

  // Producer (one thread): k-tiles [k_begin, k_begin + k_count) of M tile `m_tile`, N tile `n_tile`
  // of group `group`.
  CUTE_DEVICE static void load(Params const& params, Pipeline& pipeline, PipelineState& write, int m_tile, int n_tile,
                               int group, int k_begin, int k_count, TensorStorage& smem) {
    ConvShape const& s = params.shape;
    PixelTile tile = Tiling::tile(s, m_tile);
    int const w0 = tile.q0 - s.pad_w, h0 = tile.p0 * s.stride_h - s.pad_h;
    int const d0 = tile.z * s.stride_d - s.pad_d;
    int const c_group0 = group * s.c_group(), k_out = group * s.k_group() + n_tile * Config::TileN;
    KTileWalk at(s, k_begin * TapsPerK);  // with two taps a k-tile, a group's channels are one chunk
#pragma unroll 1
    for (int i = 0; i < k_count; ++i) {
      pipeline.producer_acquire(write);
      uint64_t* full = reinterpret_cast<uint64_t*>(pipeline.producer_get_barrier(write));
      int const stage = write.index(), c0 = at.chunk * TileK, b_row = at.tap / TapsPerK;
      ElementA* a = smem.a.data() + stage * Boxes::StageElements;
#pragma unroll 1  // unrolled too, the pairs' eight boxes a k-tile spilled a register of the producer's 48
      for (int t = 0; t < TapsPerK; ++t) {
        int const col = w0 + at.ks * s.dil_w, start = col - Boxes::column_shift(col);
        CUTE_UNROLL
        for (int box = 0; box < Boxes::Boxes; ++box) {
          int const run = box % Boxes::Runs, row = box / Boxes::Runs;
          cute::SM90_TMA_LOAD_5D::copy(
              &params.a, full, Base::kCacheHint, a + t * Boxes::TapElements + box * Boxes::BoxElements,
              start + run * 32, h0 + row * s.stride_h + at.kr * s.dil_h, d0 + at.kt * s.dil_d, c_group0 + c0, tile.n);
        }
        // The last of an odd count of taps in pairs fills the pair's second slot too (its weights are zeros).
        if (TapsPerK == 1 || at.tap + 1 < s.taps()) at.advance(s);
      }
      Base::load_b(params, full, Base::b_stage(smem, stage), c0, b_row, k_out);
      ++write;
    }
  }

  // Every k-tile of the tile: the consumers count its taps from the first (see mma).
  CUTE_DEVICE static gemm::KSpan k_span(Params const&, int, int begin, int count) { return {begin, count}; }

  // The consumers read each tap's columns from its boxes' aligned start on (load's), so they need the
  // shape: MmaReadsParams.
  static constexpr bool MmaReadsParams = true;

  // Same contract as gemm::MainloopTmaWgmma::mma over the k-tiles of a whole tile (the scheduler is
  // given no splits), with the params first; `accum` is written (not accumulated into).
  template <class Accumulator, class AfterRelease>
  CUTE_DEVICE static void mma(Params const& params, Pipeline& pipeline, PipelineState& read, Accumulator& accum,
                              int k_count, int consumer_thread, TensorStorage& smem, AfterRelease&& after_release) {
    using namespace cute;
    ConvShape const& s = params.shape;
    Tensor sA = make_tensor(make_smem_ptr(reinterpret_cast<Tf32*>(smem.a.data())), SmemLayoutA{});  // (BM,BK,PIPE)
    Tensor sB = make_tensor(make_smem_ptr(reinterpret_cast<Tf32*>(smem.b.data())),
                            typename Base::SmemLayoutB{});  // (BN,BK,PIPE)
    TiledMma tiled_mma;
    auto thread_mma = tiled_mma.get_thread_slice(consumer_thread);
    Tensor tCsA = thread_mma.partition_A(sA);  // (MMA,MMA_M,MMA_K,PIPE) in smem
    // Two register sets, for even and odd k-tiles: one is loaded while the other's batch is in flight.
    Tensor even = thread_mma.partition_fragment_A(sA(_, _, 0));  // (MMA,MMA_M,MMA_K) registers
    Tensor odd = make_fragment_like(even);
    Tensor tCrB = thread_mma.make_fragment_B(thread_mma.partition_B(sB));  // (MMA,MMA_N,MMA_K,PIPE)
    CUTE_STATIC_ASSERT_V(size<1>(even) == size<1>(accum) && size<1>(tCrB) == size<2>(accum));

    if (k_count == 0) {
      clear(accum);
      return;
    }
    gemm::StageReleaser<Pipeline, PipelineState, AfterRelease> release{pipeline, read, after_release};
    tiled_mma.accumulate_ = GMMA::ScaleOut::Zero;
    warpgroup_fence_operand(accum);
    // k-tile i: its A elements into `a`, its k-blocks' wgmmas as one batch; once k-tile i-1's batch
    // retired, its stage goes back (and `a` of k-tile i+1 may be rewritten).
    auto step = [&](auto& a, int i) {
      // Bytes from each tap slot's boxes' aligned start to its first column (load's walk: the taps
      // in order, the last of an odd count in pairs twice); a pixel tile starts at a multiple of 32.
      uint32_t shift[TapsPerK];
      CUTE_UNROLL
      for (int t = 0; t < TapsPerK; ++t) {
        int const tap = cute::min(TapsPerK == 1 ? i / Base::channel_tiles(s) : TapsPerK * i + t, s.taps() - 1);
        shift[t] = sizeof(Tf32) * Boxes::column_shift(tap % s.s * s.dil_w - s.pad_w);
      }
      pipeline.consumer_wait(read);
      int const stage = read.index();
      ++read;
      constexpr int PerKBlock = decltype(size<0>(a) * size<1>(a))::value;  // elements of `a` per k-block
      constexpr int KBlocksPerTap = decltype(size<2>(a))::value / TapsPerK;
      CUTE_UNROLL
      for (int j = 0; j < size(a); ++j) {  // ld.shared: a generic load would not know the state space
        uint32_t bits;
        uint32_t const address = cast_smem_ptr_to_uint(&tCsA(_, _, _, stage)(j)) + shift[j / PerKBlock / KBlocksPerTap];
        asm volatile("ld.shared.b32 %0, [%1];" : "=r"(bits) : "r"(address));
        a(j) = Tf32::bitcast(bits);
      }
      warpgroup_fence_operand(a);
      warpgroup_arrive();
      CUTE_UNROLL
      for (int kb = 0; kb < size<2>(a); ++kb) {
        cute::gemm(tiled_mma, a(_, _, kb), tCrB(_, _, kb, stage), accum);
        tiled_mma.accumulate_ = GMMA::ScaleOut::One;
      }
      warpgroup_commit_batch();
      warpgroup_wait<1>();
      warpgroup_fence_operand(accum);
      if (i > 0) release.through(i - 1);
    };
#pragma unroll 1
    for (int i = 0; i < k_count; i += 2) {
      step(even, i);
      if (i + 1 < k_count) step(odd, i + 1);
      warpgroup_wait<0>();  // nothing in flight across the loop's back edge (see above)
    }
    warpgroup_fence_operand(accum);
    release.through(k_count - 1);
  }
};

}  // namespace cutegen::conv
