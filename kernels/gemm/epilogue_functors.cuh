// Epilogue functors: what happens to an fp32 accumulator on its way to C.
//
// The contract (a template parameter of the epilogue, passed to the kernel by value):
//   CUTE_DEVICE float apply(float acc, int row, int col, int batch) const;
// `row`, `col`, `batch` are the element's global coordinates in C, always in bounds. A functor
// is a trivially copyable struct; pointers it holds (bias, residual...) are device pointers.
#pragma once

#include <cute/config.hpp>

namespace cutegen::gemm {

struct IdentityEpilogue {
  CUTE_DEVICE float apply(float acc, int, int, int) const { return acc; }
};

// relu(acc + bias[col]): a linear layer's bias and activation fused into the store.
struct BiasReluEpilogue {
  float const* bias;  // N values
  CUTE_DEVICE float apply(float acc, int, int col, int) const {
    float v = acc + bias[col];
    return v > 0.f ? v : 0.f;
  }
};

}  // namespace cutegen::gemm
