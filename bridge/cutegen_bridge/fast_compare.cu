// The judge's quick check of a timed call (compare.py's compare_quick) in one pass over the candidate's
// and eager's float32 outputs: torch's formulation reads them about eight times, most of the judge's
// cost on large outputs. The evaluator builds this file like a candidate (cached) and the judge loads
// it with ctypes; without it the judge runs the torch formulation, which gives the same answer.
#include <cstdint>

#include <cuda_runtime.h>

// What the judge reads back (compare.py unpacks these 32 bytes).
struct CompareSums {
  unsigned long long bad;     // elements not within atol + rtol * |eager| (NaN included)
  unsigned int max_abs_bits;  // max |out - eager| over the close ones, a non-negative float's bits
  int out_nonzero;
  int eager_nonzero;
  int unused;
  double sum_abs;  // sum of |out - eager| over the close ones
};
static_assert(sizeof(CompareSums) == 32, "compare.py unpacks 32 bytes");

namespace {

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 4096;

struct Partial {
  unsigned long long bad = 0;
  float max_abs = 0.f;
  double sum_abs = 0.0;
  bool out_nonzero = false, eager_nonzero = false;

  __device__ void visit(float out, float eager, float atol, float rtol) {
    float diff = fabsf(out - eager);
    if (diff <= atol + rtol * fabsf(eager)) {  // false for NaN
      max_abs = fmaxf(max_abs, diff);
      sum_abs += diff;
    } else {
      ++bad;
    }
    out_nonzero |= out != 0.f;
    eager_nonzero |= eager != 0.f;
  }
};

__global__ void __launch_bounds__(kThreads)
    compare_outputs(const float* out, const float* eager, int64_t n, float atol, float rtol, CompareSums* sums) {
  Partial p;
  int64_t stride = int64_t(gridDim.x) * kThreads, first = int64_t(blockIdx.x) * kThreads + threadIdx.x;
  int64_t vector_end = 0;
  if (((reinterpret_cast<uintptr_t>(out) | reinterpret_cast<uintptr_t>(eager)) & 15) == 0) {
    auto o4 = reinterpret_cast<const float4*>(out);
    auto e4 = reinterpret_cast<const float4*>(eager);
    for (int64_t i = first; i < n / 4; i += stride) {
      float4 o = __ldcs(o4 + i), e = __ldcs(e4 + i);
      p.visit(o.x, e.x, atol, rtol);
      p.visit(o.y, e.y, atol, rtol);
      p.visit(o.z, e.z, atol, rtol);
      p.visit(o.w, e.w, atol, rtol);
    }
    vector_end = n / 4 * 4;
  }
  for (int64_t i = vector_end + first; i < n; i += stride)
    p.visit(__ldcs(out + i), __ldcs(eager + i), atol, rtol);

  for (int offset = 16; offset > 0; offset /= 2) {
    p.bad += __shfl_down_sync(0xffffffffu, p.bad, offset);
    p.max_abs = fmaxf(p.max_abs, __shfl_down_sync(0xffffffffu, p.max_abs, offset));
    p.sum_abs += __shfl_down_sync(0xffffffffu, p.sum_abs, offset);
  }
  bool out_nonzero = __any_sync(0xffffffffu, p.out_nonzero), eager_nonzero = __any_sync(0xffffffffu, p.eager_nonzero);
  if (threadIdx.x % 32 == 0) {  // one set of atomics per warp: 32 per block at most, few next to the loads
    if (p.bad) atomicAdd(&sums->bad, p.bad);
    atomicMax(&sums->max_abs_bits, __float_as_uint(p.max_abs));  // non-negative floats order as their bits
    atomicAdd(&sums->sum_abs, p.sum_abs);
    if (out_nonzero) atomicOr(&sums->out_nonzero, 1);
    if (eager_nonzero) atomicOr(&sums->eager_nonzero, 1);
  }
}

}  // namespace

// Compares n floats of `out` with `eager` on `stream` into `sums` (device memory); 0 or a cudaError_t.
extern "C" int cutegen_judge_compare(const float* out, const float* eager, int64_t n, float atol, float rtol,
                                     CompareSums* sums, cudaStream_t stream) {
  if (cudaError_t e = cudaMemsetAsync(sums, 0, sizeof(CompareSums), stream)) return e;
  int64_t blocks = (n / 4 + kThreads - 1) / kThreads;
  unsigned grid = blocks < 1 ? 1u : blocks < kMaxBlocks ? unsigned(blocks) : unsigned(kMaxBlocks);
  compare_outputs<<<grid, kThreads, 0, stream>>>(out, eager, n, atol, rtol, sums);
  return cudaGetLastError();
}
