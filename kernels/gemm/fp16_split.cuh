// Splitting an fp32 value into two fp16 values (hi + lo), for the fp16x3 GEMMs: 3xTF32's three
// products (hi*hi + hi*lo + lo*hi) on the fp16 tensor cores, which run at twice the tf32 rate.
//
// fp16 keeps 10 mantissa bits (as tf32 does) but only 5 exponent bits. hi is x rounded to nearest
// fp16; x - hi is exact in fp32, and lo is it rounded to nearest fp16. Within fp16's range
// (|x| < 65504) and while lo is normal (|x| >= 2^-3, so |lo| ~ 2^-11 |x| >= 2^-14),
//   |x - (hi + lo)| <= 2^-22 |x|;
// below that lo is subnormal, and the error is at most half its spacing, 2^-25 absolute: for
// operands of unit scale (KernelBench's rand and randn) a dot product within fp32's own rounding.
// So each operand is first scaled by a power of two, 2^fp16_scale_exponent(its largest magnitude),
// which puts that magnitude in [2^14, 2^15): nothing overflows, and lo is normal for every element
// within 2^17 of the largest; the epilogue undoes both scales (exact, powers of two), each 2^-k
// worked out once by the operand's split (Fp16x3Scales::unscale), not per element.
// cutlass::half_t converts on the host too, so the host unit test checks the very code the GPU runs.
#pragma once

#include <cstdint>

#include <cutlass/numeric_types.h>

#include "tf32_split.cuh"  // float_from_bits

namespace cutegen::gemm {

struct HalfPair {
  cutlass::half_t hi, lo;
};

// 2^k as a float, for k in [-126, 127].
CUTLASS_HOST_DEVICE float power_of_two(int k) { return float_from_bits(uint32_t(127 + k) << 23); }

// The exponent an operand whose largest magnitude has these fp32 bits is scaled by: 14 - floor(log2
// of it), at most 126 (a largest magnitude under 2^-112 is scaled less). 0 for an operand of zeros
// (or only subnormals: their products vanish in fp32 too) or one holding an infinity or NaN, which
// then reaches C as fp32 would pass it on.
CUTLASS_HOST_DEVICE int fp16_scale_exponent(uint32_t absmax_bits) {
  int e = int(absmax_bits >> 23) & 0xff;
  if (e == 0 || e == 255) return 0;
  int k = 141 - e;
  return k < -126 ? -126 : k > 126 ? 126 : k;
}

// An fp16x3 GEMM's operand scales, in the scratch its pre-passes share with its epilogue: operand
// i's (A 0, B 1) largest magnitude as fp32 bits (measure_operand), and the power of two that undoes
// its scale, 2^-fp16_scale_exponent(absmax[i]) (written by its split).
struct Fp16x3Scales {
  uint32_t absmax[2];
  float unscale[2];
};

// How the measure of an operand's largest magnitude (split_tf32_kernel.cuh measure_fp32_operand) deals
// the operand out: lines along its contiguous dim (a row of K, or a column where the rows are
// contiguous), each cut into chunks of kMeasureChunk elements, one warp's read at a time. Chunk u
// holds the elements first + i * step for i in [begin, end).
constexpr int kMeasureChunk = 2048;

struct MeasureLines {
  struct Chunk {
    int64_t first;
    int begin, end;
  };
  int64_t step, line_stride, batch_stride;
  int along, across, chunks;  // a line's length, the lines a batch, the chunks a line

  CUTLASS_HOST_DEVICE MeasureLines(int64_t stride_row, int64_t stride_k, int64_t stride_batch, int rows, int k) {
    bool const down_columns = stride_k != 1 && stride_row == 1;
    step = down_columns ? stride_row : stride_k, line_stride = down_columns ? stride_k : stride_row;
    batch_stride = stride_batch;
    along = down_columns ? rows : k, across = down_columns ? k : rows;
    chunks = (along + kMeasureChunk - 1) / kMeasureChunk;
  }
  CUTLASS_HOST_DEVICE int64_t units(int batches) const { return int64_t(across) * chunks * batches; }
  CUTLASS_HOST_DEVICE Chunk chunk(int64_t unit) const {
    int64_t const line = unit / chunks;
    int const begin = int(unit % chunks) * kMeasureChunk;
    return {line / across * batch_stride + line % across * line_stride, begin,
            along - begin < kMeasureChunk ? along : begin + kMeasureChunk};
  }
};

CUTLASS_HOST_DEVICE HalfPair split_half(float x) {
  cutlass::half_t hi(x);  // round to nearest even
  return {hi, cutlass::half_t(x - float(hi))};
}

}  // namespace cutegen::gemm
