// The fp32 pre-pass: writes an fp32 operand K-major (tf32 wgmma reads only K-major operands), its
// rows padded to k_padded (K rounded up to 4, the pad zero) so TMA's 16-byte row alignment holds:
//   row r = [ A[r, :] ]                                         (SplitParts::Whole: for the fp32
//                                                                 kernels that split in the mainloop)
// or, for the old 3xTF32 scheme (one tf32 GEMM over K' = 3 * k_padded into one accumulator, whose
// error grows with K: kept as the benchmark's comparison), split into K-concatenated tf32 parts:
//   A' row r = [ hi(A[r, :]) | hi(A[r, :]) | lo(A[r, :]) ]     (SplitParts::HiHiLo)
//   B' row n = [ hi(B[:, n]) | lo(B[:, n]) | hi(B[:, n]) ]     (SplitParts::HiLoHi)
// A transposed input is transposed here, through a shared-memory tile so both the reads and the
// writes are coalesced.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "tf32_split.cuh"

namespace cutegen::gemm {

enum class SplitParts { Whole, HiHiLo, HiLoHi };

template <SplitParts Parts>
inline constexpr int kSplitPartCount = Parts == SplitParts::Whole ? 1 : 3;

constexpr int kSplitTile = 32;
constexpr int kSplitRowsPerPass = 8;  // the block is kSplitTile x kSplitRowsPerPass threads

constexpr int split_k_padded(int k) { return (k + 3) / 4 * 4; }

// Grid: (ceil(k_padded / 32), ceil(rows / 32), batches); block (32, 8).
// in(row, k, batch) = in[row * stride_row + k * stride_k + batch * stride_batch];
// out is [batches][rows][kSplitPartCount<Parts> * k_padded].
template <SplitParts Parts>
__global__ void split_tf32_operand(float const* in, int64_t stride_row, int64_t stride_k, int64_t stride_batch,
                                   int rows, int k, int k_padded, float* out) {
  __shared__ float tile[kSplitTile][kSplitTile + 1];  // [row][k], +1 against bank conflicts
  int k0 = int(blockIdx.x) * kSplitTile;
  int row0 = int(blockIdx.y) * kSplitTile;
  float const* src = in + int64_t(blockIdx.z) * stride_batch;
  // Read with threadIdx.x along whichever of (row, k) is contiguous in memory.
  bool k_contiguous = stride_k == 1;
  for (int j = int(threadIdx.y); j < kSplitTile; j += kSplitRowsPerPass) {
    int r = row0 + (k_contiguous ? j : int(threadIdx.x));
    int kk = k0 + (k_contiguous ? int(threadIdx.x) : j);
    float v = r < rows && kk < k ? src[r * stride_row + kk * stride_k] : 0.0f;
    if (k_contiguous)
      tile[j][threadIdx.x] = v;
    else
      tile[threadIdx.x][j] = v;
  }
  __syncthreads();
  int kk = k0 + int(threadIdx.x);
  if (kk >= k_padded) return;
  int64_t row_length = kSplitPartCount<Parts> * int64_t(k_padded);
  float* dst = out + int64_t(blockIdx.z) * rows * row_length;
  for (int j = int(threadIdx.y); j < kSplitTile; j += kSplitRowsPerPass) {
    int r = row0 + j;
    if (r >= rows) break;
    float* row = dst + r * row_length + kk;
    if constexpr (Parts == SplitParts::Whole) {
      row[0] = tile[j][threadIdx.x];
      continue;
    }
    Tf32Pair p = split_tf32(tile[j][threadIdx.x]);
    row[0] = p.hi;
    row[k_padded] = Parts == SplitParts::HiHiLo ? p.hi : p.lo;
    row[2 * int64_t(k_padded)] = Parts == SplitParts::HiHiLo ? p.lo : p.hi;
  }
}

// Launches the pre-pass of a (rows x k) operand per batch into `out`
// ([batches][rows][kSplitPartCount<Parts> * k_padded]).
template <SplitParts Parts>
cudaError_t split_tf32(float const* in, int64_t stride_row, int64_t stride_k, int64_t stride_batch, int rows, int k,
                       int batches, float* out, cudaStream_t stream) {
  int k_padded = split_k_padded(k);
  dim3 grid((k_padded + kSplitTile - 1) / kSplitTile, (rows + kSplitTile - 1) / kSplitTile, batches);
  split_tf32_operand<Parts><<<grid, dim3(kSplitTile, kSplitRowsPerPass), 0, stream>>>(
      in, stride_row, stride_k, stride_batch, rows, k, k_padded, out);
  return cudaGetLastError();
}

}  // namespace cutegen::gemm
