// The GEMM's mainloop (kernels/gemm/mainloop_tma_wgmma.cuh) with the implicit GEMM's A: the
// consumers' wgmma loop, shared layouts and pipeline are the GEMM's, inherited; only the
// producer's loads differ. A k-tile is one kernel tap and TileK input channels:
//   A: a TMA box (TileK channels, TileQ columns, TileP rows, 1, 1) of the channels-last input
//      (C_pad, W, H, D, N), its start shifted by the tap and the padding, its traversal stride the
//      convolution's stride. TMA fills what falls outside the image (the padding) with zeros, so
//      the box lands in shared memory as the (TileM = TileP * TileQ, TileK) K-major tile, rows in
//      (p, q) order, 128-byte swizzled exactly as the GEMM's TMA writes it. Over a padded copy
//      (ConvShape::pitch, FlatRows) the box is 128 consecutive pixels of a depth slice's one row,
//      a row of taps a pitch further along it.
//   B: a box (TileK channels, 1 tap, TileN output channels) of the channels-last weight
//      (C/G_pad, taps, K). Channels past the group's end are zeros there (padding or outside
//      the tensor), which cancels whatever A holds for them.
// Split3xTf32 with tf32 elements (pre-split): both copies hold a hi and a lo part (the lo part as
// images N..2N-1 of the input and output channels K..2K-1 of the weight), and each (tap, channel
// tile) is three k-tiles, the products hi*lo, lo*hi, hi*hi (small ones first), which
// MainloopPromoting's consumers sum on the tensor cores one triple at a time and then add in fp32;
// or, with Config::PairedParts, two stages (hi*lo, lo*hi) whose pair MainloopPairedParts' consumers
// cross for hi*hi, so A and B are each loaded twice per tap instead of three times.
// With fp32 elements (Config::Fp32Via3xTf32, split in the kernel): the copies hold the values as
// they are, each (tap, channel tile) is one k-tile, and Mainloop3xTf32's consumers split it in
// shared memory and run the three products from it: A is read once per tap instead of three
// times, and the copies are half the size.
// Clusters of ClusterM CTAs along M (neighbouring pixel tiles, the same output channels): each CTA
// loads a 1/ClusterM share of B's rows and multicasts it to the cluster, so the weights cross L2
// once per cluster; A, the pixels, stays each CTA's own.
// Hopper's TMA im2col mode would gather the same rows, but a tiled box with a traversal stride
// covers stride, padding and dilation with one descriptor per operand and no per-tile offsets.
// NchwA (TF32 only): no copy of the input. The producer warpgroup's 128 threads gather A from the
// channels-first input themselves, one 4-byte cp.async per element into the swizzled K-major
// stage (zero-filled outside the image and past the group's channels): a warp takes 8 channels,
// its lanes neighbouring pixels, so each copy instruction reads 32 neighbouring floats of one
// channel. Each thread's cp.async arrive holds the stage's full barrier open until its copies
// land; after all 128 registered theirs, one thread loads B by TMA (the barrier's transaction
// bytes are B's alone). The consumers fence the generic-proxy writes before wgmma reads them.
#pragma once

#include <cute/arch/copy_sm80.hpp>
#include <cute/arch/copy_sm90_desc.hpp>
#include <cute/arch/copy_sm90_tma.hpp>
#include <cutlass/cuda_host_adapter.hpp>

#include "conv_shape.cuh"
#include "gemm/mainloop_3xtf32.cuh"
#include "gemm/mainloop_paired_parts.cuh"
#include "gemm/mainloop_promoting.cuh"
#include "gemm/mainloop_tma_wgmma.cuh"
#include "gemm/tile_scheduler.cuh"

namespace cutegen::conv {

template <class Config, bool Split3xTf32>
using ConvConsumers =
    cute::conditional_t<Config::Fp32Via3xTf32, gemm::Mainloop3xTf32<Config>,
                        cute::conditional_t<Config::PairedParts, gemm::MainloopPairedParts<Config>,
                                            cute::conditional_t<Split3xTf32, gemm::MainloopPromoting<Config>,
                                                                gemm::MainloopTmaWgmma<Config>>>>;

template <class Config, int TileP, int TileQ, bool Split3xTf32 = false, bool NchwA = false>
struct MainloopConvTma : ConvConsumers<Config, Split3xTf32> {
  using Base = ConvConsumers<Config, Split3xTf32>;
  using typename Base::ElementA;
  using typename Base::ElementB;
  using typename Base::Pipeline;
  using typename Base::PipelineState;
  using typename Base::TensorStorage;
  using Tiling = PixelTiling<TileP, TileQ>;
  static constexpr int TileK = Config::TileK;
  static_assert(Split3xTf32 || !Config::Fp32Via3xTf32, "fp32 elements are split in the kernel");
  static constexpr bool PreSplit = Split3xTf32 && !Config::Fp32Via3xTf32;
  static constexpr int Parts = PreSplit ? 2 : 1;  // of each operand
  // Stages per (tap, channel tile): hi*lo, lo*hi, hi*hi; or, with Config::PairedParts, the first two,
  // whose pair the consumers cross for hi*hi (a third fewer loads of A and B). Consumers' k-tiles
  // are (tap, channel tile) pairs then (Base::StagesPerKTile 2).
  static constexpr int Terms = PreSplit ? (Config::PairedParts ? 2 : 3) : 1;
  static_assert(!Config::PairedParts || PreSplit, "paired parts read the copies' split");
  static constexpr uint64_t kCacheHint = uint64_t(cute::TMA::CacheHintSm90::EVICT_NORMAL);
  static_assert(!NchwA || !Split3xTf32, "the channels-first gather is for TF32 convolutions");
  static constexpr int ProducerThreads = NchwA ? cutlass::NumThreadsPerWarpGroup : 1;
  // The gathering warpgroup's addresses: 64 registers spilled 8 bytes; the TMA producer's tap walk
  // and the tile's k-span at 40 spilled 8-28 bytes (the pre-split parts' term and offsets, 8 x 16
  // and 16 x 8 pixel tiles). The consumers' N tiles of at most 128 columns need far less than the
  // (3 x 168 - 48) / 2 = 228 left them.
  static constexpr uint32_t ProducerRegisters = NchwA ? 72 : 48;
  static constexpr uint32_t TransactionBytes =
      NchwA ? uint32_t(Config::TileN * TileK * sizeof(ElementB)) : Base::TransactionBytes;
  static constexpr int GatherBarrier = 4;  // named barrier id: 0-1 ping-pong, 2-3 TMA-store staging

  static_assert(TileP * TileQ == Config::TileM, "an M tile is TileP x TileQ output pixels");
  static_assert(Config::MajorA == cute::GMMA::Major::K && Config::MajorB == cute::GMMA::Major::K,
                "both operands are channels-last: K-major");
  static_assert(Config::ClusterN == 1, "B is multicast along M; each CTA's A is its own");
  static constexpr int ShareN = Config::TileN / Config::ClusterM;  // B rows a CTA loads for the cluster
  static_assert(ShareN % 8 == 0, "a share of B is whole 8-row swizzle atoms (1024-byte aligned)");
  static_assert(cute::cosize_v<typename Base::SmemLayoutA> == Config::TileM * TileK * Config::Stages &&
                    cute::cosize_v<typename Base::SmemLayoutB> == Config::TileN * TileK * Config::Stages,
                "each stage is one contiguous block");

  struct Params {
    cute::TmaDescriptor a;  // (C_pad, W, H, D, N); unused with NchwA
    cute::TmaDescriptor b;  // (C/G_pad, taps, K)
    ConvShape shape;
    ElementA const* x;  // NchwA: the input as it is, (N, C, D, H, W)
  };

  CUTE_HOST_DEVICE static int channel_tiles(ConvShape const& s) { return (s.c_group() + TileK - 1) / TileK; }

  // Where a k-tile sits: (tap, channel tile), tap = (kt, kr, ks); stepped, not divided, to stay
  // within the producer's 40 registers.
  struct KTileWalk {
    int chunk, tap, ks, kr, kt;
    CUTE_DEVICE KTileWalk(ConvShape const& s, int k) {
      tap = k / channel_tiles(s), chunk = k - tap * channel_tiles(s);
      ks = tap % s.s, kr = (tap / s.s) % s.r, kt = tap / (s.s * s.r);
    }
    CUTE_DEVICE void advance(ConvShape const& s) {
      if (++chunk < channel_tiles(s)) return;
      chunk = 0;
      ++tap;
      if (++ks == s.s) {
        ks = 0;
        if (++kr == s.r) kr = 0, ++kt;
      }
    }
  };
  CUTE_HOST_DEVICE static int k_tiles_per_tap(ConvShape const& s) {
    return Terms / Base::StagesPerKTile * channel_tiles(s);
  }
  CUTE_HOST_DEVICE static int k_tile_count(ConvShape const& s) { return s.taps() * k_tiles_per_tap(s); }

  // The k-tiles of [begin, begin + count) that M tile `m_tile` runs: those of the outermost tap
  // dim's taps that reach the input (a transposed convolution's forward padding leaves a depth
  // slice near the ends a few of its taps; the others would load TMA's zero fill and multiply it).
  // At least one k-tile, so that the consumers' mainloop always has one to run (its zeros add nothing).
  CUTE_DEVICE static gemm::KSpan k_span(Params const& params, int m_tile, int begin, int count) {
    return span_of(params.shape, m_tile, begin, count, params.shape.s * k_tiles_per_tap(params.shape));
  }
  // The same over `per_row` k-tiles a kernel row of S taps (mainloop_conv_row_taps.cuh's: its channel tiles).
  CUTE_DEVICE static gemm::KSpan span_of(ConvShape const& s, int m_tile, int begin, int count, int per_row) {
    int rows_per_step;
    TapRun const run = Tiling::outer_taps(s, m_tile, rows_per_step);
    int const step = rows_per_step * per_row;
    int const first = cute::max(begin, run.lo * step), end = cute::min(begin + count, run.hi * step);
    return first < end ? gemm::KSpan{first, end - first} : gemm::KSpan{begin, 1};
  }

  // Host side. x and w are the channels-last copies (16-byte aligned; with NchwA x is the input
  // itself); false when the driver refuses a descriptor (a box past TMA's 256-element limit:
  // TileQ * stride_w or TileP * stride_h).
  static bool make_params(ConvShape const& s, ElementA const* x, ElementB const* w, Params& out) {
    uint32_t a_box[5] = {TileK, uint32_t(TileQ * s.stride_w), uint32_t(TileP * s.stride_h), 1, 1};
    uint32_t a_step[5] = {1, uint32_t(s.stride_w), uint32_t(s.stride_h), 1, 1};
    out.shape = s;
    out.x = x;
    return (NchwA || make_a(s, x, a_box, a_step, out)) && make_b(w, weight_channels(s), weight_taps(s), s.k, out);
  }

  // A's descriptor over the input's channels-last copy x, (C_pad, W, H, D, Parts x N), in boxes of
  // `box` elements stepping by `step`.
  static bool make_a(ConvShape const& s, ElementA const* x, uint32_t const* box, uint32_t const* step, Params& out) {
    uint64_t e = sizeof(ElementA);
    uint64_t dims[5] = {uint64_t(s.c_padded()), uint64_t(s.w), uint64_t(s.h), uint64_t(s.d), uint64_t(Parts * s.n)};
    uint64_t strides[4] = {dims[0] * e, dims[0] * dims[1] * e, dims[0] * dims[1] * dims[2] * e,
                           dims[0] * dims[1] * dims[2] * dims[3] * e};
    return encode(&out.a, x, 5, dims, strides, box, step, CU_TENSOR_MAP_SWIZZLE_128B);
  }

  // B's descriptor over the weight's channels-last copy w, (row, rows, k) with Parts x k rows of
  // `rows` k-tile rows of `row` elements ((C/G_pad, taps, K) here), one k-tile row a box.
  static bool make_b(ElementB const* w, int row, int rows, int k, Params& out) {
    uint64_t e = sizeof(ElementB);
    uint64_t dims[3] = {uint64_t(row), uint64_t(rows), uint64_t(Parts * k)};
    uint64_t strides[2] = {dims[0] * e, dims[0] * dims[1] * e};
    uint32_t box[3] = {TileK, 1, ShareN};
    uint32_t step[3] = {1, 1, 1};
    return encode(&out.b, w, 3, dims, strides, box, step, CU_TENSOR_MAP_SWIZZLE_128B);
  }
  CUTE_HOST_DEVICE static int weight_channels(ConvShape const& s) { return s.c_group_padded(); }
  CUTE_HOST_DEVICE static int weight_taps(ConvShape const& s) { return s.taps(); }

  CUTE_DEVICE static void prefetch_descriptors(Params const& params) {
    if constexpr (!NchwA) cute::prefetch_tma_descriptor(&params.a);
    cute::prefetch_tma_descriptor(&params.b);
  }

  // Consumers: the GEMM's, with the proxy fence the gathered stages need.
  template <class Accumulator, class AfterRelease>
  CUTE_DEVICE static void mma(Pipeline& pipeline, PipelineState& read, Accumulator& accum, int k_count,
                              int consumer_thread, TensorStorage& smem, AfterRelease&& after_release) {
    if constexpr (NchwA)
      Base::template mma<true>(pipeline, read, accum, k_count, consumer_thread, smem, after_release);
    else
      Base::mma(pipeline, read, accum, k_count, consumer_thread, smem, after_release);
  }

  // Producer (ProducerThreads threads): k-tiles [k_begin, k_begin + k_count) of M tile `m_tile`,
  // N tile `n_tile` of group `group`, as MainloopTmaWgmma::load does for a GEMM.
  CUTE_DEVICE static void load(Params const& params, Pipeline& pipeline, PipelineState& write, int m_tile, int n_tile,
                               int group, int k_begin, int k_count, TensorStorage& smem) {
    if constexpr (NchwA)
      gather(params, pipeline, write, m_tile, n_tile, group, k_begin, k_count, smem);
    else
      load_boxes(params, pipeline, write, m_tile, n_tile, group, k_begin, k_count, smem);
  }

 protected:
  CUTE_DEVICE static void load_boxes(Params const& params, Pipeline& pipeline, PipelineState& write, int m_tile,
                                     int n_tile, int group, int k_begin, int k_count, TensorStorage& smem) {
    ConvShape const& s = params.shape;
    PixelTile tile = Tiling::tile(s, m_tile);
    int w0 = tile.q0 * s.stride_w - s.pad_w, h0 = tile.p0 * s.stride_h - s.pad_h, d0 = tile.z * s.stride_d - s.pad_d;
    int c_group0 = group * s.c_group(), k_out = group * s.k_group() + n_tile * Config::TileN;
    int const first = k_begin * Base::StagesPerKTile;  // in stages: Terms per (tap, channel tile)
    KTileWalk at(s, first / Terms);
    int term = first % Terms;
#pragma unroll 1
    for (int i = 0; i < k_count * Base::StagesPerKTile; ++i) {
      pipeline.producer_acquire(write);
      uint64_t* full = reinterpret_cast<uint64_t*>(pipeline.producer_get_barrier(write));
      int stage = write.index(), c0 = at.chunk * TileK;
      int a_part = PreSplit && term == 1, b_part = PreSplit && term == 0;  // hi*lo, lo*hi, hi*hi
      cute::SM90_TMA_LOAD_5D::copy(&params.a, full, kCacheHint, smem.a.data() + stage * Config::TileM * TileK,
                                   c_group0 + c0, w0 + at.ks * s.dil_w + at.kr * s.tap_row_w(),
                                   h0 + at.kr * s.tap_row_h(), d0 + at.kt * s.dil_d, tile.n + a_part * s.n);
      load_b(params, full, b_stage(smem, stage), c0, at.tap, k_out + b_part * s.k);
      ++write;
      if (++term < Terms) continue;
      term = 0;
      at.advance(s);
    }
  }

  template <class Storage>
  CUTE_DEVICE static ElementB* b_stage(Storage& smem, int stage) {
    return smem.b.data() + stage * Config::TileN * TileK;
  }

  // B's k-tile (channels c0.., tap, output channels k_row..) into the stage at `dst`: this CTA's
  // share of its rows, multicast to every CTA of the cluster (whose full barriers expect the whole tile).
  CUTE_DEVICE static void load_b(Params const& params, uint64_t* full, ElementB* dst, int c0, int tap, int k_row) {
    if constexpr (Config::ClusterM > 1) {
      int const share = int(cute::block_id_in_cluster().x);
      cute::SM90_TMA_LOAD_MULTICAST_3D::copy(&params.b, full, uint16_t((1u << Config::ClusterM) - 1), kCacheHint,
                                             dst + share * ShareN * TileK, c0, tap, k_row + share * ShareN);
    } else {
      cute::SM90_TMA_LOAD_3D::copy(&params.b, full, kCacheHint, dst, c0, tap, k_row);
    }
  }

  // NchwA's producer, on all 128 threads: warp w gathers channels [8w, 8w + 8) of each k-tile,
  // lane l the tile's pixels l, l + 32, ... (row-major (p, q) within the TileP x TileQ tile).
  CUTE_DEVICE static void gather(Params const& params, Pipeline& pipeline, PipelineState& write, int m_tile, int n_tile,
                                 int group, int k_begin, int k_count, TensorStorage& smem) {
    using namespace cute;
    constexpr int Pixels = Config::TileM / 32, Channels = TileK / 4;  // per thread
    ConvShape const& s = params.shape;
    int const thread = int(threadIdx.x) % cutlass::NumThreadsPerWarpGroup, lane = thread % 32;
    int const c_warp = thread / 32 * Channels;
    PixelTile tile = Tiling::tile(s, m_tile);
    int const plane = s.d * s.h * s.w;  // < 2^31 (the expert's limit on the input)
    ElementA const* image = params.x + (int64_t(tile.n) * s.c + int64_t(group) * s.c_group()) * plane;
    int const d0 = tile.z * s.stride_d - s.pad_d, k_out = group * s.k_group() + n_tile * Config::TileN;
    Tensor sA = make_tensor(make_smem_ptr(smem.a.data()), typename Base::SmemLayoutA{});  // (BM,BK,PIPE)
    KTileWalk at(s, k_begin);
#pragma unroll 1
    for (int i = 0; i < k_count; ++i) {
      pipeline.producer_acquire(write);
      uint64_t* full = reinterpret_cast<uint64_t*>(pipeline.producer_get_barrier(write));
      int const stage = write.index(), d = d0 + at.kt * s.dil_d;
      int offset[Pixels];
      bool inside[Pixels];
      CUTE_UNROLL
      for (int j = 0; j < Pixels; ++j) {
        int const m = lane + 32 * j;
        int const h = (tile.p0 + m / TileQ) * s.stride_h - s.pad_h + at.kr * s.dil_h;
        int const w = (tile.q0 + m % TileQ) * s.stride_w - s.pad_w + at.ks * s.dil_w;
        inside[j] =
            tile.n < s.n && unsigned(d) < unsigned(s.d) && unsigned(h) < unsigned(s.h) && unsigned(w) < unsigned(s.w);
        offset[j] = inside[j] ? (d * s.h + h) * s.w + w : 0;
      }
      CUTE_UNROLL
      for (int cc = 0; cc < Channels; ++cc) {
        int const c = at.chunk * TileK + c_warp + cc;
        bool const real = c < s.c_group();
        ElementA const* channel = image + int64_t(real ? c : 0) * plane;
        CUTE_UNROLL
        for (int j = 0; j < Pixels; ++j)
          SM80_CP_ASYNC_CACHEALWAYS_ZFILL<ElementA>::copy(channel[offset[j]], sA(lane + 32 * j, c_warp + cc, stage),
                                                          real && inside[j]);
      }
      cutlass::arch::cpasync_barrier_arrive(full);  // registered before B's bytes can complete the phase
      cutlass::arch::NamedBarrier::sync(ProducerThreads, GatherBarrier);
      if (thread == 0) load_b(params, full, b_stage(smem, stage), at.chunk * TileK, at.tap, k_out);
      ++write;
      at.advance(s);
    }
    cute::cp_async_wait<0>();  // no copy of this thread's still in flight when it leaves
  }

  static bool encode(cute::TmaDescriptor* desc, void const* base, uint32_t rank, uint64_t const* dims,
                     uint64_t const* strides, uint32_t const* box, uint32_t const* steps, CUtensorMapSwizzle swizzle) {
    for (uint32_t i = 0; i < rank; ++i)
      if (box[i] > 256) return false;
    CUresult r = CUTLASS_CUDA_DRIVER_WRAPPER_CALL(cuTensorMapEncodeTiled)(
        desc, cute::TMA::to_CUtensorMapDataType<ElementA>(), rank, const_cast<void*>(base), dims, strides, box, steps,
        CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS;
  }
};

}  // namespace cutegen::conv
