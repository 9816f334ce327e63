// The layout change in front of a convolution: (outer, C, inner) -> (outer, inner_pad, C_pad), C
// and inner padded with zeros. For an NC(D)HW input outer is the batch and inner the pixels (or
// the pixels of slices padded on every side: FlatRows); for a (K, C/G, taps) weight outer is the
// output channel and inner the taps (padded to pairs where a k-tile holds two:
// mainloop_conv_nchw.cuh). Tiles of 32 channels pass through shared memory so that both the reads (along inner) and the
// writes (along C) coalesce. For 3xTF32 (a nonzero lo_offset, fp32 only) each value is written as its tf32 parts: hi at
// the copy's place, lo lo_offset elements further (split_tf32, kernels/gemm/tf32_split.cuh). Also the weight copies of
// few input channels (row packing) and of a transposed convolution's output phases.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "conv_shape.cuh"
#include "gemm/tf32_split.cuh"
#include "transposed_phases.cuh"

namespace cutegen::conv {

template <class T>
__device__ void store_parts(T* dst, int64_t i, T v, int64_t lo_offset) {
  if constexpr (sizeof(T) == 4) {
    if (lo_offset) {
      gemm::Tf32Pair parts = gemm::split_tf32(v);
      dst[i] = parts.hi;
      dst[i + lo_offset] = parts.lo;
      return;
    }
  }
  dst[i] = v;
}

// A CTA moves a tile of 32 channels x CopyInner inner positions, each thread 16 loads in flight
// before the barrier (the copy is latency-bound with fewer).
constexpr int CopyInner = 128;

// Which source position a copy's inner position i reads (-1: a zero): the same one, up to the
// source's `inner` positions.
struct SameInner {
  int inner;
  CUTE_DEVICE int operator()(int i) const { return i < inner ? i : -1; }
};

// A padded copy's (FlatRows): its hp x wp slices around the source's h x w ones.
struct PaddedInner {
  FlatRows rows;
  int h, w;
  CUTE_DEVICE int operator()(int i) const { return rows.source(i, h, w); }
};

template <class T, class Source>
__global__ void __launch_bounds__(256)
    to_channels_last_kernel(T const* src, T* dst, int channels, int inner, Source source, int inner_padded,
                            int channels_padded, int64_t lo_offset) {
  __shared__ T tile[32][CopyInner + 1];  // [c][i], one column of padding against bank conflicts
  int64_t outer = blockIdx.z;
  int i0 = blockIdx.x * CopyInner, c0 = blockIdx.y * 32;
  int from[CopyInner / 32];  // the source positions of this thread's columns, the same for every channel
  CUTE_UNROLL
  for (int j = 0; j < CopyInner / 32; ++j) {
    int const i = i0 + int(threadIdx.x) + 32 * j;
    from[j] = i < inner_padded ? source(i) : -1;
  }
  CUTE_UNROLL
  for (int y = 0; y < 32; y += 8) {
    int const cy = y + int(threadIdx.y), c = c0 + cy;
    T const* row = src + (outer * channels + c) * inner;
    CUTE_UNROLL
    for (int j = 0; j < CopyInner / 32; ++j)
      tile[cy][threadIdx.x + 32 * j] = c < channels && from[j] >= 0 ? row[from[j]] : T(0);
  }
  __syncthreads();
  int c = c0 + threadIdx.x;
  CUTE_UNROLL
  for (int iy = threadIdx.y; iy < CopyInner; iy += 8) {
    int i = i0 + iy;
    if (i < inner_padded && c < channels_padded)
      store_parts(dst, (outer * inner_padded + i) * channels_padded + c, tile[threadIdx.x][iy], lo_offset);
  }
}

// Element (input channel ci of output channel ko's group, weight tap `tap` of T x R x S) of a
// transposed convolution's weight w (C, K/G, T, R, S).
template <class T>
__device__ T transposed_weight(T const* w, ConvShape const& t, int ko, int ci, int tap) {
  int const g = ko / t.k_group();
  return w[(int64_t(g * t.c_group() + ci) * t.k_group() + ko % t.k_group()) * t.taps() + tap];
}

// The phase's weight, channels-last for its forward convolution: w (C, K/G, T, R, S) ->
// (K, taps_pad, c_pad), flipped and with the channels swapped, group by group, zeros past the
// phase's taps and the group's channels. Weights are small: one thread per written element.
template <class T>
__global__ void phase_weight_kernel(T const* src, T* dst, ConvShape t, TransposedPhase phase, int taps_pad, int c_pad,
                                    int64_t lo_offset) {
  int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= int64_t(t.k) * taps_pad * c_pad) return;
  int ci = int(i % c_pad), tap = int(i / c_pad % taps_pad), ko = int(i / (int64_t(c_pad) * taps_pad));
  T v = ci < t.c_group() && tap < phase.taps() ? transposed_weight(src, t, ko, ci, phase.source_tap(t, tap)) : T(0);
  store_parts(dst, i, v, lo_offset);
}

template <class T>
cudaError_t phase_weight(T const* src, T* dst, ConvShape const& t, TransposedPhase const& phase, int taps_pad,
                         int c_pad, int64_t lo_offset, cudaStream_t stream) {
  int64_t n = int64_t(t.k) * taps_pad * c_pad;
  phase_weight_kernel<T><<<unsigned((n + 255) / 256), 256, 0, stream>>>(src, dst, t, phase, taps_pad, c_pad, lo_offset);
  return cudaGetLastError();
}

// The merged W phases' weight (MergedW) for one (r_z, r_p), channels-last: (K x stride_w, the
// phase's T x R taps x the union's, C/G_pad), row n' = k * stride_w + r_q; zero at union taps
// outside phase r_q's own.
template <class T>
__global__ void merged_phase_weight_kernel(T const* src, T* dst, ConvShape t, TransposedPhase dh, MergedW m,
                                           int64_t lo_offset) {
  int const taps = dh.d.taps * dh.h.taps * m.taps, c_pad = t.c_group_padded();
  int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= int64_t(t.k) * t.stride_w * taps * c_pad) return;
  int const ci = int(i % c_pad), tap = int(i / c_pad % taps), n = int(i / (int64_t(c_pad) * taps));
  int const ko = n / t.stride_w, r_q = n % t.stride_w, u = tap % m.taps;
  TransposedPhase p = dh;
  p.w = MergedW::phase(t, r_q);
  int const j = u - m.shift(t, r_q);
  T v = ci < t.c_group() && j >= 0 && j < p.w.taps
            ? transposed_weight(src, t, ko, ci, p.source_tap(t, tap / m.taps * p.w.taps + j))
            : T(0);
  store_parts(dst, i, v, lo_offset);
}

template <class T>
cudaError_t merged_phase_weight(T const* src, T* dst, ConvShape const& t, TransposedPhase const& dh, MergedW const& m,
                                int64_t lo_offset, cudaStream_t stream) {
  int64_t n = int64_t(t.k) * t.stride_w * dh.d.taps * dh.h.taps * m.taps * t.c_group_padded();
  merged_phase_weight_kernel<T><<<unsigned((n + 255) / 256), 256, 0, stream>>>(src, dst, t, dh, m, lo_offset);
  return cudaGetLastError();
}

template <class T>
cudaError_t to_channels_last(T const* src, T* dst, int outer, int channels, int inner, int inner_padded,
                             int channels_padded, int64_t lo_offset, cudaStream_t stream) {
  dim3 grid((inner_padded + CopyInner - 1) / CopyInner, (channels_padded + 31) / 32, outer);
  to_channels_last_kernel<T><<<grid, dim3(32, 8), 0, stream>>>(src, dst, channels, inner, SameInner{inner},
                                                               inner_padded, channels_padded, lo_offset);
  return cudaGetLastError();
}

// The input x (N, C, D, H, W) of s as the padded copy `rows` (N, D, hp, wp, C_pad), zeros around each slice.
template <class T>
cudaError_t to_padded_channels_last(T const* x, T* dst, ConvShape const& s, FlatRows const& rows, int64_t lo_offset,
                                    cudaStream_t stream) {
  int const inner_padded = s.d * rows.hp * rows.wp;
  dim3 grid((inner_padded + CopyInner - 1) / CopyInner, (s.c_padded() + 31) / 32, s.n);
  to_channels_last_kernel<T><<<grid, dim3(32, 8), 0, stream>>>(
      x, dst, s.c, s.d * s.h * s.w, PaddedInner{rows, s.h, s.w}, inner_padded, s.c_padded(), lo_offset);
  return cudaGetLastError();
}

// The copies for ConvShape::pack_w: x (N, C, D, H, W) -> (N, D, H, Q, G x S x C/G, padded), channel
// (g, s, c) of column q being x[g * C/G + c] at column q * stride_w - pad_w + s * dil_w; and w
// (K, C/G, T, R, S) -> (K, T x R, S x C/G, padded) in the same channel order.
// The input's copy: a CTA per input row (n, d, h) writing the packed row (Q x packed channels)
// front to back, so every warp's stores are one contiguous run; each thread walks that row 256
// elements at a time with its packed channel and column tracked incrementally (a table in shared
// memory gives each packed channel's source channel and first column, worked out once per CTA) and
// issues PackBatch loads before it stores, as the copy is latency-bound otherwise. The reads of the
// few input channels come through the caches (each input value is read S times).
constexpr int PackBatch = 4;

template <class T>
__global__ void __launch_bounds__(256) pack_rows_kernel(T const* x, T* dst, ConvShape s, int64_t lo_offset) {
  extern __shared__ int2 source[];  // per packed channel: (input channel or -1 for padding, first column)
  ConvShape const p = s.packed_w();
  int const channels = p.c_padded();
  for (int cp = threadIdx.x; cp < channels; cp += blockDim.x) {
    int const g = cp / p.c_group(), tap = cp % p.c_group() / s.c_group(), c = cp % s.c_group();
    source[cp] = cp < p.c ? make_int2(g * s.c_group() + c, tap * s.dil_w - s.pad_w) : make_int2(-1, 0);
  }
  __syncthreads();
  int64_t const row = blockIdx.x;  // (n, d, h)
  int const h = int(row % s.h), d = int(row / s.h % s.d);
  int64_t const n = row / (int64_t(s.h) * s.d), plane = int64_t(s.d) * s.h * s.w;
  T const* src = x + n * s.c * plane + (int64_t(d) * s.h + h) * s.w;
  T* out = dst + row * s.q * channels;
  int const total = s.q * channels, step_q = 256 / channels, step_c = 256 % channels;
  int q = threadIdx.x / channels, cp = threadIdx.x % channels;
  for (int e = threadIdx.x; e < total; e += 256 * PackBatch) {
    T v[PackBatch];
    CUTE_UNROLL
    for (int j = 0; j < PackBatch; ++j) {
      int2 const from = source[cp];
      int const w = q * s.stride_w + from.y;
      v[j] = e + j * 256 < total && from.x >= 0 && w >= 0 && w < s.w ? src[from.x * plane + w] : T(0);
      cp += step_c, q += step_q;
      if (cp >= channels) cp -= channels, ++q;
    }
    CUTE_UNROLL
    for (int j = 0; j < PackBatch; ++j)
      if (e + j * 256 < total) store_parts(out, e + j * 256, v[j], lo_offset);
  }
}

template <class T>
__global__ void pack_weight_rows_kernel(T const* w, T* dst, ConvShape s, int64_t lo_offset) {
  ConvShape const p = s.packed_w();
  int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  const int channels = p.c_group_padded(), rows = s.t * s.r;
  if (i >= int64_t(s.k) * rows * channels) return;
  int cp = int(i % channels), tr = int(i / channels % rows), k = int(i / (int64_t(channels) * rows));
  T v = T(0);
  if (cp < p.c_group()) {
    int tap = cp / s.c_group(), c = cp % s.c_group();
    v = w[((int64_t(k) * s.c_group() + c) * rows + tr) * s.s + tap];
  }
  store_parts(dst, i, v, lo_offset);
}

template <class T>
cudaError_t pack_rows(T const* x, T* dst, ConvShape const& s, int64_t lo_offset, cudaStream_t stream) {
  size_t const table = sizeof(int2) * s.packed_w().c_padded();
  pack_rows_kernel<T><<<unsigned(int64_t(s.n) * s.d * s.h), 256, table, stream>>>(x, dst, s, lo_offset);
  return cudaGetLastError();
}

template <class T>
cudaError_t pack_weight_rows(T const* w, T* dst, ConvShape const& s, int64_t lo_offset, cudaStream_t stream) {
  int64_t n = int64_t(s.k) * s.t * s.r * s.packed_w().c_group_padded();
  pack_weight_rows_kernel<T><<<unsigned((n + 255) / 256), 256, 0, stream>>>(w, dst, s, lo_offset);
  return cudaGetLastError();
}

}  // namespace cutegen::conv
