// The fp32 pre-pass: writes an fp32 operand K-major (tf32 wgmma reads only K-major operands), its
// rows padded (the pad zero) so TMA's 16-byte row alignment holds. Either whole:
//   row r = [ A[r, :] ]                        (SplitParts::Whole, K padded to 4: for the fp32
//                                               kernels that split in the mainloop, mainloop_3xtf32.cuh)
// or split into tf32 parts for a plain tf32 GEMM over K' = 3 * K (padded to 32), each 32-wide k-tile t
// of the operand becoming three k-tiles of the GEMM, so that their products are the 3xTF32 terms of
// that k-tile, small ones first (the order of mainloop_3xtf32.cuh):
//   A' row r = [ ... | hi(A[r, t]) | lo(A[r, t]) | hi(A[r, t]) | ... ]   (SplitParts::HiLoHi)
//   B' row n = [ ... | lo(B[t, n]) | hi(B[t, n]) | hi(B[t, n]) | ... ]   (SplitParts::LoHiHi)
// or into two parts per k-tile, for the kernel that splits A in registers (mainloop_register_split.cuh)
// and, with A's as HiLo, for the one whose products cross a pair of stages (mainloop_paired_parts.cuh):
//   B' row n = [ ... | lo(B[t, n]) | hi(B[t, n]) | ... ]                 (SplitParts::LoHi)
//   A' row r = [ ... | hi(A[r, t]) | lo(A[r, t]) | ... ]                 (SplitParts::HiLo)
// The parts are tf32 (kept as fp32 bits, `Part` float) or, for the fp16x3 GEMMs, fp16 (`Part`
// cutlass::half_t, fp16_split.cuh), laid out in the GEMM's 128-byte k-tiles: 32 or 64 elements.
// The GEMM promotes its tensor-core partial into the fp32 accumulator every few k-tiles
// (Config::PromoteSpan); the error of one long tensor-core sum grows with K
// (tests/tf32_accumulation_test.cc).
// A transposed input is transposed here, through a shared-memory tile so both the reads and the
// writes are coalesced.
#pragma once

#include <algorithm>
#include <cstdint>

#include <cuda_runtime.h>

#include "fp16_split.cuh"
#include "tf32_split.cuh"

namespace cutegen::gemm {

enum class SplitParts { Whole, HiLoHi, LoHiHi, LoHi, HiLo };

template <SplitParts Parts>
inline constexpr int kSplitPartCount = Parts == SplitParts::Whole                               ? 1
                                       : Parts == SplitParts::LoHi || Parts == SplitParts::HiLo ? 2
                                                                                                : 3;

constexpr int kSplitTile = 32;        // also the tf32 GEMM's k-tile, which the split parts are laid out in
constexpr int kSplitRowsPerPass = 8;  // the block is kSplitTile x kSplitRowsPerPass threads

// The k-tile a part of this type is laid out in: one 128-byte swizzle row of the GEMM's element.
template <class Part>
inline constexpr int kPartTile = 128 / int(sizeof(Part));

// K as written per part: to 4 for the whole operand, to whole k-tiles for the split parts.
template <SplitParts Parts = SplitParts::Whole, class Part = float>
constexpr int split_k_padded(int k) {
  int to = Parts == SplitParts::Whole ? 4 : kPartTile<Part>;
  return (k + to - 1) / to * to;
}

// Elements per written row: all of a row's parts.
template <SplitParts Parts, class Part = float>
constexpr int64_t split_row_length(int k) {
  return int64_t(kSplitPartCount<Parts>) * split_k_padded<Parts, Part>(k);
}

template <class Part>
__device__ inline auto split_part(float x) {
  if constexpr (sizeof(Part) == 2)
    return split_half(x);
  else
    return split_tf32(x);
}

// The block's 32 x 32 tile of batch blockIdx.z: f(j, i, v) for each element this thread reads, v the
// element at tile row j, column i ([row][k], zero outside the operand), read with threadIdx.x along
// whichever of (row, k) is contiguous in memory.
template <class F>
__device__ void for_tile_elements(float const* in, int64_t stride_row, int64_t stride_k, int64_t stride_batch, int rows,
                                  int k, F&& f) {
  int k0 = int(blockIdx.x) * kSplitTile;
  int row0 = int(blockIdx.y) * kSplitTile;
  float const* src = in + int64_t(blockIdx.z) * stride_batch;
  bool k_contiguous = stride_k == 1;
  for (int j = int(threadIdx.y); j < kSplitTile; j += kSplitRowsPerPass) {
    int r = row0 + (k_contiguous ? j : int(threadIdx.x));
    int kk = k0 + (k_contiguous ? int(threadIdx.x) : j);
    float v = r < rows && kk < k ? src[r * stride_row + kk * stride_k] : 0.0f;
    if (k_contiguous)
      f(j, int(threadIdx.x), v);
    else
      f(int(threadIdx.x), j, v);
  }
}

// Grid: (ceil(k_padded / 32), ceil(rows / 32), batches); block (32, 8).
// in(row, k, batch) = in[row * stride_row + k * stride_k + batch * stride_batch];
// out is [batches][rows][kSplitPartCount<Parts> * k_padded]. fp16 parts are of the operand scaled by
// 2^fp16_scale_exponent(*absmax) (fp16_split.cuh), whose inverse the first thread writes to *unscale.
template <SplitParts Parts, class Part>
__global__ void split_fp32_operand(float const* in, int64_t stride_row, int64_t stride_k, int64_t stride_batch,
                                   int rows, int k, int k_padded, Part* out, uint32_t const* absmax, float* unscale) {
  __shared__ float tile[kSplitTile][kSplitTile + 1];  // [row][k], +1 against bank conflicts
  for_tile_elements(in, stride_row, stride_k, stride_batch, rows, k, [&](int j, int i, float v) { tile[j][i] = v; });
  __syncthreads();
  int kk = int(blockIdx.x) * kSplitTile + int(threadIdx.x);
  int row0 = int(blockIdx.y) * kSplitTile;
  float scale = 1.0f;
  if constexpr (sizeof(Part) == 2) {
    int const e = fp16_scale_exponent(*absmax);
    scale = power_of_two(e);
    if (blockIdx.x + blockIdx.y + blockIdx.z + threadIdx.x + threadIdx.y == 0) *unscale = power_of_two(-e);
  }
  if (kk >= k_padded) return;
  int64_t row_length = kSplitPartCount<Parts> * int64_t(k_padded);
  Part* dst = out + int64_t(blockIdx.z) * rows * row_length;
  for (int j = int(threadIdx.y); j < kSplitTile; j += kSplitRowsPerPass) {
    int r = row0 + j;
    if (r >= rows) break;
    if constexpr (Parts == SplitParts::Whole) {
      dst[r * row_length + kk] = tile[j][threadIdx.x];
      continue;
    }
    // The part k-tile holding kk becomes two or three consecutive k-tiles of the row.
    constexpr int T = kPartTile<Part>;
    Part* row = dst + r * row_length + kSplitPartCount<Parts> * int64_t(kk / T * T) + kk % T;
    auto p = split_part<Part>(tile[j][threadIdx.x] * scale);
    constexpr bool hi_first = Parts == SplitParts::HiLoHi || Parts == SplitParts::HiLo;
    row[0] = hi_first ? p.hi : p.lo;
    row[T] = hi_first ? p.lo : p.hi;
    if constexpr (kSplitPartCount<Parts> == 3) row[2 * T] = p.hi;
  }
}

// The largest magnitude of an operand, into *absmax as fp32 bits (which order as the magnitudes do),
// which the caller zeroes first. Each warp reads chunks of a line (MeasureLines, fp16_split.cuh), its
// lanes along the line with four loads in flight; the chunks are dealt over a grid of at most
// kMeasureBlocks blocks, and each block's largest goes out in one atomic. (The measure before it took
// an atomic a warp, one per 128 elements: 2.6 million on one address for level 1's 3, whose fp16x3
// kernel ran 5.17 ms on an H100 where 3xTF32 ran 4.2.) Templated (on the operand's element, float) so
// that only the units that launch it compile it.
constexpr int kMeasureThreads = 256;
constexpr int kMeasureBlocks = 1024;  // about eight of kMeasureThreads an SM on an H100 or H200

template <class T>
__global__ void measure_fp32_operand(T const* in, MeasureLines lines, int batches, uint32_t* absmax) {
  int64_t const units = lines.units(batches), warps = int64_t(gridDim.x) * (kMeasureThreads / 32);
  int64_t const step = lines.step;
  int const lane = int(threadIdx.x) % 32;
  uint32_t most = 0;
  auto take = [&](float v) {
    uint32_t bits = __float_as_uint(v) & 0x7fffffffu;
    most = bits > most ? bits : most;
  };
  for (int64_t unit = (int64_t(blockIdx.x) * kMeasureThreads + threadIdx.x) / 32; unit < units; unit += warps) {
    MeasureLines::Chunk const c = lines.chunk(unit);
    T const* src = in + c.first;
    int i = c.begin + lane;
    for (; i + 96 < c.end; i += 128) {
      float v0 = src[i * step], v1 = src[(i + 32) * step], v2 = src[(i + 64) * step], v3 = src[(i + 96) * step];
      take(v0), take(v1), take(v2), take(v3);
    }
    for (; i < c.end; i += 32)
      take(src[i * step]);
  }
  most = __reduce_max_sync(0xffffffffu, most);
  __shared__ uint32_t warp_most[kMeasureThreads / 32];
  if (lane == 0) warp_most[threadIdx.x / 32] = most;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (uint32_t w : warp_most)
      most = w > most ? w : most;
    atomicMax(absmax, most);
  }
}

// Launches the pre-pass of a (rows x k) operand per batch into `out`
// ([batches][rows][kSplitPartCount<Parts> * k_padded]). fp16 parts take the operand's largest
// magnitude, measured by measure_operand, from `absmax`, and write the inverse of their scale to `unscale`.
template <SplitParts Parts, class Part = float>
cudaError_t split_operand(float const* in, int64_t stride_row, int64_t stride_k, int64_t stride_batch, int rows, int k,
                          int batches, Part* out, cudaStream_t stream, uint32_t const* absmax = nullptr,
                          float* unscale = nullptr) {
  static_assert(sizeof(Part) == 4 || Parts == SplitParts::HiLoHi || Parts == SplitParts::LoHiHi,
                "fp16 parts come three to a k-tile");
  int k_padded = split_k_padded<Parts, Part>(k);
  dim3 grid((k_padded + kSplitTile - 1) / kSplitTile, (rows + kSplitTile - 1) / kSplitTile, batches);
  split_fp32_operand<Parts, Part><<<grid, dim3(kSplitTile, kSplitRowsPerPass), 0, stream>>>(
      in, stride_row, stride_k, stride_batch, rows, k, k_padded, out, absmax, unscale);
  return cudaGetLastError();
}

// Raises *absmax (zeroed by the caller, fp32 bits) to a (rows x k) operand's largest magnitude.
template <class T>
cudaError_t measure_operand(T const* in, int64_t stride_row, int64_t stride_k, int64_t stride_batch, int rows, int k,
                            int batches, uint32_t* absmax, cudaStream_t stream) {
  constexpr int kWarps = kMeasureThreads / 32;
  MeasureLines lines(stride_row, stride_k, stride_batch, rows, k);
  int blocks =
      int(std::max<int64_t>(1, std::min<int64_t>(kMeasureBlocks, (lines.units(batches) + kWarps - 1) / kWarps)));
  measure_fp32_operand<T><<<blocks, kMeasureThreads, 0, stream>>>(in, lines, batches, absmax);
  return cudaGetLastError();
}

}  // namespace cutegen::gemm
