// Splitting an fp32 value into two fp16 values (hi + lo), for the fp16x3 GEMMs: 3xTF32's three
// products (hi*hi + hi*lo + lo*hi) on the fp16 tensor cores, which run at twice the tf32 rate.
//
// fp16 keeps 10 mantissa bits (as tf32 does) but only 5 exponent bits. hi is x rounded to nearest
// fp16; x - hi is exact in fp32, and lo is it rounded to nearest fp16. Within fp16's range
// (|x| < 65504) and while lo is normal (|x| >= 2^-3, so |lo| ~ 2^-11 |x| >= 2^-14),
//   |x - (hi + lo)| <= 2^-22 |x|;
// below that lo is subnormal, and the error is at most half its spacing, 2^-25 absolute: for
// operands of unit scale (KernelBench's rand and randn) a dot product within fp32's own rounding.
// Outside the range hi is infinite: the expert offers these parts only as a search point, which the
// evaluator checks on the task's inputs (docs/decisions.md gemm-fp16x3).
// cutlass::half_t converts on the host too, so the host unit test checks the very code the GPU runs.
#pragma once

#include <cutlass/numeric_types.h>

namespace cutegen::gemm {

struct HalfPair {
  cutlass::half_t hi, lo;
};

CUTLASS_HOST_DEVICE HalfPair split_half(float x) {
  cutlass::half_t hi(x);  // round to nearest even
  return {hi, cutlass::half_t(x - float(hi))};
}

}  // namespace cutegen::gemm
