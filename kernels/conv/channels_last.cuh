// The layout change in front of a convolution: (outer, C, inner) -> (outer, inner, C_pad), C
// padded with zeros to C_pad. For an NC(D)HW input outer is the batch and inner the pixels; for a
// (K, C/G, taps) weight outer is the output channel and inner the taps. Tiles of 32 x 32 pass
// through shared memory so that both the reads (along inner) and the writes (along C) coalesce.
// For 3xTF32 (a nonzero lo_offset, fp32 only) each value is written as its tf32 parts: hi at the
// copy's place, lo lo_offset elements further (split_tf32, kernels/gemm/tf32_split.cuh).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "gemm/tf32_split.cuh"

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

template <class T>
__global__ void __launch_bounds__(256)
    to_channels_last_kernel(T const* src, T* dst, int channels, int inner, int channels_padded, int64_t lo_offset) {
  __shared__ T tile[32][33];  // [c][i], one column of padding against bank conflicts
  int64_t outer = blockIdx.z;
  int i0 = blockIdx.x * 32, c0 = blockIdx.y * 32;
  for (int cy = threadIdx.y; cy < 32; cy += blockDim.y) {
    int c = c0 + cy, i = i0 + threadIdx.x;
    tile[cy][threadIdx.x] = c < channels && i < inner ? src[(outer * channels + c) * inner + i] : T(0);
  }
  __syncthreads();
  for (int iy = threadIdx.y; iy < 32; iy += blockDim.y) {
    int i = i0 + iy, c = c0 + threadIdx.x;
    if (i < inner && c < channels_padded)
      store_parts(dst, (outer * inner + i) * channels_padded + c, tile[threadIdx.x][iy], lo_offset);
  }
}

// A transposed convolution of stride 1 is the forward convolution of the flipped kernel with its
// channels swapped: w (C, K/G, taps) -> (K, taps, C/G_pad), tap t read from taps - 1 - t, group by
// group. Weights are small: one thread per output element.
template <class T>
__global__ void flip_transposed_weight_kernel(T const* src, T* dst, int c, int k, int groups, int taps,
                                              int c_group_padded, int64_t lo_offset) {
  int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i >= int64_t(k) * taps * c_group_padded) return;
  int ci = int(i % c_group_padded), tap = int(i / c_group_padded % taps),
      ko = int(i / (int64_t(c_group_padded) * taps));
  int c_group = c / groups, k_group = k / groups, g = ko / k_group;
  store_parts(dst, i,
              ci < c_group ? src[(int64_t(g * c_group + ci) * k_group + ko % k_group) * taps + taps - 1 - tap] : T(0),
              lo_offset);
}

template <class T>
cudaError_t flip_transposed_weight(T const* src, T* dst, int c, int k, int groups, int taps, int c_group_padded,
                                   int64_t lo_offset, cudaStream_t stream) {
  int64_t n = int64_t(k) * taps * c_group_padded;
  flip_transposed_weight_kernel<T>
      <<<unsigned((n + 255) / 256), 256, 0, stream>>>(src, dst, c, k, groups, taps, c_group_padded, lo_offset);
  return cudaGetLastError();
}

template <class T>
cudaError_t to_channels_last(T const* src, T* dst, int outer, int channels, int inner, int channels_padded,
                             int64_t lo_offset, cudaStream_t stream) {
  dim3 grid((inner + 31) / 32, (channels_padded + 31) / 32, outer);
  to_channels_last_kernel<T><<<grid, dim3(32, 8), 0, stream>>>(src, dst, channels, inner, channels_padded, lo_offset);
  return cudaGetLastError();
}

}  // namespace cutegen::conv
