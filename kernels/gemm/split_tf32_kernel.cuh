// The 3xTF32 pre-pass: splits an fp32 operand into the K-concatenated tf32 operand of a plain
// tf32 GEMM whose K' = 3 * k_padded sum is ah*bh + ah*bl + al*bh:
//   A' row r = [ hi(A[r, :]) | hi(A[r, :]) | lo(A[r, :]) ]     (SplitParts::HiHiLo)
//   B' row n = [ hi(B[:, n]) | lo(B[:, n]) | hi(B[:, n]) ]     (SplitParts::HiLoHi)
// Each part is k_padded long (K rounded up to 4 so TMA's 16-byte row alignment holds), the pad
// zero. The output is K-major (tf32 wgmma reads only K-major operands), so a transposed input is
// transposed here, through a shared-memory tile so both the reads and the writes are coalesced.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "tf32_split.cuh"

namespace cutegen::gemm {

enum class SplitParts { HiHiLo, HiLoHi };

constexpr int kSplitTile = 32;
constexpr int kSplitRowsPerPass = 8;  // the block is kSplitTile x kSplitRowsPerPass threads

constexpr int split_k_padded(int k) { return (k + 3) / 4 * 4; }

// Grid: (ceil(k_padded / 32), ceil(rows / 32), batches); block (32, 8).
// in(row, k, batch) = in[row * stride_row + k * stride_k + batch * stride_batch];
// out is [batches][rows][3 * k_padded].
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
    if (k_contiguous) tile[j][threadIdx.x] = v;
    else tile[threadIdx.x][j] = v;
  }
  __syncthreads();
  int kk = k0 + int(threadIdx.x);
  if (kk >= k_padded) return;
  int64_t row_length = 3 * int64_t(k_padded);
  float* dst = out + int64_t(blockIdx.z) * rows * row_length;
  for (int j = int(threadIdx.y); j < kSplitTile; j += kSplitRowsPerPass) {
    int r = row0 + j;
    if (r >= rows) break;
    Tf32Pair p = split_tf32(tile[j][threadIdx.x]);
    float* row = dst + r * row_length + kk;
    row[0] = p.hi;
    row[k_padded] = Parts == SplitParts::HiHiLo ? p.hi : p.lo;
    row[2 * int64_t(k_padded)] = Parts == SplitParts::HiHiLo ? p.lo : p.hi;
  }
}

// Launches the split of a (rows x k) operand per batch into `out` ([batches][rows][3 * k_padded]).
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
