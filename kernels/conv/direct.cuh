// Direct convolution for few input channels per group (2-D and 3-D, stride, padding, dilation,
// groups; a transposed one phase by phase, transposed_launch.cuh): when a group's channels times the kernel's row of
// taps fill less than half a 32-wide k-tile, an implicit GEMM multiplies mostly zeros (and 3xTF32, which eager's fp32
// accuracy needs there, triples them), so this one runs exact fp32 multiply-adds instead. A CTA computes TileH x TileW
// output pixels of one depth slice for KB output channels of one group (n, g, channel block, z, row tile, column tile,
// flattened into a 1-D grid): it stages the group's taps for those channels and the input patch the tile reads (all the
// group's channels and the kernel's depth taps; zeros outside the input: the padding) in shared memory, then each
// thread accumulates Rows pixels of Cols columns x KB channels in registers, a patch value reused over the KB channels
// and a tap (read as float4 broadcasts) over the Rows x Cols pixels. A thread's columns are TileW / Cols apart and
// consecutive threads take consecutive columns: patch reads without bank conflicts (stride 1) and coalesced stores.
// Same interface as ConvForward (workspace_bytes, run) and the same epilogue functor contract.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include <cute/arch/copy_sm80.hpp>
#include <cute/tensor.hpp>

#include "channels_last.cuh"
#include "conv_shape.cuh"
#include "input_patch.cuh"
#include "transposed_launch.cuh"

namespace cutegen::conv {

// Where the weight's element (output channel k, group channel c, tap t) is:
// w[k * strides.k + c * strides.c + t * strides.tap] (the task's weight, or a phase's copy).
struct TapStrides {
  int64_t k;
  int c, tap;
};

template <int TileH, int TileW, int Rows, int KB, int Cols = 1>
struct DirectTiling {
  static_assert(KB % 4 == 0 && TileH % Rows == 0, "taps are read four channels at a time");
  static_assert(TileW % Cols == 0 && TileW / Cols * TileH / Rows % 32 == 0, "whole warps");
  static constexpr int ThreadsW = TileW / Cols, Threads = ThreadsW * TileH / Rows;

  CUTE_HOST_DEVICE static int patch_h(ConvShape const& s) { return (TileH - 1) * s.stride_h + (s.r - 1) * s.dil_h + 1; }
  CUTE_HOST_DEVICE static int patch_w(ConvShape const& s) { return (TileW - 1) * s.stride_w + (s.s - 1) * s.dil_w + 1; }
  CUTE_HOST_DEVICE static int k_blocks(ConvShape const& s) { return (s.k_group() + KB - 1) / KB; }
  // The patch's row pitch: where a warp spans 32 / ThreadsW rows of threads, Rows x stride_h patch
  // rows apart, a pitch that puts them ThreadsW banks apart (none where the stride rules it out).
  CUTE_HOST_DEVICE static int pitch(ConvShape const& s) {
    for (int p = patch_w(s); ThreadsW < 32 && p < patch_w(s) + 32; ++p)
      if (Rows * s.stride_h * p % 32 == ThreadsW) return p;
    return patch_w(s);
  }
  // The patch of one input channel (T, patch_h, pitch); a CTA stages all the group's channels where
  // they fit kPatchBytes, else chunks of them in two buffers, the next chunk loading while the
  // current one is read (so that two CTAs fit an SM: level 2's 3-D convolutions over 8 channels).
  static constexpr int kPatchBytes = 96 << 10;
  CUTE_HOST_DEVICE static int channel_floats(ConvShape const& s) { return s.t * patch_h(s) * pitch(s); }
  CUTE_HOST_DEVICE static int chunk_channels(ConvShape const& s) {
    int const per_channel = channel_floats(s) * int(sizeof(float)), all = s.c_group();
    if (all * per_channel <= kPatchBytes) return all;
    int const half = kPatchBytes / 2 / per_channel;
    return half < 1 ? 1 : half;
  }
  CUTE_HOST_DEVICE static int buffers(ConvShape const& s) { return chunk_channels(s) < s.c_group() ? 2 : 1; }
  // Shared floats: the taps (C/G, T x R x S, KB), then the patch buffers (chunk, T, patch_h, pitch).
  CUTE_HOST_DEVICE static int tap_floats(ConvShape const& s) { return s.c_group() * s.taps() * KB; }
  CUTE_HOST_DEVICE static int patch_floats(ConvShape const& s) {
    return buffers(s) * chunk_channels(s) * channel_floats(s);
  }
  static int64_t ctas(ConvShape const& s) {
    return int64_t(s.n) * s.groups * k_blocks(s) * s.z * ((s.p + TileH - 1) / TileH) * ((s.q + TileW - 1) / TileW);
  }
};

// TapsH, TapsW: the kernel's R and S where the instance knows them (a forward convolution), so the
// tap loops unroll and the patch and tap loads of the next taps issue ahead of the multiply-adds;
// 0: read from the shape (a transposed convolution's phases differ in their taps).
// Chunked: the patch in chunks of channels, two buffers (DirectTiling::buffers); false: all at once,
// without the chunk loop's registers, and two CTAs an SM (256 threads: 128 registers, as measured).
template <int TileH, int TileW, int Rows, int KB, int Cols, class Functor, int TapsH, int TapsW, bool Chunked>
__global__ void __launch_bounds__(DirectTiling<TileH, TileW, Rows, KB, Cols>::Threads, Chunked ? 1 : 2)
    direct_conv_kernel(float const* __restrict__ x, float const* __restrict__ w, TapStrides ws, float* __restrict__ out,
                       ConvShape s, OutputPhase o, Functor functor) {
  using namespace cute;
  using Tiling = DirectTiling<TileH, TileW, Rows, KB, Cols>;
  extern __shared__ float4 shared_memory[];  // float4: the taps are read four at a time
  float* const shared = reinterpret_cast<float*>(shared_memory);
  int64_t cta = blockIdx.x;
  int const tiles_q = (s.q + TileW - 1) / TileW, tiles_p = (s.p + TileH - 1) / TileH, k_blocks = Tiling::k_blocks(s);
  int const q0 = int(cta % tiles_q) * TileW;
  cta /= tiles_q;
  int const p0 = int(cta % tiles_p) * TileH;
  cta /= tiles_p;
  int const z = int(cta % s.z);
  cta /= s.z;
  int const k_block = int(cta % k_blocks);
  cta /= k_blocks;
  int const g = int(cta % s.groups), n = int(cta / s.groups);
  int const c_group = s.c_group(), k_group = s.k_group(), taps = s.taps();
  int const k_first = g * k_group + k_block * KB, k_valid = k_group - k_block * KB;
  int const patch_h = Tiling::patch_h(s), patch_w = Tiling::patch_w(s);

  // The taps' fill is a cp.async copy (zero-filling where `inside` is false), as the patch's is
  // (stage_patch); x stands in as the source of a zero fill.
  using Fill = SM80_CP_ASYNC_CACHEALWAYS_ZFILL<float>;
  // The taps, (C/G, taps, KB) with the KB channels innermost; zeros past the group's channels.
  Tensor tap = make_tensor(make_smem_ptr(shared), make_layout(make_shape(KB, taps, c_group)));
  for (int i = threadIdx.x; i < size(tap); i += Tiling::Threads) {
    int const kk = i % KB, t = i / KB % taps, c = i / (KB * taps);
    bool const inside = kk < k_valid;
    Fill::copy(inside ? w[(k_first + kk) * ws.k + c * ws.c + t * ws.tap] : *x, tap(kk, t, c), inside);
  }
  // A chunk of the patch, (chunk, T, patch_h, patch_w) row-major with rows `pitch` apart; zeros
  // outside the input.
  int const pitch = Tiling::pitch(s), chunk = Chunked ? Tiling::chunk_channels(s) : c_group;
  int const chunk_floats = chunk * Tiling::channel_floats(s);
  auto channels_from = [&](int c0) { return c_group - c0 < chunk ? c_group - c0 : chunk; };  // the last one's fewer
  auto patch_buffer = [&](int b) {
    return make_tensor(make_smem_ptr(shared + Tiling::tap_floats(s) + b * chunk_floats),
                       make_layout(make_shape(chunk, s.t, patch_h, patch_w),
                                   make_stride(s.t * patch_h * pitch, patch_h * pitch, pitch, 1)));
  };
  int const h0 = p0 * s.stride_h - s.pad_h, w0 = q0 * s.stride_w - s.pad_w, d0 = z * s.stride_d - s.pad_d;
  float const* image = x + (int64_t(n) * s.c + g * c_group) * s.d * s.h * s.w;
  // Channels [c0, c0 + chunk) into buffer b.
  auto fill_patch = [&](int c0, int b) {
    stage_patch<Tiling::Threads>(patch_buffer(b), image, s, c0, channels_from(c0), d0, h0, w0, x);
  };

  int const col = threadIdx.x % Tiling::ThreadsW, row0 = threadIdx.x / Tiling::ThreadsW * Rows;
  int const taps_h = TapsH ? TapsH : s.r, taps_w = TapsW ? TapsW : s.s;
  float acc[Rows][Cols][KB] = {};
  fill_patch(0, 0);
  for (int c0 = 0, b = 0; c0 < c_group; c0 += chunk, b ^= 1) {
    if (Chunked && c0 + chunk < c_group) {  // the next chunk into the other buffer, read by the previous chunk
      fill_patch(c0 + chunk, b ^ 1);
      cp_async_wait<1>();
    } else {
      cp_async_wait<0>();
    }
    __syncthreads();
    auto patch = patch_buffer(b);
    int const channels = channels_from(c0);
    for (int c = 0; c < channels; ++c)
      for (int kt = 0; kt < s.t; ++kt)
#pragma unroll(TapsH > 0 ? TapsH : 1)
        for (int kr = 0; kr < taps_h; ++kr)
#pragma unroll(TapsW > 0 ? TapsW : 1)
          for (int ks = 0; ks < taps_w; ++ks) {
            float4 const* taps4 = reinterpret_cast<float4 const*>(&tap(0, (kt * taps_h + kr) * taps_w + ks, c0 + c));
            float wk[KB];
            CUTE_UNROLL
            for (int j = 0; j < KB / 4; ++j) {
              float4 const v = taps4[j];
              wk[4 * j] = v.x, wk[4 * j + 1] = v.y, wk[4 * j + 2] = v.z, wk[4 * j + 3] = v.w;
            }
            CUTE_UNROLL
            for (int r = 0; r < Rows; ++r)
              CUTE_UNROLL
            for (int j = 0; j < Cols; ++j) {
              float const v = patch(c, kt, (row0 + r) * s.stride_h + kr * s.dil_h,
                                    (col + j * Tiling::ThreadsW) * s.stride_w + ks * s.dil_w);
              CUTE_UNROLL
              for (int kk = 0; kk < KB; ++kk)
                acc[r][j][kk] = fmaf(v, wk[kk], acc[r][j][kk]);
            }
          }
    if (Chunked) __syncthreads();  // every thread is done with buffer b before it is filled again
  }

  // Output pixel (z, p, q) of this convolution is (z, p, q) x step + r of the output (OutputPhase).
  int const z_out = z * o.step_z + o.r_z;
  int64_t const plane = int64_t(o.p) * o.q, channel = o.z * plane;
  float* const first = out + (int64_t(n) * s.k + k_first) * channel + z_out * plane;
  CUTE_UNROLL
  for (int j = 0; j < Cols; ++j) {
    int const tile_q = col + j * Tiling::ThreadsW, q = (q0 + tile_q) * o.step_q + o.r_q;
    CUTE_UNROLL
    for (int r = 0; r < Rows; ++r) {
      int const p = (p0 + row0 + r) * o.step_p + o.r_p;
      CUTE_UNROLL
      for (int kk = 0; kk < KB; ++kk)
        if (q0 + tile_q < s.q && p0 + row0 + r < s.p && kk < k_valid)
          first[kk * channel + int64_t(p) * o.q + q] = functor.apply(acc[r][j][kk], n, k_first + kk, z_out, p, q);
    }
  }
}

template <int TileH, int TileW, int Rows, int KB, class Functor, int TapsH = 0, int TapsW = 0, int Cols = 1>
struct DirectConv {
  static_assert(!fuses_reduction<Functor>, "a fused reduction runs on the implicit GEMM's epilogue only");
  using Tiling = DirectTiling<TileH, TileW, Rows, KB, Cols>;

  // A transposed convolution's phase weights, channels-last (phase_weight), one after the other.
  static size_t workspace_bytes(ConvShape const& s) {
    return s.transposed ? sizeof(float) * size_t(s.k) * s.taps() * s.c_group_padded() : 0;
  }

  // x: (N, C, D, H, W), w: (K, C/G, T, R, S) (transposed: (C, K/G, T, R, S)), out: (N, K, Z, P, Q).
  static cudaError_t run(float const* x, float const* w, float* out, ConvShape const& s, Functor functor,
                         char* workspace, cudaStream_t stream) {
    if ((TapsH && (s.transposed || s.r != TapsH)) || (TapsW && (s.transposed || s.s != TapsW)))
      return cudaErrorInvalidValue;  // the instance's taps are not the shape's
    if (!s.transposed)
      return launch(x, w, TapStrides{int64_t(s.c_group()) * s.taps(), s.taps(), 1}, out, s, OutputPhase::whole(s),
                    functor, stream);
    // Phase by phase (transposed_phases.cuh): its taps flipped, channels-last, then a forward launch.
    auto* w_phase = reinterpret_cast<float*>(workspace);
    return for_each_phase(
        s, out, functor, stream, [&](TransposedPhase const& phase, ConvShape const& g, OutputPhase const& o) {
          int const c_pad = g.c_group_padded();
          cudaError_t err = phase_weight(w, w_phase, s, phase, g.taps(), c_pad, 0, stream);
          if (err == cudaSuccess)
            err = launch(x, w_phase, TapStrides{int64_t(g.taps()) * c_pad, 1, c_pad}, out, g, o, functor, stream);
          w_phase += int64_t(g.k) * g.taps() * c_pad;
          return err;
        });
  }

 private:
  static cudaError_t launch(float const* x, float const* w, TapStrides ws, float* out, ConvShape const& g,
                            OutputPhase const& o, Functor const& functor, cudaStream_t stream) {
    auto* kernel = Tiling::buffers(g) > 1
                       ? &direct_conv_kernel<TileH, TileW, Rows, KB, Cols, Functor, TapsH, TapsW, true>
                       : &direct_conv_kernel<TileH, TileW, Rows, KB, Cols, Functor, TapsH, TapsW, false>;
    size_t smem = sizeof(float) * size_t(Tiling::tap_floats(g) + Tiling::patch_floats(g));
    if (smem > (48 << 10)) {
      cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
      if (err != cudaSuccess) return err;
    }
    kernel<<<unsigned(Tiling::ctas(g)), Tiling::Threads, smem, stream>>>(x, w, ws, out, g, o, functor);
    return cudaGetLastError();
  }
};

}  // namespace cutegen::conv
