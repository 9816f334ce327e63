// Forward convolution as an implicit GEMM on the Hopper GEMM's persistent warp-specialized kernel
// (kernels/gemm/kernel_warp_specialized.cuh): the channels-last copies of input and weight, then
// one launch whose producer loads conv tiles (mainloop_conv_tma.cuh), whose consumers run the
// GEMM's wgmma loop unchanged, and whose epilogue writes channels-first (epilogue_nchw_store.cuh).
// One group per GEMM batch. A transposed convolution is one such launch per output phase
// (transposed_phases.cuh), all reading one copy of the input.
// Split3xTf32: fp32 accuracy where TF32 falls short (cuDNN's fp32 kernels for few input channels):
// the three products of 3xTF32, summed in fp32 span by span. With a tf32 Config the copies write
// each operand's tf32 hi and lo parts and every k-tile becomes three; with an fp32 one the consumers
// split each k-tile in shared memory (mainloop_conv_tma.cuh).
//
// Why the layout change: the tasks' tensors are channels-first (NCHW), where a pixel's channels lie
// a plane apart; tf32 wgmma reads K-major operands only, and K is the channels, so no TMA box of
// an NCHW tensor lands as a K-major tile. The copy costs one read and write of the input (memory-
// bound; where the GEMM is short, as over few taps, it is a large part of the whole), so a TF32
// convolution may skip it (InputRead): the producer warpgroup gathers the K-major tiles from the
// input as it is, element by element (kGather), or TMA loads the input's pixel-major tiles and the
// consumers transpose them into registers for the wgmma RS form (kBoxes, mainloop_conv_nchw.cuh).
// The split and packed copies stay (they write more than the input). Over the copy (kCopy or kCopyFlat),
// RowTaps > 0 loads one box a kernel row for its RowTaps taps (mainloop_conv_row_taps.cuh).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "channels_last.cuh"
#include "conv_shape.cuh"
#include "epilogue_nchw_reduce.cuh"
#include "epilogue_nchw_store.cuh"
#include "epilogue_nchw_tma_store.cuh"
#include "fused_reduction.cuh"
#include "gemm/gemm_launch.cuh"
#include "gemm/kernel_warp_specialized.cuh"
#include "mainloop_conv_nchw.cuh"
#include "mainloop_conv_row_taps.cuh"
#include "mainloop_conv_tma.cuh"
#include "transposed_launch.cuh"

namespace cutegen::conv {

// How the implicit GEMM reads its input: a channels-last copy (TMA boxes of it), or the input as it
// is, gathered by the producer warpgroup's cp.async or loaded as pixel-major TMA boxes (TF32 only).
// kBoxPairs: pixel-major boxes with two taps a k-tile, for groups of at most 16 channels (forward,
// or transposed phase by phase). kCopyFlat: a copy that holds the padding (FlatRows), its pixels
// numbered along its rows, tiles of 1 x TileQ of them (H and W stride 1; a transposed convolution of
// stride 1, whose one phase is such a forward convolution). Over either copy, RowTaps > 0 loads one box
// of BoxRows columns a kernel row of RowTaps taps (TF32, W stride 1, one output row or 1 x TileQ
// flat pixels a tile).
enum class InputRead { kCopy, kGather, kBoxes, kBoxPairs, kCopyFlat };

template <class Config, int TileP, int TileQ, class Functor, bool Split3xTf32, int MergeW, InputRead Input,
          bool TmaStore, int RowTaps, int BoxRows>
struct ConvParams {
  using Mainloop = cute::conditional_t<
      Input == InputRead::kBoxes || Input == InputRead::kBoxPairs,
      MainloopConvNchw<Config, TileP, TileQ, Input == InputRead::kBoxPairs ? 2 : 1>,
      cute::conditional_t<(RowTaps > 0), MainloopConvRowTaps<Config, TileQ, RowTaps, BoxRows>,
                          MainloopConvTma<Config, TileP, TileQ, Split3xTf32, Input == InputRead::kGather>>>;
  static_assert(!TmaStore || (MergeW == 1 && !fuses_reduction<Functor>), "the TMA store writes whole output rows");
  static constexpr bool Flat = Input == InputRead::kCopyFlat;
  using Epilogue =
      cute::conditional_t<fuses_reduction<Functor>, EpilogueNchwReduce<Config, TileP, TileQ, Functor, MergeW, Flat>,
                          cute::conditional_t<TmaStore, EpilogueNchwTmaStore<Config, TileP, TileQ, Functor>,
                                              EpilogueNchwStore<Config, TileP, TileQ, Functor, MergeW, Flat>>>;
  using Scheduler = gemm::SwizzledTileScheduler<Config::ClusterM, 1>;

  typename Mainloop::Params mainloop;
  typename Epilogue::Params epilogue;
  typename Scheduler::Params scheduler;
  gemm::SplitKPartials<Config> partials;  // the kernel's split-K path; a convolution runs unsplit

  // The k-tiles `tile` runs (the kernel's producer and consumers both ask): its taps that reach the
  // input. A cluster's CTAs load B's k-tiles for each other, so each runs the span over all the
  // cluster's tiles (M tiles ClusterM-aligned; the taps it adds read zeros).
  CUTE_DEVICE gemm::KSpan k_span(gemm::TileCoord const& tile, int begin, int count) const {
    int const first_m = tile.m - tile.m % Config::ClusterM;
    gemm::KSpan span = Mainloop::k_span(mainloop, first_m, begin, count);
    for (int j = 1; j < Config::ClusterM; ++j) {
      gemm::KSpan const other = Mainloop::k_span(mainloop, first_m + j, begin, count);
      int const end = cute::max(span.begin + span.count, other.begin + other.count);
      span.begin = cute::min(span.begin, other.begin);
      span.count = end - span.begin;
    }
    return span;
  }
};

// MergeW > 1 (a transposed convolution of that W stride, MergedW::applies): its W phases run merged,
// one launch per (r_z, r_p). Input other than kCopy and kCopyFlat (TF32, no packing): the kernel reads
// the input as it is, no channels-last copy of it. TmaStore: the output staged in shared memory and stored by TMA
// (epilogue_nchw_tma_store.cuh; run says cudaErrorInvalidValue where its preconditions fail).
template <class Config, int TileP, int TileQ, class Functor, bool Split3xTf32 = false, int MergeW = 1,
          InputRead Input = InputRead::kCopy, bool TmaStore = false, int RowTaps = 0, int BoxRows = 0>
struct ConvForward {
  using Params = ConvParams<Config, TileP, TileQ, Functor, Split3xTf32, MergeW, Input, TmaStore, RowTaps, BoxRows>;
  using Mainloop = typename Params::Mainloop;
  // The kernel reads the input's channels-last copy.
  static constexpr bool Copied = Input == InputRead::kCopy || Input == InputRead::kCopyFlat;
  static constexpr bool Flat = Params::Flat;
  static_assert(!Flat || (TileP == 1 && MergeW == 1 && !TmaStore), "flat tiles: 1 x TileQ pixels of a padded row");
  static_assert(RowTaps == 0 || (Copied && !Split3xTf32 && MergeW == 1), "rows of taps: over a copy, TF32");
  static_assert(Input != InputRead::kBoxPairs || MergeW == 1, "merged W phases' weights hold one tap a row");
  static_assert(Copied || !Split3xTf32, "the input read as it is runs TF32");
  using Kernel = gemm::GemmWarpSpecialized<Config, Functor, Params>;
  using ElementA = typename Config::ElementA;  // tfloat32_t or float for fp32 tensors: the same bits

  static constexpr int Parts = Mainloop::Parts;  // hi (and lo) of each copy

  // The geometry the implicit GEMM runs (the packed one for pack_w; a transposed convolution's
  // phases run over its input, and their weights' taps add up to its).
  static ConvShape gemm_shape(ConvShape const& s) { return s.pack_w ? s.packed_w() : s; }
  // Flat: the stride-1 forward convolution whose padding the copy holds (a transposed one's only phase).
  static ConvShape flat_forward(ConvShape const& s) {
    return s.transposed ? TransposedPhase::of(s, 0, 0, 0).forward(s) : s;
  }
  static bool flat_applies(ConvShape const& s) {
    bool const unit = s.stride_h == 1 && s.stride_w == 1 && (!s.transposed || s.stride_d == 1);
    return unit && !s.pack_w;
  }
  // The channels-last copies, each part after the other: x then w (phase by phase), 128-byte aligned.
  static int64_t input_part(ConvShape const& s) {
    ConvShape const g = gemm_shape(s);
    if (Flat) {
      FlatRows const rows = FlatRows::of(flat_forward(s));
      return int64_t(g.n) * g.d * rows.hp * rows.wp * g.c_padded();
    }
    return int64_t(g.n) * g.d * g.h * g.w * g.c_padded();
  }
  static int64_t weight_part(ConvShape const& s) {
    ConvShape const g = gemm_shape(s);
    if (MergeW > 1 && s.transposed)  // each (r_z, r_p)'s taps once per W phase over the union
      return int64_t(g.k) * MergeW * g.t * g.r * MergedW::of(g).taps * g.c_group_padded();
    return int64_t(g.k) * Mainloop::weight_taps(g) * Mainloop::weight_channels(g);
  }
  static size_t input_bytes(ConvShape const& s) {
    return Copied ? (size_t(Parts * input_part(s)) * sizeof(ElementA) + 127) / 128 * 128 : 0;
  }
  static size_t workspace_bytes(ConvShape const& s) {
    return input_bytes(s) + size_t(Parts * weight_part(s)) * sizeof(ElementA);
  }

  // x: (N, C, D, H, W), w: (K, C/G, T, R, S) (transposed: (C, K/G, T, R, S)), out: (N, K, Z, P, Q),
  // or with a fused reduction (fused_reduction.cuh) (N, K), (N, Z, P, Q), (N, K, P / W, Q / W) or the
  // output with its statistics beside it;
  // workspace: workspace_bytes.
  template <class Element>
  static cudaError_t run(Element const* x, Element const* w, typename Config::ElementC* out, ConvShape const& s,
                         Functor functor, char* workspace, cudaStream_t stream) {
    static_assert(sizeof(Element) == sizeof(ElementA));
    if (!Copied && s.pack_w) return cudaErrorInvalidValue;  // the packing is a copy
    if (Flat && !flat_applies(s)) return cudaErrorInvalidValue;
    if constexpr (fuses_reduction<Functor>) {
      using Reduction = typename ReductionOf<Functor>::type;
      if constexpr (Reduction::Dims == ReduceDims::kChannels) {
        if (s.groups != 1 || s.k * MergeW > Config::TileN) return cudaErrorInvalidValue;  // one N tile holds them all
      } else if constexpr (Reduction::Dims == ReduceDims::kPool) {
        bool const in_place = !s.transposed || (s.stride_d == 1 && s.stride_h == 1 && s.stride_w == 1);
        // 2-D, each output pixel where the GEMM's is, windows within 2-D pixel tiles
        if (s.z != 1 || !in_place || Flat) return cudaErrorInvalidValue;
      } else if constexpr (Reduction::Dims == ReduceDims::kStats) {
        cudaError_t err = cudaMemsetAsync(functor.stats, 0, 2 * sizeof(double) * size_t(s.n) * s.k, stream);
        if (err != cudaSuccess) return err;
      } else {
        cudaError_t err = cudaMemsetAsync(out, 0, sizeof(*out) * size_t(s.n) * s.k, stream);  // the atomics' zeros
        if (err != cudaSuccess) return err;
      }
    }
    auto* copy = reinterpret_cast<Element*>(workspace);
    Element const* x_read = Copied ? copy : x;  // what the kernel reads
    auto* w_cl = reinterpret_cast<Element*>(workspace + input_bytes(s));
    int64_t x_lo = Parts > 1 ? input_part(s) : 0;
    cudaError_t err =
        !Copied    ? cudaSuccess
        : s.pack_w ? pack_rows(x, copy, s, x_lo, stream)
        : Flat     ? to_padded_channels_last(x, copy, s, FlatRows::of(flat_forward(s)), x_lo, stream)
                   : to_channels_last(x, copy, s.n, s.c, s.d * s.h * s.w, s.d * s.h * s.w, s.c_padded(), x_lo, stream);
    if (err != cudaSuccess || s.transposed)
      return err != cudaSuccess ? err
             : MergeW > 1       ? run_merged_phases(x_read, w, w_cl, out, s, functor, stream)
                                : run_phases(x_read, w, w_cl, out, s, functor, stream);
    int64_t w_lo = Parts > 1 ? weight_part(s) : 0;
    err = s.pack_w ? pack_weight_rows(w, w_cl, s, w_lo, stream)
                   : to_channels_last(w, w_cl, s.k, s.c_group(), s.taps(), Mainloop::weight_taps(s),
                                      Mainloop::weight_channels(s), w_lo, stream);
    ConvShape const g = gemm_shape(s);  // the output's dims are the same in both
    return err != cudaSuccess ? err : launch(x_read, w_cl, out, g, OutputPhase::whole(g), functor, stream);
  }

 private:
  // The transposed convolution t, phase by phase: each phase's weight copy, then its forward
  // convolution (the loop: transposed_launch.cuh).
  template <class Element>
  static cudaError_t run_phases(Element const* x_read, Element const* w, Element* w_cl, typename Config::ElementC* out,
                                ConvShape const& t, Functor const& functor, cudaStream_t stream) {
    return for_each_phase(
        t, out, functor, stream, [&](TransposedPhase const& phase, ConvShape const& g, OutputPhase const& o) {
          int64_t w_lo = Parts > 1 ? weight_part(g) : 0;
          cudaError_t err =
              phase_weight(w, w_cl, t, phase, Mainloop::weight_taps(g), Mainloop::weight_channels(g), w_lo, stream);
          if (err == cudaSuccess) err = launch(x_read, w_cl, out, g, o, functor, stream);
          w_cl += Parts * weight_part(g);
          return err;
        });
  }

  // The same with the W phases merged (MergedW): per (r_z, r_p) one weight copy and one launch; a
  // (r_z, r_p) no tap reaches, or no W phase, holds the bias alone.
  template <class Element>
  static cudaError_t run_merged_phases(Element const* x_read, Element const* w, Element* w_cl,
                                       typename Config::ElementC* out, ConvShape const& t, Functor const& functor,
                                       cudaStream_t stream) {
    if (t.stride_w != MergeW || !MergedW::applies(t)) return cudaErrorInvalidValue;  // not the instance's
    MergedW const m = MergedW::of(t);
    cudaError_t err = cudaSuccess;
    for (int r_z = 0; r_z < t.stride_d; ++r_z)
      for (int r_p = 0; r_p < t.stride_h && err == cudaSuccess; ++r_p) {
        TransposedPhase const dh = TransposedPhase::of(t, r_z, r_p, 0);
        if (dh.d.size == 0 || dh.h.size == 0) continue;
        if (dh.d.taps == 0 || dh.h.taps == 0 || m.taps == 0) {
          for (int r_q = 0; r_q < MergeW && err == cudaSuccess; ++r_q) {
            TransposedPhase const phase = TransposedPhase::of(t, r_z, r_p, r_q);
            if (phase.pixels() > 0)
              err = bias_only_phase(out, t, phase, OutputPhase::of(t, r_z, r_p, r_q), functor, stream);
          }
          continue;
        }
        ConvShape const g = m.forward(t, dh);
        int64_t const w_lo = Parts > 1 ? weight_part(g) : 0;
        err = merged_phase_weight(w, w_cl, t, dh, m, w_lo, stream);
        if (err == cudaSuccess) err = launch(x_read, w_cl, out, g, OutputPhase::of(t, r_z, r_p, 0), functor, stream);
        w_cl += Parts * weight_part(g);
      }
    return err;
  }

  // The implicit GEMM g over the weight's channels-last copy and x_read (the input's copy, or the
  // input itself), its output pixels placed by o; Flat: over the padded copy's rows.
  template <class Element>
  static cudaError_t launch(Element const* x_read, Element const* w_cl, typename Config::ElementC* out,
                            ConvShape const& forward, OutputPhase const& o, Functor const& functor,
                            cudaStream_t stream) {
    ConvShape const g = Flat ? FlatRows::of(forward).gemm(forward) : forward;
    if (Flat && !FlatRows::of(forward).exact(forward, TileQ)) return cudaErrorInvalidValue;
    Params params;
    if (!Mainloop::make_params(g, reinterpret_cast<ElementA const*>(x_read), reinterpret_cast<ElementA const*>(w_cl),
                               params.mainloop))
      return cudaErrorInvalidValue;
    if constexpr (TmaStore) {
      if (!Params::Epilogue::make_params(out, g, functor, o, params.epilogue)) return cudaErrorInvalidValue;
    } else {
      params.epilogue = {out, g, functor, o};
    }
    params.scheduler =
        Params::Scheduler::make_params(PixelTiling<TileP, TileQ>::m_tiles(g) * Config::TileM, g.k_group(), g.groups,
                                       Config::TileM, Config::TileN, 8, Mainloop::k_tile_count(g), /*splits=*/1);
    return gemm::launch_kernel<Kernel>(params, stream);
  }
};

}  // namespace cutegen::conv
