// The row normalizations, each a struct of hooks (stats.cuh says what each hook does). Softmax and
// LogSoftmax are complete; LayerNorm and Scale take the instance's constants and expressions from
// the struct that derives from them (the generated instance: eps and 1/extent, or the value reduced
// per element and the output).
#pragma once

#include "rownorm/stats.cuh"

namespace cg_norm {

// The maximum m of a row held in registers, then the sum s of `each(x, m, s)` over its elements; two
// reductions of one instruction each beat one online reduction whose combine takes exponentials (on
// the H200, softmax over 37 rows of 1001: 3.84 -> 2.88 us of GPU time, Triton's 2.82; log-softmax
// over 32768 rows of 1000: 0.0694 -> 0.0677 ms).
template <class ForEach, class Reduce, class Each>
__device__ __forceinline__ float2 held_max_then_sum(ForEach for_each, Reduce reduce, Each each) {
  float m = -INFINITY;
  for_each([&](float& x) { m = fmaxf(m, x); });
  m = reduce(m, [](float p, float q) { return fmaxf(p, q); });
  float s = 0.0f;
  for_each([&](float& x) { each(x, m, s); });
  s = reduce(s, [](float p, float q) { return p + q; });
  return make_float2(m, s);
}

// Softmax's and log-softmax's statistic: the maximum a and the sum b of exponentials below it.
template <class Norm>
struct MaxSumExp : NormHooks<Norm> {
  __device__ __forceinline__ static Stat identity() { return Stat{-INFINITY, 0.0f, 0.0f}; }
  // Per element, the fast exponential (ex2.approx; 2 + 1.2|x| ulp, far inside any tolerance, and what
  // torch.compile's kernels use): the accurate expf made a row held in a cluster compute-bound.
  __device__ __forceinline__ static void update(Stat& st, float x) {
    if (x > st.a) {
      st.b = st.b * __expf(st.a - x) + 1.0f;
      st.a = x;
    } else {
      st.b += __expf(x - st.a);
    }
  }
  __device__ __forceinline__ static Stat combine(Stat p, Stat q) {
    float m = fmaxf(p.a, q.a);
    if (m == -INFINITY) return Stat{m, 0.0f, 0.0f};
    return Stat{m, p.b * expf(p.a - m) + q.b * expf(q.a - m), 0.0f};
  }
  // A thread's maximum, then its sum of exponentials, each pass over its share of the chunk in shared
  // memory. One exponential per element and no branch. On the H200, KernelBench softmax held by a
  // cooperative grid: 4.33 ms with the online update, 3.90 with this (3.80 with the meeting in one
  // warp too); 16384 rows of 64 KB in 1-CTA clusters: 0.611 -> 0.553.
  template <class ForEach>
  __device__ __forceinline__ static Stat partial(ForEach for_each) {
    float m = -INFINITY;
    for_each([&](float x) { m = fmaxf(m, x); });
    if (m == -INFINITY) return identity();
    float s = 0.0f;
    for_each([&](float x) { s += __expf(x - m); });
    return Stat{m, s, 0.0f};
  }
};

struct Softmax : MaxSumExp<Softmax> {
  __device__ __forceinline__ static Stat finalize(Stat st) { return Stat{st.a, 1.0f / st.b, 0.0f}; }
  __device__ __forceinline__ static float apply_to(float x, Stat st, float w, float b) {
    (void)w;
    (void)b;
    return __expf(x - st.a) * st.b;
  }
  // The exponentials stay in the registers for the output.
  template <class ForEach, class Reduce, class Tree, class PerThread>
  __device__ __forceinline__ static Stat held_stats(ForEach for_each, Reduce reduce, Tree, PerThread) {
    const float2 ms = held_max_then_sum(for_each, reduce, [](float& x, float m, float& s) {
      x = __expf(x - m);
      s += x;
    });
    return Stat{ms.x, 1.0f / ms.y, 0.0f};
  }
  __device__ __forceinline__ static float held_apply_to(float x, Stat st, float w, float b) {
    (void)w;
    (void)b;
    return x * st.b;
  }
};

struct LogSoftmax : MaxSumExp<LogSoftmax> {
  __device__ __forceinline__ static Stat finalize(Stat st) { return Stat{st.a + logf(st.b), 0.0f, 0.0f}; }
  __device__ __forceinline__ static float apply_to(float x, Stat st, float w, float b) {
    (void)w;
    (void)b;
    return x - st.a;
  }
  template <class ForEach, class Reduce, class Tree, class PerThread>
  __device__ __forceinline__ static Stat held_stats(ForEach for_each, Reduce reduce, Tree, PerThread) {
    const float2 ms = held_max_then_sum(for_each, reduce, [](float& x, float m, float& s) { s += __expf(x - m); });
    return Stat{ms.x + logf(ms.y), 0.0f, 0.0f};
  }
};

// LayerNorm: Welford's count a, mean b and squared deviations c. Norm supplies kEps, kInvExtent (1 /
// the row's length), kWeight and kBias.
template <class Norm>
struct LayerNorm : NormHooks<Norm> {
  __device__ __forceinline__ static Stat identity() { return Stat{0.0f, 0.0f, 0.0f}; }
  __device__ __forceinline__ static void update(Stat& st, float x) {
    st.a += 1.0f;
    float d = x - st.b;
    st.b += d / st.a;
    st.c += d * (x - st.b);
  }
  __device__ __forceinline__ static Stat combine(Stat p, Stat q) {
    float n = p.a + q.a;
    if (n == 0.0f) return p;
    float d = q.b - p.b, w = q.a / n;
    return Stat{n, p.b + d * w, p.c + q.c + d * d * p.a * w};
  }
  __device__ __forceinline__ static Stat finalize(Stat st) {
    return Stat{st.b, rsqrtf(st.c / st.a + Norm::kEps), 0.0f};
  }
  __device__ __forceinline__ static float apply_to(float x, Stat st, float w, float b) {
    (void)w;
    (void)b;
    if constexpr (Norm::kWeight && Norm::kBias)
      return ((x - st.a) * st.b) * w + b;
    else if constexpr (Norm::kWeight)
      return ((x - st.a) * st.b) * w;
    else if constexpr (Norm::kBias)
      return (x - st.a) * st.b + b;
    else
      return (x - st.a) * st.b;
  }
  // A thread's share of a chunk or a streamed tile: its count and mean, then the squared deviations,
  // one division per share instead of one per element.
  template <class ForEach>
  __device__ __forceinline__ static Stat partial(ForEach for_each) {
    float n = 0.0f, s = 0.0f;
    for_each([&](float x) {
      n += 1.0f;
      s += x;
    });
    if (n == 0.0f) return identity();
    const float m = s / n;
    float m2 = 0.0f;
    for_each([&](float x) {
      float d = x - m;
      m2 += d * d;
    });
    return Stat{n, m, m2};
  }
  // Where every thread holds the same count, one tree reduction of (count, mean, squared
  // deviations) joins equal counts, so it needs no division: 1 barrier instead of 4 (on the H200,
  // 32768 rows of 8192: 0.5146 -> 0.5096 ms, torch.compile 0.5066).
  template <class ForEach, class Reduce, class Tree, class PerThread>
  __device__ __forceinline__ static Stat held_partial(ForEach for_each, Reduce reduce, Tree tree, PerThread) {
    if constexpr (PerThread::value > 0) {
      float s = 0.0f;
      for_each([&](float& x) { s += x; });
      const float m = s * (1.0f / float(PerThread::value));
      float m2 = 0.0f;
      for_each([&](float& x) {
        float d = x - m;
        m2 += d * d;
      });
      return tree(Stat{float(PerThread::value), m, m2}, [](Stat p, Stat q) { return join(p, q); });
    }
    return reduce(partial(for_each), combine);
  }
  __device__ __forceinline__ static Stat join(Stat p, Stat q) {
    float d = q.b - p.b;
    return Stat{p.a + q.a, 0.5f * (p.b + q.b), p.c + q.c + d * d * (0.5f * p.a)};
  }
  // A row in registers is read twice: its mean, then the squared deviations from it, with no
  // division per element (on the H200, 65536 rows of 768: 0.1013 -> 0.1002 ms, torch.compile 0.1002,
  // whose kernel does the same).
  template <class ForEach, class Reduce, class Tree, class PerThread>
  __device__ __forceinline__ static Stat held_stats(ForEach for_each, Reduce reduce, Tree tree, PerThread) {
    if constexpr (PerThread::value > 0) {
      const Stat st = held_partial(for_each, reduce, tree, PerThread{});
      return Stat{st.b, rsqrtf(st.c * Norm::kInvExtent + Norm::kEps), 0.0f};
    }
    float s = 0.0f;
    for_each([&](float& x) { s += x; });
    const float mean = reduce(s, [](float p, float q) { return p + q; }) * Norm::kInvExtent;
    float m2 = 0.0f;
    for_each([&](float& x) {
      float d = x - mean;
      m2 += d * d;
    });
    m2 = reduce(m2, [](float p, float q) { return p + q; });
    return Stat{mean, rsqrtf(m2 * Norm::kInvExtent + Norm::kEps), 0.0f};
  }
  // (mean, squared deviations) in a slot, the count known to the reader.
  __device__ __forceinline__ static float2 to_slot(Stat st) { return make_float2(st.b, st.c); }
  __device__ __forceinline__ static Stat from_slot(float2 s, float count) { return Stat{count, s.x, s.y}; }
};

// out = Norm::post(x, st) with st.a the sum (kOp = kSum), maximum or minimum over the row of
// Norm::pre(x): RMSNorm, the L1, L2 and Frobenius norms.
enum class ScaleOp { kSum, kMax, kMin };
template <class Norm, ScaleOp kOp>
struct Scale : NormHooks<Norm> {
  __device__ __forceinline__ static float op(float p, float q) {
    if constexpr (kOp == ScaleOp::kMax)
      return cg_expert::nan_max(p, q);
    else if constexpr (kOp == ScaleOp::kMin)
      return cg_expert::nan_min(p, q);
    else
      return p + q;
  }
  __device__ __forceinline__ static Stat identity() {
    return Stat{kOp == ScaleOp::kMax ? -INFINITY : kOp == ScaleOp::kMin ? INFINITY : 0.0f, 0.0f, 0.0f};
  }
  __device__ __forceinline__ static void update(Stat& st, float x) {
    if constexpr (kOp == ScaleOp::kSum)
      st.a += Norm::pre(x);
    else
      st.a = op(st.a, Norm::pre(x));
  }
  __device__ __forceinline__ static Stat combine(Stat p, Stat q) { return Stat{op(p.a, q.a), 0.0f, 0.0f}; }
  __device__ __forceinline__ static Stat finalize(Stat st) { return st; }
  __device__ __forceinline__ static float apply_to(float x, Stat st, float w, float b) {
    (void)w;
    (void)b;
    return Norm::post(x, st);
  }
};

}  // namespace cg_norm
