// Depthwise convolution (groups == input channels, K/C output channels per input channel), 1-D or
// 2-D: too few multiply-adds per byte for tensor cores, so memory-bound and exact fp32. A CTA of
// ThreadRows x TileW threads computes a (ThreadRows x Rows) x TileW tile of one output plane (n, k):
// it stages the input patch the tile reads in shared memory (zeros outside the image: the padding),
// TileW threads to a patch row, then each thread computes Rows outputs of one column, consecutive
// threads on consecutive columns (coalesced loads and stores, no bank conflicts at stride 1).
// The taps (TapsH x TapsW, the kernel's R x S: the loops unroll) sit in registers. Where the H stride
// and dilation are 1, a thread walks down its column reading each patch row's TapsW values once and
// adds them into every output row they reach: Rows + TapsH - 1 row reads for Rows outputs instead of
// Rows x TapsH, which keeps the shared-memory reads under the DRAM time (the per-output form, still
// the one for other H strides, was bound by them and by index arithmetic: 82 and 84 at 0.81x eager).
// Planes and the patch are CuTe tensors over row-major layouts.
// Same interface as ConvForward (workspace_bytes, run) and the same epilogue functor contract.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include <cute/tensor.hpp>

#include "conv_shape.cuh"
#include "fused_reduction.cuh"

namespace cutegen::conv {

template <int TileW, int ThreadRows, int Rows, int TapsH, int TapsW>
struct DepthwiseTiling {
  static_assert((TileW * ThreadRows) % 32 == 0, "whole warps");
  static constexpr int Threads = TileW * ThreadRows;
  static constexpr int TileH = ThreadRows * Rows;

  CUTE_HOST_DEVICE static int patch_h(ConvShape const& s) {
    return (TileH - 1) * s.stride_h + (TapsH - 1) * s.dil_h + 1;
  }
  CUTE_HOST_DEVICE static int patch_w(ConvShape const& s) {
    return (TileW - 1) * s.stride_w + (TapsW - 1) * s.dil_w + 1;
  }
};

template <int TileW, int ThreadRows, int Rows, int TapsH, int TapsW, class Functor>
__global__ void __launch_bounds__(TileW* ThreadRows)
    depthwise_conv_kernel(float const* __restrict__ x, float const* __restrict__ w, float* __restrict__ out,
                          ConvShape s, Functor functor) {
  using namespace cute;
  using Tiling = DepthwiseTiling<TileW, ThreadRows, Rows, TapsH, TapsW>;
  extern __shared__ float patch_memory[];
  int plane = blockIdx.z, n = plane / s.k, k = plane % s.k, c = k / (s.k / s.c);
  int p0 = blockIdx.y * Tiling::TileH, q0 = blockIdx.x * TileW;
  int h0 = p0 * s.stride_h - s.pad_h, w0 = q0 * s.stride_w - s.pad_w;
  // This CTA's planes, row-major: the input plane (n, c), its output plane (n, k), the patch.
  Tensor in = make_tensor(make_gmem_ptr(x + (int64_t(n) * s.c + c) * s.h * s.w),
                          make_layout(make_shape(s.h, s.w), LayoutRight{}));
  Tensor dst =
      make_tensor(make_gmem_ptr(out + int64_t(plane) * s.p * s.q), make_layout(make_shape(s.p, s.q), LayoutRight{}));
  Tensor patch = make_tensor(make_smem_ptr(patch_memory),
                             make_layout(make_shape(Tiling::patch_h(s), Tiling::patch_w(s)), LayoutRight{}));
  int const col = threadIdx.x % TileW, thread_row = threadIdx.x / TileW;
  for (int ph = thread_row; ph < size<0>(patch); ph += ThreadRows) {
    int hh = h0 + ph;
    bool row_inside = hh >= 0 && hh < s.h;
    for (int pw = col; pw < size<1>(patch); pw += TileW) {
      int ww = w0 + pw;
      patch(ph, pw) = row_inside && ww >= 0 && ww < s.w ? in(hh, ww) : 0.f;
    }
  }
  float tap[TapsH][TapsW];
  CUTE_UNROLL
  for (int kr = 0; kr < TapsH; ++kr) {
    CUTE_UNROLL
    for (int ks = 0; ks < TapsW; ++ks)
      tap[kr][ks] = __ldg(w + (int64_t(k) * TapsH + kr) * TapsW + ks);
  }
  __syncthreads();

  int const q = q0 + col, row0 = thread_row * Rows, pw = col * s.stride_w;
  if (q >= s.q) return;
  float acc[Rows] = {};
  if (s.stride_h == 1 && s.dil_h == 1) {
    CUTE_UNROLL
    for (int i = 0; i < Rows + TapsH - 1; ++i) {  // patch row row0 + i reaches outputs i - kr
      float v[TapsW];
      CUTE_UNROLL
      for (int ks = 0; ks < TapsW; ++ks)
        v[ks] = patch(row0 + i, pw + ks * s.dil_w);
      CUTE_UNROLL
      for (int kr = 0; kr < TapsH; ++kr) {
        if (i - kr < 0 || i - kr >= Rows) continue;  // compile-time: the loops unroll
        CUTE_UNROLL
        for (int ks = 0; ks < TapsW; ++ks)
          acc[i - kr] = fmaf(v[ks], tap[kr][ks], acc[i - kr]);
      }
    }
  } else {
    CUTE_UNROLL
    for (int o = 0; o < Rows; ++o) {
      CUTE_UNROLL
      for (int kr = 0; kr < TapsH; ++kr) {
        CUTE_UNROLL
        for (int ks = 0; ks < TapsW; ++ks)
          acc[o] = fmaf(patch((row0 + o) * s.stride_h + kr * s.dil_h, pw + ks * s.dil_w), tap[kr][ks], acc[o]);
      }
    }
  }
  CUTE_UNROLL
  for (int o = 0; o < Rows; ++o) {
    int p = p0 + row0 + o;
    if (p < s.p) dst(p, q) = functor.apply(acc[o], n, k, 0, p, q);
  }
}

template <int TileW, int ThreadRows, int Rows, int TapsH, int TapsW, class Functor>
struct DepthwiseConv {
  static_assert(!fuses_reduction<Functor>, "a fused reduction runs on the implicit GEMM's epilogue only");
  using Tiling = DepthwiseTiling<TileW, ThreadRows, Rows, TapsH, TapsW>;

  static size_t workspace_bytes(ConvShape const&) { return 0; }
  static size_t patch_bytes(ConvShape const& s) {
    return sizeof(float) * size_t(Tiling::patch_h(s)) * size_t(Tiling::patch_w(s));
  }

  // x: (N, C, H, W), w: (K, 1, R, S) with R x S = TapsH x TapsW, out: (N, K, P, Q); N * K planes at
  // most 65535 (grid z).
  static cudaError_t run(float const* x, float const* w, float* out, ConvShape const& s, Functor functor, char*,
                         cudaStream_t stream) {
    if (s.r != TapsH || s.s != TapsW) return cudaErrorInvalidValue;  // not the instance's taps
    auto* kernel = &depthwise_conv_kernel<TileW, ThreadRows, Rows, TapsH, TapsW, Functor>;
    size_t smem = patch_bytes(s);
    if (smem > (48 << 10)) {
      cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
      if (err != cudaSuccess) return err;
    }
    dim3 grid((s.q + TileW - 1) / TileW, (s.p + Tiling::TileH - 1) / Tiling::TileH, unsigned(s.n) * s.k);
    kernel<<<grid, Tiling::Threads, smem, stream>>>(x, w, out, s, functor);
    return cudaGetLastError();
  }
};

}  // namespace cutegen::conv
