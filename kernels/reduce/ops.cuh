// The reductions, each a struct of hooks that the reduction kernels (rows.cuh, columns.cuh) take as
// their `Op` template parameter: identity(), combine(a, b) and finalize(acc, extent), the stored value.
// Ties in argmax/argmin go to the first index and NaN ranks above and below everything, as in torch.
#pragma once

#include <type_traits>

#include "common/prelude.cuh"

namespace cg_reduce {

struct Acc {
  float v;
  int64_t i;  // index along the reduced dim (argmax/argmin)
};

// Whether b replaces a in argmax/argmin, given `b_better` for two numbers: torch ranks NaN above
// (and below) everything, the first one winning. Selects, not branches, so that ptxas keeps a
// thread's loads batched (with branches it issued one load per combine).
__device__ __forceinline__ bool b_wins(Acc a, Acc b, bool b_better) {
  bool a_nan = a.v != a.v, b_nan = b.v != b.v;
  return (a_nan | b_nan) ? (!a_nan | (b_nan & (b.i <= a.i))) : b_better;
}

struct Sum {
  __device__ __forceinline__ static Acc identity() { return Acc{0.0f, 0}; }
  __device__ __forceinline__ static Acc combine(Acc a, Acc b) { return Acc{a.v + b.v, 0}; }
  __device__ __forceinline__ static float finalize(Acc const& acc, int64_t extent) {
    (void)extent;
    return acc.v;
  }
};
// ATen scales the sum by 1/N too (a multiply, not a division).
struct Mean : Sum {
  __device__ __forceinline__ static float finalize(Acc const& acc, int64_t extent) {
    return acc.v * (1.0f / float(extent));
  }
};
struct Max {
  __device__ __forceinline__ static Acc identity() { return Acc{-INFINITY, 0}; }
  __device__ __forceinline__ static Acc combine(Acc a, Acc b) { return Acc{cg_expert::nan_max(a.v, b.v), 0}; }
  __device__ __forceinline__ static float finalize(Acc const& acc, int64_t extent) {
    (void)extent;
    return acc.v;
  }
};
struct Min {
  __device__ __forceinline__ static Acc identity() { return Acc{INFINITY, 0}; }
  __device__ __forceinline__ static Acc combine(Acc a, Acc b) { return Acc{cg_expert::nan_min(a.v, b.v), 0}; }
  __device__ __forceinline__ static float finalize(Acc const& acc, int64_t extent) {
    (void)extent;
    return acc.v;
  }
};
struct ArgMax {
  __device__ __forceinline__ static Acc identity() { return Acc{-INFINITY, INT64_MAX}; }
  __device__ __forceinline__ static Acc combine(Acc a, Acc b) {
    return cg_reduce::b_wins(a, b, (b.v > a.v) | ((b.v == a.v) & (b.i < a.i))) ? b : a;
  }
  __device__ __forceinline__ static int64_t finalize(Acc const& acc, int64_t extent) {
    (void)extent;
    return acc.i == INT64_MAX ? 0 : acc.i;
  }
};
struct ArgMin {
  __device__ __forceinline__ static Acc identity() { return Acc{INFINITY, INT64_MAX}; }
  __device__ __forceinline__ static Acc combine(Acc a, Acc b) {
    return cg_reduce::b_wins(a, b, (b.v < a.v) | ((b.v == a.v) & (b.i < a.i))) ? b : a;
  }
  __device__ __forceinline__ static int64_t finalize(Acc const& acc, int64_t extent) {
    (void)extent;
    return acc.i == INT64_MAX ? 0 : acc.i;
  }
};

// The value stored for a reduced row of `extent` elements.
template <class Op, class TOut>
__device__ __forceinline__ TOut result(Acc const& acc, int64_t extent) {
  if constexpr (std::is_same_v<TOut, int64_t>)
    return int64_t(Op::finalize(acc, extent));
  else
    return cg_expert::from_f<TOut>(Op::finalize(acc, extent));
}

}  // namespace cg_reduce
using cg_reduce::Acc;
