// The implicit GEMM's mainloop with one A box per kernel row (TF32 over the input's channels-last
// copy, W stride 1, pixel tiles of one output row, or 128 consecutive pixels of a padded copy's rows,
// where a row of taps is a pitch further along them): MainloopConvTma loads a 128-row A box per tap,
// and a row's S taps read nearly the same pixels, each shifted one dilation further along W. Here a
// k-tile is (depth tap, row tap, channel tile) and its stage holds one box of BoxRows >= TileQ +
// (S - 1) x dil input columns and the S taps' B tiles; the consumers run tap s's wgmmas with A's
// descriptors started s x dil rows into the box. A crosses L2 once per row instead of S times
// (level 1's 65 and 69 ran 148-188 TFLOP/s with an on-chip memory unit at 61-71% of peak, their A
// the traffic: docs/decisions.md conv-row-taps).
// A start s rows into a 128-byte-swizzled tile is off the pattern's 1024-byte boundary: sm_90a's wgmma
// swizzles the absolute address, so the descriptor keeps base offset 0 (the PTX ISA's (start >> 7) & 7
// read every shifted row wrong: kernels/conv/tests/descriptor_shift_probe.cu on an H200, 2026-12-07).
#pragma once

#include "mainloop_conv_tma.cuh"

namespace cutegen::conv {

template <class Config, int TileQ, int RowTaps, int BoxRows>
struct MainloopConvRowTaps : MainloopConvTma<Config, 1, TileQ> {
  using Base = MainloopConvTma<Config, 1, TileQ>;
  using typename Base::ElementA;
  using typename Base::ElementB;
  using typename Base::Params;
  using typename Base::Pipeline;
  using typename Base::PipelineState;
  using typename Base::TiledMma;
  static constexpr int TileK = Config::TileK;
  static_assert(TileQ == Config::TileM,
                "a tile is one output row's TileQ pixels: tap s's rows are the box's from s on");
  static_assert(BoxRows % 8 == 0 && BoxRows >= TileQ + RowTaps - 1 && BoxRows <= 256,
                "a box of whole 8-row swizzle atoms within TMA's 256 elements");
  static_assert(cute::is_same_v<ElementA, cute::tfloat32_t> && !Config::PairedParts, "TF32, one product");
  static_assert(RowTaps >= 2, "one tap a row is MainloopConvTma's");
  static constexpr bool MmaReadsParams = true;  // the dilation along W

  using SmemLayoutA =
      typename gemm::OperandSmem<ElementA, cute::GMMA::Major::K, BoxRows, TileK, Config::Stages>::Layout;
  using TileLayoutA = typename gemm::OperandSmem<ElementA, cute::GMMA::Major::K, TileQ, TileK, 1>::Layout;
  using SmemLayoutB = typename gemm::OperandSmem<ElementB, cute::GMMA::Major::K, Config::TileN, TileK,
                                                 Config::Stages * RowTaps>::Layout;
  static constexpr uint32_t TransactionBytes = uint32_t((BoxRows + RowTaps * Config::TileN) * TileK * sizeof(ElementA));
  struct TensorStorage {  // 1024-byte aligned stages, as MainloopTmaWgmma's (BoxRows a multiple of 8)
    alignas(1024) cute::array_aligned<ElementA, cute::cosize_v<SmemLayoutA>, 1024> a;
    alignas(1024) cute::array_aligned<ElementB, cute::cosize_v<SmemLayoutB>, 1024> b;
  };

  CUTE_HOST_DEVICE static int k_tile_count(ConvShape const& s) { return s.t * s.r * Base::channel_tiles(s); }
  CUTE_DEVICE static gemm::KSpan k_span(Params const& params, int m_tile, int begin, int count) {
    return Base::span_of(params.shape, m_tile, begin, count, Base::channel_tiles(params.shape));
  }

  // Host side: false where the shape is not the instance's (S, W stride 1, the row's span in a box)
  // or the driver refuses a descriptor.
  static bool make_params(ConvShape const& s, ElementA const* x, ElementB const* w, Params& out) {
    if (s.s != RowTaps || s.stride_w != 1 || TileQ + (RowTaps - 1) * s.dil_w > BoxRows) return false;
    uint32_t box[5] = {TileK, BoxRows, 1, 1, 1}, step[5] = {1, 1, 1, 1, 1};
    out.shape = s;
    out.x = x;
    return Base::make_a(s, x, box, step, out) &&
           Base::make_b(w, Base::weight_channels(s), Base::weight_taps(s), s.k, out);
  }

  // Producer (one thread): k-tiles [k_begin, k_begin + k_count) of M tile `m_tile`, N tile `n_tile`
  // of group `group`; k-tile (row, channel tile), row = depth tap x R + row tap.
  CUTE_DEVICE static void load(Params const& params, Pipeline& pipeline, PipelineState& write, int m_tile, int n_tile,
                               int group, int k_begin, int k_count, TensorStorage& smem) {
    ConvShape const& s = params.shape;
    PixelTile const tile = Base::Tiling::tile(s, m_tile);
    int const w0 = tile.q0 - s.pad_w, h0 = tile.p0 * s.stride_h - s.pad_h, d0 = tile.z * s.stride_d - s.pad_d;
    int const c_group0 = group * s.c_group(), k_out = group * s.k_group() + n_tile * Config::TileN;
    int const chunks = Base::channel_tiles(s);
    int row = k_begin / chunks, chunk = k_begin - row * chunks, kr = row % s.r, kt = row / s.r;
#pragma unroll 1
    for (int i = 0; i < k_count; ++i) {
      pipeline.producer_acquire(write);
      uint64_t* full = reinterpret_cast<uint64_t*>(pipeline.producer_get_barrier(write));
      int const stage = write.index(), c0 = chunk * TileK;
      cute::SM90_TMA_LOAD_5D::copy(&params.a, full, Base::kCacheHint, smem.a.data() + stage * BoxRows * TileK,
                                   c_group0 + c0, w0 + kr * s.tap_row_w(), h0 + kr * s.tap_row_h(), d0 + kt * s.dil_d,
                                   tile.n);
#pragma unroll 1
      for (int ks = 0; ks < RowTaps; ++ks)
        Base::load_b(params, full, smem.b.data() + (stage * RowTaps + ks) * Config::TileN * TileK, c0,
                     row * RowTaps + ks, k_out);
      ++write;
      if (++chunk < chunks) continue;
      chunk = 0;
      ++row;
      if (++kr == s.r) kr = 0, ++kt;
    }
  }

  // Consumers: MainloopTmaWgmma's loop over the stages, each stage's k-blocks run once per row tap.
  template <class Accumulator, class AfterRelease>
  CUTE_DEVICE static void mma(Params const& params, Pipeline& pipeline, PipelineState& read, Accumulator& accum,
                              int k_count, int consumer_thread, TensorStorage& smem, AfterRelease&& after_release) {
    using namespace cute;
    TiledMma tiled_mma;
    auto thread_mma = tiled_mma.get_thread_slice(consumer_thread);
    Tensor tCrA = thread_mma.make_fragment_A(
        thread_mma.partition_A(make_tensor(make_smem_ptr(smem.a.data()), TileLayoutA{})));  // (MMA,MMA_M,MMA_K,1)
    Tensor tCrB = thread_mma.make_fragment_B(
        thread_mma.partition_B(make_tensor(make_smem_ptr(smem.b.data()), SmemLayoutB{})));  // (MMA,MMA_N,MMA_K,taps)
    int const dil = params.shape.dil_w;
    Base::template run_stages<false>(pipeline, read, accum, k_count, tiled_mma, after_release, [&](int stage) {
      CUTE_UNROLL
      for (int ks = 0; ks < RowTaps; ++ks) {
        Tensor a = shifted(tCrA, stage * BoxRows + ks * dil);
        CUTE_UNROLL
        for (int kb = 0; kb < size<2>(tCrA); ++kb) {
          cute::gemm(tiled_mma, a(_, _, kb, 0), tCrB(_, _, kb, stage * RowTaps + ks), accum);
          tiled_mma.accumulate_ = GMMA::ScaleOut::One;
        }
      }
    });
  }

 private:
  // A's descriptors moved `rows` 128-byte rows further (the start address, in 16-byte units).
  template <class Fragment>
  CUTE_DEVICE static auto shifted(Fragment const& a, int rows) {
    return cute::make_tensor(a.data() + rows * 8, a.layout());
  }
};

}  // namespace cutegen::conv
