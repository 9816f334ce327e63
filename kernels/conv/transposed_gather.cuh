// A transposed convolution gathered at each output pixel, all output phases in one pass: for
// strides past the kernel's reach, where each output pixel has at most one tap per dim.
//
// out[n, k, o] = sum over taps t and the group's channels c of x[n, c, i] * w[c, k, t], where
// o = i x stride - pad + t x dil, so i = (o + pad - t x dil) / stride where that divides. Phase by
// phase (transposed_phases.cuh) such a convolution is stride^dims launches of a GEMM with one tap
// or none, each writing every stride-th pixel: level 1's 81 (stride 5, 3 taps at dilation 2) wrote
// 830 MB as 4-byte pieces 20 bytes apart. Here a CTA of TileW threads computes TileW neighbouring
// output columns of kGatherRows output rows for KB output channels of one group, a thread one
// column: its valid taps found per dim by that divisibility, the channels' values read through the
// cache (the input is small beside the output), the taps' weights for the KB channels staged in
// shared memory as [tap][c][KB] (a thread reads KB contiguous floats), the stores whole rows of
// neighbouring columns. Exact fp32. Same interface as ConvForward (workspace_bytes, run) and the same epilogue
// functor contract; no fused reductions.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include <cute/tensor.hpp>

#include "conv_shape.cuh"
#include "fused_reduction.cuh"

namespace cutegen::conv {

// The input index i of output index o through tap k along one dim, where one exists.
CUTE_DEVICE bool transposed_source(int o, int pad, int k, int dil, int stride, int size, int& i) {
  int const v = o + pad - k * dil;
  if (v < 0 || v % stride != 0) return false;
  i = v / stride;
  return i < size;
}

// Output rows a CTA computes over its staged weights: staging them (taps x the group's channels x KB
// floats, 18 KB on level 1's 81) once a row read more bytes than the row's stores wrote.
constexpr int kGatherRows = 8;

template <int TileW, int KB, class Functor>
__global__ void __launch_bounds__(TileW)
    transposed_gather_kernel(float const* __restrict__ x, float const* __restrict__ w, float* __restrict__ out,
                             ConvShape t, Functor functor) {
  using namespace cute;
  extern __shared__ float4 weight_memory[];
  int const k_group = t.k_group(), c_group = t.c_group(), taps = t.taps();
  // Column-major shapes, the fastest index first: x (W, H, D, C, N), w (taps, K/G, C), out (Q, P, Z, K, N);
  // this CTA's weights (KB/4 float4s of output channels, channel of the group, tap).
  // 32-bit indices (run refuses tensors of 2^31 elements or more; 64-bit ones spilled registers).
  auto compact = [](auto... extents) { return make_layout(make_shape(int(extents)...)); };
  Tensor mX = make_tensor(make_gmem_ptr(x), compact(t.w, t.h, t.d, t.c, t.n));
  Tensor mW = make_tensor(make_gmem_ptr(w), compact(taps, k_group, t.c));
  Tensor mOut = make_tensor(make_gmem_ptr(out), compact(t.q, t.p, t.z, t.k, t.n));
  Tensor sW = make_tensor(make_smem_ptr(weight_memory), make_layout(make_shape(Int<KB / 4>{}, c_group, taps)));
  Tensor sW1 = recast<float>(sW);                    // (KB, c, tap)
  int const k0 = blockIdx.y * KB, g = k0 / k_group;  // KB divides the group's output channels
  int const tiles_q = (t.q + TileW - 1) / TileW, rows = t.n * t.z * t.p;
  int const q = blockIdx.x % tiles_q * TileW + threadIdx.x, row0 = blockIdx.x / tiles_q * kGatherRows;
  for (int e = threadIdx.x; e < size(sW1); e += TileW) {
    int const j = e % KB, c = e / KB % c_group, tap = e / (KB * c_group);
    sW1(j, c, tap) = mW(tap, k0 % k_group + j, g * c_group + c);
  }
  __syncthreads();
  if (q >= t.q) return;
  for (int row = row0; row < min(row0 + kGatherRows, rows); ++row) {  // row: (n, z, p)
    int const p = row % t.p, z = row / t.p % t.z, n = row / (t.p * t.z);
    float acc[KB] = {};
    for (int kt = 0; kt < t.t; ++kt) {
      int iz;
      if (!transposed_source(z, t.pad_d, kt, t.dil_d, t.stride_d, t.d, iz)) continue;
      for (int kr = 0; kr < t.r; ++kr) {
        int ih;
        if (!transposed_source(p, t.pad_h, kr, t.dil_h, t.stride_h, t.h, ih)) continue;
        for (int ks = 0; ks < t.s; ++ks) {
          int iw;
          if (!transposed_source(q, t.pad_w, ks, t.dil_w, t.stride_w, t.w, iw)) continue;
          Tensor src = mX(iw, ih, iz, _, n);  // (C): this pixel's channels
          int const tap = (kt * t.r + kr) * t.s + ks;
#pragma unroll 4
          for (int c = 0; c < c_group; ++c) {
            float const v = __ldg(&src(g * c_group + c));
            CUTE_UNROLL
            for (int j = 0; j < KB / 4; ++j) {
              float4 const wv = sW(j, c, tap);
              acc[4 * j] += v * wv.x, acc[4 * j + 1] += v * wv.y, acc[4 * j + 2] += v * wv.z,
                  acc[4 * j + 3] += v * wv.w;
            }
          }
        }
      }
    }
    CUTE_UNROLL
    for (int j = 0; j < KB; ++j)
      mOut(q, p, z, k0 + j, n) = functor.apply(acc[j], n, k0 + j, z, p, q);
  }
}

template <int TileW, int KB, class Functor>
struct TransposedGatherConv {
  static_assert(KB % 4 == 0, "a thread's output channels are read as float4");
  static_assert(!fuses_reduction<Functor>, "no fused reductions here");

  static size_t workspace_bytes(ConvShape const&) { return 0; }
  static size_t weight_bytes(ConvShape const& t) { return sizeof(float) * size_t(t.taps()) * t.c_group() * KB; }

  // x: (N, C, D, H, W), w: (C, K/G, T, R, S), out: (N, K, Z, P, Q); the shape is a transposed one's.
  static cudaError_t run(float const* x, float const* w, float* out, ConvShape const& t, Functor functor, char*,
                         cudaStream_t stream) {
    int64_t const row_tiles = (int64_t(t.n) * t.z * t.p + kGatherRows - 1) / kGatherRows;
    int64_t const blocks = row_tiles * ((t.q + TileW - 1) / TileW);
    int64_t const in = int64_t(t.n) * t.c * t.d * t.h * t.w, outs = int64_t(t.n) * t.k * t.z * t.p * t.q;
    if (!t.transposed || t.k_group() % KB != 0 || weight_bytes(t) > (227u << 10) || blocks >= (int64_t(1) << 31) ||
        t.k / KB > 65535 || in >= (int64_t(1) << 31) || outs >= (int64_t(1) << 31))
      return cudaErrorInvalidValue;
    auto kernel = transposed_gather_kernel<TileW, KB, Functor>;
    size_t const smem = weight_bytes(t);
    if (smem > (48u << 10)) {
      cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
      if (err != cudaSuccess) return err;
    }
    dim3 grid(unsigned(blocks), unsigned(t.k / KB));
    kernel<<<grid, TileW, smem, stream>>>(x, w, out, t, functor);
    return cudaGetLastError();
  }
};

}  // namespace cutegen::conv
