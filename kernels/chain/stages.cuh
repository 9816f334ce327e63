// The stages of a level-2 chain after its anchor (a GEMM or a convolution): one kernel each over the
// value before it (dense, row-major, in fp32), writing the next. Reductions, softmax and the
// normalizations are row stages; pools are pool stages; a last stage whose ops broadcast its value
// over more elements applies them in a broadcast stage after it. The pointwise ops after a stage (and a
// norm's affine parameters) are its Functor, applied to each value as it is stored:
//   CUTE_DEVICE float apply(float v, int64_t i) const;  // i: the value's row-major index in the output
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include <cute/tensor.hpp>

#include "common/prelude.cuh"

namespace cutegen::chain {

enum class RowOp { kSum, kMean, kMax, kMin, kLogSumExp, kSoftmax, kLogSoftmax, kNorm };

// A row stage's view of its input: row r's element j is at index Rows{}(r) + Elems{}(j), two CuTe
// layouts over the input's row-major index (the kept dims and the reduced ones, innermost first).
// Reductions write one value per row, at index r; softmax and norms write each element where they
// read it. kThreads threads per row: a warp for short rows (8 rows per CTA), the CTA otherwise,
// and one where short rows run across the innermost dim (softmax over channels, a min over depth):
// a warp then reads 32 neighbouring rows' elements side by side, where a warp per row would read
// each of its elements from another line (row_stage_threads).
template <RowOp Op, class Rows, class Elems, int kThreads, class Functor>
__global__ void __launch_bounds__(256)
    row_stage_kernel(float const* __restrict__ in, float* __restrict__ out, Functor f, float eps) {
  using namespace cute;
  constexpr int64_t kRows = size(Rows{}), kLength = size(Elems{});
  __shared__ float smem[256 / 32];
  const int lane = threadIdx.x % kThreads;
  const int64_t r = int64_t(blockIdx.x) * (256 / kThreads) + threadIdx.x / kThreads;
  if (r >= kRows) return;  // a whole warp, or the whole CTA when a row takes it
  const int64_t base = Rows{}(r);
  auto at = [&](int64_t j) { return base + Elems{}(j); };
  auto reduce = [&](float v, auto combine) {
    if constexpr (kThreads == 1)
      return v;
    else if constexpr (kThreads == 32)
      return cg_expert::warp_reduce(v, combine);
    else
      return cg_expert::block_reduce<kThreads>(v, combine, smem);
  };
  auto add = [](float a, float b) { return a + b; };
  auto larger = [](float a, float b) { return fmaxf(a, b); };
  auto smaller = [](float a, float b) { return fminf(a, b); };
  if constexpr (Op == RowOp::kSum || Op == RowOp::kMean) {
    float s = 0.f;
    for (int64_t j = lane; j < kLength; j += kThreads)
      s += in[at(j)];
    s = reduce(s, add);
    if (lane == 0) out[r] = f.apply(Op == RowOp::kMean ? s / float(kLength) : s, r);
  } else if constexpr (Op == RowOp::kMax || Op == RowOp::kMin) {
    float m = Op == RowOp::kMax ? -INFINITY : INFINITY;
    for (int64_t j = lane; j < kLength; j += kThreads)
      m = Op == RowOp::kMax ? fmaxf(m, in[at(j)]) : fminf(m, in[at(j)]);
    m = Op == RowOp::kMax ? reduce(m, larger) : reduce(m, smaller);
    if (lane == 0) out[r] = f.apply(m, r);
  } else if constexpr (Op == RowOp::kNorm) {
    // Two passes (the row is read from L2 again): the mean, then the biased variance about it.
    float s = 0.f;
    for (int64_t j = lane; j < kLength; j += kThreads)
      s += in[at(j)];
    const float mean = reduce(s, add) / float(kLength);
    float q = 0.f;
    for (int64_t j = lane; j < kLength; j += kThreads) {
      float d = in[at(j)] - mean;
      q += d * d;
    }
    const float rstd = rsqrtf(reduce(q, add) / float(kLength) + eps);
    for (int64_t j = lane; j < kLength; j += kThreads)
      out[at(j)] = f.apply((in[at(j)] - mean) * rstd, at(j));
  } else {  // softmax, log-softmax, logsumexp: the row's max, then the sum of exp(x - max)
    float m = -INFINITY;
    for (int64_t j = lane; j < kLength; j += kThreads)
      m = fmaxf(m, in[at(j)]);
    m = reduce(m, larger);
    const float shift = m == -INFINITY ? 0.f : m;  // a row of -inf: exp(-inf - 0) = 0, no NaN
    float s = 0.f;
    for (int64_t j = lane; j < kLength; j += kThreads)
      s += expf(in[at(j)] - shift);
    s = reduce(s, add);
    if constexpr (Op == RowOp::kLogSumExp) {
      if (lane == 0) out[r] = f.apply(shift + logf(s), r);
    } else {
      const float log_s = logf(s), inv_s = 1.f / s;
      for (int64_t j = lane; j < kLength; j += kThreads) {
        float x = in[at(j)] - shift;
        out[at(j)] = f.apply(Op == RowOp::kSoftmax ? expf(x) * inv_s : x - log_s, at(j));
      }
    }
  }
}

template <class Rows, class Elems>
constexpr int row_stage_threads() {
  constexpr int64_t kRows = cute::size(Rows{}), kLength = cute::size(Elems{});
  if constexpr (cute::rank(Rows{}) > 0 && cute::rank(Elems{}) > 0) {
    constexpr int64_t kRowStride = cute::stride<0>(Rows{}), kElemStride = cute::stride<0>(Elems{});
    if (kRowStride == 1 && kElemStride != 1 && kLength <= 256 && kRows >= 32 * 1024) return 1;
  }
  return kLength >= 1024 ? 256 : 32;
}

template <RowOp Op, class Rows, class Elems, class Functor>
cudaError_t row_stage(float const* in, float* out, Functor f, float eps, cudaStream_t stream) {
  constexpr int64_t kRows = cute::size(Rows{});
  constexpr int kThreads = row_stage_threads<Rows, Elems>(), kRowsPerCta = 256 / kThreads;
  row_stage_kernel<Op, Rows, Elems, kThreads, Functor>
      <<<unsigned((kRows + kRowsPerCta - 1) / kRowsPerCta), 256, 0, stream>>>(in, out, f, eps);
  return cudaGetLastError();
}

// A norm (group, instance or batch statistics) whose statistics the anchor's epilogue summed: per
// (image, channel) the sum and the sum of squares, in double (kernels/conv/fused_reduction.cuh
// kStats). Row r's channels' pairs are at 2 (StatRows{}(r) + StatElems{}(j)) of `stats`; the row's
// mean and biased variance come from their totals in double, then one pass normalizes the row
// (Rows, Elems as row_stage's), a CTA per row.
template <class Rows, class Elems, class StatRows, class StatElems, class Functor>
__global__ void __launch_bounds__(256)
    norm_stats_stage_kernel(float const* __restrict__ in, double const* __restrict__ stats, float* __restrict__ out,
                            Functor f, float eps) {
  using namespace cute;
  constexpr int64_t kLength = size(Elems{}), kStatElems = size(StatElems{});
  __shared__ double smem[256 / 32];
  const int64_t r = blockIdx.x, base = Rows{}(r), stat_base = StatRows{}(r);
  double s = 0, q = 0;
  for (int64_t j = threadIdx.x; j < kStatElems; j += 256) {
    double const* pair = stats + 2 * (stat_base + StatElems{}(j));
    s += pair[0], q += pair[1];
  }
  auto add = [](double a, double b) { return a + b; };
  s = cg_expert::block_reduce<256>(s, add, smem);
  q = cg_expert::block_reduce<256>(q, add, smem);
  const double mean = s / double(kLength), variance = q / double(kLength) - mean * mean;
  const float m = float(mean), rstd = float(1.0 / sqrt((variance > 0 ? variance : 0.0) + double(eps)));
  for (int64_t j = threadIdx.x; j < kLength; j += 256) {
    const int64_t at = base + Elems{}(j);
    out[at] = f.apply((in[at] - m) * rstd, at);
  }
}

template <class Rows, class Elems, class StatRows, class StatElems, class Functor>
cudaError_t norm_stats_stage(float const* in, double const* stats, float* out, Functor f, float eps,
                             cudaStream_t stream) {
  norm_stats_stage_kernel<Rows, Elems, StatRows, StatElems, Functor>
      <<<unsigned(cute::size(Rows{})), 256, 0, stream>>>(in, stats, out, f, eps);
  return cudaGetLastError();
}

// A pool over the trailing Spec::kPooled dims of a row-major input of shape Spec::in (output
// Spec::out), one thread per output: the max (padding never wins), or the average with PyTorch's
// divisor (the window clipped to the padded input, or to the input when padding is not counted).
// Spec: kRank, kPooled, kWindowSize, kOutSize, kMax, kCountPad, and per dim in(d), out(d) (all dims),
// window(d), stride(d), pad(d), dilation(d) (pooled dims).
template <class Spec, class Functor>
__global__ void __launch_bounds__(256)
    pool_stage_kernel(float const* __restrict__ in, float* __restrict__ out, Functor f) {
  constexpr int kOuterDims = Spec::kRank - Spec::kPooled;
  const int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= Spec::kOutSize) return;
  int64_t outer = i, start[Spec::kPooled], plane = 1;
  int64_t pool = 1, valid = 1;
  CUTE_UNROLL
  for (int d = Spec::kPooled - 1; d >= 0; --d) {
    const int64_t in_d = Spec::in(kOuterDims + d);
    start[d] = outer % Spec::out(kOuterDims + d) * Spec::stride(d) - Spec::pad(d);
    outer /= Spec::out(kOuterDims + d);
    plane *= in_d;
    const int64_t end = cute::min(start[d] + Spec::window(d), in_d + Spec::pad(d));
    pool *= end - start[d];
    valid *= cute::min(end, in_d) - cute::max(start[d], int64_t(0));
  }
  float const* src = in + outer * plane;
  float acc = Spec::kMax ? -INFINITY : 0.f;
  CUTE_UNROLL
  for (int w = 0; w < Spec::kWindowSize; ++w) {
    int64_t offset = 0, rest = w, scale = 1;
    bool inside = true;
    CUTE_UNROLL
    for (int d = Spec::kPooled - 1; d >= 0; --d) {
      const int64_t h = start[d] + rest % Spec::window(d) * Spec::dilation(d);
      rest /= Spec::window(d);
      inside = inside && h >= 0 && h < Spec::in(kOuterDims + d);
      offset += h * scale;
      scale *= Spec::in(kOuterDims + d);
    }
    if (inside) acc = Spec::kMax ? fmaxf(acc, src[offset]) : acc + src[offset];
  }
  out[i] = f.apply(Spec::kMax ? acc : acc / float(Spec::kCountPad ? pool : valid), i);
}

template <class Spec, class Functor>
cudaError_t pool_stage(float const* in, float* out, Functor f, cudaStream_t stream) {
  pool_stage_kernel<Spec, Functor><<<unsigned((Spec::kOutSize + 255) / 256), 256, 0, stream>>>(in, out, f);
  return cudaGetLastError();
}

// The last stage's pointwise ops where they broadcast its value over more elements than it has (a
// reduction's result added to a tensor of the shape it reduced): a thread per output element i
// (row-major), the value read at Source{}(i), a static CuTe layout with stride 0 along the
// broadcast dims; memory-bound on the output and the operands the ops read.
template <class Source, class Functor>
__global__ void __launch_bounds__(256)
    broadcast_stage_kernel(float const* __restrict__ in, float* __restrict__ out, int64_t size, Functor f) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < size; i += int64_t(gridDim.x) * blockDim.x)
    out[i] = f.apply(in[Source{}(i)], i);
}

template <class Source, class Functor>
cudaError_t broadcast_stage(float const* in, float* out, int64_t size, Functor f, cudaStream_t stream) {
  int64_t blocks = (size + 255) / 256;
  broadcast_stage_kernel<Source, Functor>
      <<<unsigned(blocks < 65535 * 8 ? blocks : 65535 * 8), 256, 0, stream>>>(in, out, size, f);
  return cudaGetLastError();
}

}  // namespace cutegen::chain
