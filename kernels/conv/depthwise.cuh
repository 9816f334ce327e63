// Depthwise convolution (groups == input channels, K/C output channels per input channel), 1-D or
// 2-D: too few multiply-adds per byte for tensor cores, so memory-bound and exact fp32. A CTA
// computes a TileH x TileW tile of one output plane (n, k): it stages the input patch the tile
// reads in shared memory (zeros outside the image: the padding), then each thread computes `Rows`
// outputs of one column, consecutive threads on consecutive columns (coalesced loads and stores).
// Planes, taps and the patch are CuTe tensors over row-major layouts.
// Same interface as ConvForward (workspace_bytes, run) and the same epilogue functor contract.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include <cute/tensor.hpp>

#include "conv_shape.cuh"

namespace cutegen::conv {

template <int TileH, int TileW, int Rows, class Functor>
__global__ void __launch_bounds__(TileW* TileH / Rows)
    depthwise_conv_kernel(float const* __restrict__ x, float const* __restrict__ w, float* __restrict__ out,
                          ConvShape s, Functor functor) {
  using namespace cute;
  extern __shared__ float patch_memory[];
  int plane = blockIdx.z, n = plane / s.k, k = plane % s.k, c = k / (s.k / s.c);
  int p0 = blockIdx.y * TileH, q0 = blockIdx.x * TileW;
  int patch_h = (TileH - 1) * s.stride_h + (s.r - 1) * s.dil_h + 1;
  int patch_w = (TileW - 1) * s.stride_w + (s.s - 1) * s.dil_w + 1;
  int h0 = p0 * s.stride_h - s.pad_h, w0 = q0 * s.stride_w - s.pad_w;
  // This CTA's planes, row-major: the input plane (n, c), its taps (k), its output plane (n, k).
  Tensor in = make_tensor(make_gmem_ptr(x + (int64_t(n) * s.c + c) * s.h * s.w),
                          make_layout(make_shape(s.h, s.w), LayoutRight{}));
  Tensor taps =
      make_tensor(make_gmem_ptr(w + int64_t(k) * s.r * s.s), make_layout(make_shape(s.r, s.s), LayoutRight{}));
  Tensor dst =
      make_tensor(make_gmem_ptr(out + int64_t(plane) * s.p * s.q), make_layout(make_shape(s.p, s.q), LayoutRight{}));
  Tensor patch = make_tensor(make_smem_ptr(patch_memory), make_layout(make_shape(patch_h, patch_w), LayoutRight{}));
  for (int i = threadIdx.x; i < size(patch); i += blockDim.x) {
    auto [ph, pw] = idx2crd(i, shape(patch), stride(patch));
    int hh = h0 + ph, ww = w0 + pw;
    patch(ph, pw) = hh >= 0 && hh < s.h && ww >= 0 && ww < s.w ? in(hh, ww) : 0.f;
  }
  __syncthreads();
  int col = threadIdx.x % TileW, row0 = threadIdx.x / TileW * Rows, q = q0 + col;
  for (int i = 0; i < Rows; ++i) {
    int p = p0 + row0 + i;
    if (p >= s.p || q >= s.q) continue;
    int ph = (row0 + i) * s.stride_h, pw = col * s.stride_w;
    float acc = 0.f;
    for (int kr = 0; kr < s.r; ++kr)
      for (int ks = 0; ks < s.s; ++ks)
        acc = fmaf(patch(ph + kr * s.dil_h, pw + ks * s.dil_w), __ldg(&taps(kr, ks)), acc);
    dst(p, q) = functor.apply(acc, n, k, 0, p, q);
  }
}

template <int TileH, int TileW, int Rows, class Functor>
struct DepthwiseConv {
  static size_t workspace_bytes(ConvShape const&) { return 0; }
  static size_t patch_bytes(ConvShape const& s) {
    return sizeof(float) * size_t((TileH - 1) * s.stride_h + (s.r - 1) * s.dil_h + 1) *
           size_t((TileW - 1) * s.stride_w + (s.s - 1) * s.dil_w + 1);
  }

  // x: (N, C, H, W), w: (K, 1, R, S), out: (N, K, P, Q); N * K planes at most 65535 (grid z).
  static cudaError_t run(float const* x, float const* w, float* out, ConvShape const& s, Functor functor, char*,
                         cudaStream_t stream) {
    auto* kernel = &depthwise_conv_kernel<TileH, TileW, Rows, Functor>;
    size_t smem = patch_bytes(s);
    if (smem > (48 << 10)) {
      cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
      if (err != cudaSuccess) return err;
    }
    dim3 grid((s.q + TileW - 1) / TileW, (s.p + TileH - 1) / TileH, unsigned(s.n) * s.k);
    kernel<<<grid, TileW * TileH / Rows, smem, stream>>>(x, w, out, s, functor);
    return cudaGetLastError();
  }
};

}  // namespace cutegen::conv
