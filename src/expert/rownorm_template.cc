// Row-normalization template: out = apply(x, finalize(stat(row))) over [outer, extent, inner],
// one kernel text per strategy (rownorm_<strategy>.cc), picked by the parameters. Last dim
// (inner == 1):
// - streamed: one block per row (split == 1: statistics, block reduction, then the normalizing
//   pass), or a row cut into `split` tile-aligned chunks whose partial statistics (online
//   max/sum-exp, Welford count/mean/M2, or a plain sum/max) meet in a workspace: two launches (the
//   second normalizing a tile per block, or with a weight a chunk per block), or with passes = 1
//   one launch ordered so that the second pass may find its chunk still in L2;
// - held in shared memory and read from DRAM once: by a thread-block cluster (cluster > 0), or by
//   `split` CTAs of a persistent cooperative grid (split > 1, passes = 1, blocks_per_sm > 0);
// - held in the registers of a block, a warp or more (split = 1, unroll = 1, at most 64 elements
//   per thread), or of `split` CTAs of a cooperative grid (regs = 1), read from DRAM once.
// Middle dim (inner > 1): one thread per column, coalesced.
#include "expert/rownorm_kernels.h"
#include "expert/templates.h"

namespace cutegen {
namespace {

// The statistic's math per normalization, as CUDA text; `st` is a Stat {a, b, c}, and apply's `w`
// and `b` are the weight and bias at x's position. partial serves chunks held in shared memory,
// held_stats and held_apply rows held in registers, held_partial a block's share of a row held in
// registers (see kStat); by default the online statistic above, per thread, then reduced.
struct NormCode {
  std::string identity, update, combine, finalize, apply;
  std::string partial = "Stat st = identity();\n  for_each([&](float x) { update(st, x); });\n  return st;";
  std::string held_stats = "return finalize(reduce(partial(for_each), combine));";
  std::string held_apply = "apply_to(x, st, w, b)";
  std::string held_partial = "return reduce(partial(for_each), combine);";
  std::string join = "return combine(p, q);";
  // A statistic as the two words a CTA of a grid publishes (`st`), and back (`s`, `count`).
  std::string to_slot = "make_float2(st.a, st.b)", from_slot = "Stat{s.x, s.y, 0.0f}";
};

// held_stats for a row held in registers, read twice: its maximum m, then the sum s of `each`
// element's term, giving the statistic `stat`. Two reductions of one instruction each beat one online
// reduction whose combine takes exponentials (on the H200, softmax over 37 rows of 1001: 3.84 -> 2.88
// us of GPU time, Triton's 2.82; log-softmax over 32768 rows of 1000: 0.0694 -> 0.0677 ms).
std::string held_max_then_sum(const std::string& each, const std::string& stat) {
  return "float m = -INFINITY;\n"
         "  for_each([&](float& x) { m = fmaxf(m, x); });\n"
         "  m = reduce(m, [](float p, float q) { return fmaxf(p, q); });\n"
         "  float s = 0.0f;\n"
         "  for_each([&](float& x) { " + each + " });\n"
         "  s = reduce(s, [](float p, float q) { return p + q; });\n"
         "  return " + stat + ";";
}

// partial for softmax and log-softmax: a thread's maximum, then its sum of exponentials, each pass
// over its share of the chunk in shared memory. One exponential per element and no branch. On the
// H200, KernelBench softmax held by a cooperative grid: 4.33 ms with the online update, 3.90 with
// this (3.80 with the meeting in one warp too); 16384 rows of 64 KB in 1-CTA clusters: 0.611 -> 0.553.
constexpr const char* kMaxThenSumPartial =
    "float m = -INFINITY;\n"
    "  for_each([&](float x) { m = fmaxf(m, x); });\n"
    "  if (m == -INFINITY) return identity();\n"
    "  float s = 0.0f;\n"
    "  for_each([&](float x) { s += __expf(x - m); });\n"
    "  return Stat{m, s, 0.0f};";

NormCode norm_code(const Recipe& r) {
  // Per element, the fast exponential (ex2.approx; 2 + 1.2|x| ulp, far inside any tolerance, and what
  // torch.compile's kernels use): the accurate expf made a row held in a cluster compute-bound.
  const std::string online_softmax_update =
      "if (x > st.a) { st.b = st.b * __expf(st.a - x) + 1.0f; st.a = x; } else { st.b += __expf(x - st.a); }";
  const std::string online_softmax_combine =
      "float m = fmaxf(p.a, q.a); if (m == -INFINITY) return Stat{m, 0.0f, 0.0f};\n"
      "  return Stat{m, p.b * expf(p.a - m) + q.b * expf(q.a - m), 0.0f};";
  switch (r.norm) {
    case NormKind::kSoftmax:
      return {"Stat{-INFINITY, 0.0f, 0.0f}", online_softmax_update, online_softmax_combine,
              "Stat{st.a, 1.0f / st.b, 0.0f}", "__expf(x - st.a) * st.b", kMaxThenSumPartial,
              // The exponentials stay in the registers for the output.
              held_max_then_sum("x = __expf(x - m); s += x;", "Stat{m, 1.0f / s, 0.0f}"), "x * st.b"};
    case NormKind::kLogSoftmax:
      return {"Stat{-INFINITY, 0.0f, 0.0f}", online_softmax_update, online_softmax_combine,
              "Stat{st.a + logf(st.b), 0.0f, 0.0f}", "x - st.a", kMaxThenSumPartial,
              held_max_then_sum("s += __expf(x - m);", "Stat{m + logf(s), 0.0f, 0.0f}")};
    case NormKind::kLayerNorm: {
      std::string apply = "(x - st.a) * st.b";
      if (!r.weight_name.empty()) apply = "(" + apply + ") * w";
      if (!r.bias_name.empty()) apply += " + b";
      char eps[64], inv_n[64];
      std::snprintf(eps, sizeof eps, "float(%.9g)", r.eps);
      std::snprintf(inv_n, sizeof inv_n, "(1.0f / %lld.0f)", static_cast<long long>(r.rows.extent));
      NormCode c{"Stat{0.0f, 0.0f, 0.0f}",
                 "st.a += 1.0f; float d = x - st.b; st.b += d / st.a; st.c += d * (x - st.b);",
                 "float n = p.a + q.a; if (n == 0.0f) return p;\n"
                 "  float d = q.b - p.b, w = q.a / n;\n"
                 "  return Stat{n, p.b + d * w, p.c + q.c + d * d * p.a * w};",
                 "Stat{st.b, rsqrtf(st.c / st.a + " + std::string(eps) + "), 0.0f}", apply};
      // A row in registers is read twice instead: its mean, then the squared deviations from it, with
      // no division per element (on the H200, 65536 rows of 768: 0.1013 -> 0.1002 ms, torch.compile
      // 0.1002, whose kernel does the same).
      // So is a thread's share of a chunk or a streamed tile (partial): its count and mean, then the
      // squared deviations, one division per share instead of one per element.
      c.partial = "float n = 0.0f, s = 0.0f;\n"
                  "  for_each([&](float x) { n += 1.0f; s += x; });\n"
                  "  if (n == 0.0f) return identity();\n"
                  "  const float m = s / n;\n"
                  "  float m2 = 0.0f;\n"
                  "  for_each([&](float x) { float d = x - m; m2 += d * d; });\n"
                  "  return Stat{n, m, m2};";
      // Where every thread holds the same count, one tree reduction of (count, mean, squared
      // deviations) joins equal counts, so it needs no division: 1 barrier instead of 4 (on the H200,
      // 32768 rows of 8192: 0.5146 -> 0.5096 ms, torch.compile 0.5066).
      c.held_partial = "if constexpr (PerThread::value > 0) {\n"
                       "    float s = 0.0f;\n"
                       "    for_each([&](float& x) { s += x; });\n"
                       "    const float m = s * (1.0f / float(PerThread::value));\n"
                       "    float m2 = 0.0f;\n"
                       "    for_each([&](float& x) { float d = x - m; m2 += d * d; });\n"
                       "    return tree(Stat{float(PerThread::value), m, m2}, [](Stat p, Stat q) { return join(p, q); });\n"
                       "  }\n"
                       "  return reduce(partial(for_each), combine);";
      c.join = "float d = q.b - p.b;\n"
               "  return Stat{p.a + q.a, 0.5f * (p.b + q.b), p.c + q.c + d * d * (0.5f * p.a)};";
      c.held_stats = "if constexpr (PerThread::value > 0) {\n"
                     "    const Stat st = held_partial(for_each, reduce, tree, PerThread{});\n"
                     "    return Stat{st.b, rsqrtf(st.c * " + std::string(inv_n) + " + " + eps + "), 0.0f};\n"
                     "  }\n"
                     "  float s = 0.0f;\n"
                     "  for_each([&](float& x) { s += x; });\n"
                     "  const float mean = reduce(s, [](float p, float q) { return p + q; }) * " + std::string(inv_n) + ";\n"
                     "  float m2 = 0.0f;\n"
                     "  for_each([&](float& x) { float d = x - mean; m2 += d * d; });\n"
                     "  m2 = reduce(m2, [](float p, float q) { return p + q; });\n"
                     "  return Stat{mean, rsqrtf(m2 * " + inv_n + " + " + eps + "), 0.0f};";
      c.to_slot = "make_float2(st.b, st.c)", c.from_slot = "Stat{count, s.x, s.y}";
      return c;
    }
    case NormKind::kScale: {
      std::string op = r.reduce == ReduceOp::kMax   ? "cg_expert::nan_max"
                       : r.reduce == ReduceOp::kMin ? "cg_expert::nan_min"
                                                    : "";
      std::string identity = r.reduce == ReduceOp::kMax ? "-INFINITY" : r.reduce == ReduceOp::kMin ? "INFINITY" : "0.0f";
      std::string pre = to_cuda(r.pre, {"x"});
      return {"Stat{" + identity + ", 0.0f, 0.0f}",
              op.empty() ? "st.a += " + pre + ";" : "st.a = " + op + "(st.a, " + pre + ");",
              op.empty() ? "return Stat{p.a + q.a, 0.0f, 0.0f};" : "return Stat{" + op + "(p.a, q.a), 0.0f, 0.0f};",
              // The columns kernel keeps IEEE division: on the H200, RMSNorm over 64 channels took
              // 3.739 ms with it, 3.915 with div.full (torch.compile 3.957), in one run.
              "st", to_cuda(r.post, {"x", "st.a"}, {.ieee_div = r.rows.inner > 1})};
  }
  }
  return {};
}

constexpr const char* kStat = R"(
namespace cg_norm {
struct Stat {
  float a, b, c;
};
__device__ __forceinline__ Stat identity() { return $identity; }
__device__ __forceinline__ void update(Stat& st, float x) { $update }
__device__ __forceinline__ Stat combine(Stat p, Stat q) {
  $combine
}
// combine for two statistics of equal counts (for the Welford statistic, without a division).
__device__ __forceinline__ Stat join(Stat p, Stat q) {
  $join
}
__device__ __forceinline__ Stat finalize(Stat st) { return $finalize; }
// Another block's published statistics, read past L1, which is not coherent.
__device__ __forceinline__ Stat load_cg(Stat const* p) { return Stat{__ldcg(&p->a), __ldcg(&p->b), __ldcg(&p->c)}; }
// A statistic as two words, and back, `count` being the number of elements it covers: the count,
// where the statistic holds one, is known to every reader, so an 8-byte slot holds it for one load.
__device__ __forceinline__ float2 to_slot(Stat st) { return $to_slot; }
__device__ __forceinline__ Stat from_slot(float2 s, float count) { (void)count; return $from_slot; }
// Statistics an earlier launch wrote, read through L1 (the same few addresses in every warp).
__device__ __forceinline__ Stat load_nc(Stat const* p) { return Stat{__ldg(&p->a), __ldg(&p->b), __ldg(&p->c)}; }
// Whether the norm has a weight and a bias (elementwise affine), and what stands in for them where not.
constexpr bool kWeight = $has_weight, kBias = $has_bias;
constexpr float kNoWeight = 1.0f, kNoBias = 0.0f;
// The normalized value of x, w and b being the weight and bias at its position (unused without them).
__device__ __forceinline__ float apply_to(float x, Stat st, float w, float b) {
  (void)w; (void)b;
  return $apply;
}
// The weight and the bias at position j of a row.
__device__ __forceinline__ float weight_at(float const* weight, int64_t j) { return kWeight ? weight[j] : kNoWeight; }
__device__ __forceinline__ float bias_at(float const* bias, int64_t j) { return kBias ? bias[j] : kNoBias; }
// The normalized value of x at position j of its row.
__device__ __forceinline__ float apply(float x, int64_t j, Stat st, float const* weight, float const* bias) {
  return apply_to(x, st, weight_at(weight, j), bias_at(bias, j));
}
// Whether weight and bias, where the norm has them, allow 16-byte vectors.
inline bool params_aligned(float const* weight, float const* bias) {
  return (!kWeight || cg_expert::aligned_to(weight, 16)) && (!kBias || cg_expert::aligned_to(bias, 16));
}
// This thread's shares of tile t (of a row `extent` long) of the weight and of the bias, loaded as
// vectors by `copy`, a tiled copy of floats laid out as the one that loads x, where `load`; else, or
// where the norm has none, their stand-ins everywhere.
template <class TiledCopy, class TileShape>
__device__ __forceinline__ auto param_tiles(TiledCopy const& copy, float const* weight, float const* bias, int64_t extent,
                                            TileShape tile, int64_t t, bool load) {
  auto share = [&](float const* p, bool has, float none) {
    Tensor g = copy.get_thread_slice(threadIdx.x).partition_S(local_tile(make_tensor(make_gmem_ptr(p), make_shape(extent)), tile, make_coord(t)));
    Tensor r = make_fragment_like(g);
    if (has && load) cute::copy(copy, g, r);
    else fill(r, none);
    return r;
  };
  return cute::make_tuple(share(weight, kWeight, kNoWeight), share(bias, kBias, kNoBias));
}
// The unfinalized statistic of this thread's elements of a chunk held in shared memory: for_each(f)
// calls f(x) on each of them, and may be called again.
template <class ForEach>
__device__ __forceinline__ Stat partial(ForEach for_each) {
  $partial
}
// The unfinalized statistic (as combine takes it) of a block's share of a row held in registers,
// for_each, reduce, tree and PerThread as for held_stats below; x is left as it is.
template <class ForEach, class Reduce, class Tree, class PerThread>
__device__ __forceinline__ Stat held_partial(ForEach for_each, Reduce reduce, Tree tree, PerThread) {
  $held_partial
}
// The finalized statistic of a row held in registers: for_each(f) calls f(float& x) on
// each of this thread's elements of the row (f may rewrite x for held_apply); reduce(v, op) combines
// one value per thread over the row's threads and gives every thread the result. tree(v, op) does
// the same as a balanced tree, each op joining two equal numbers of threads; PerThread::value is the
// count of elements every thread holds where that makes each side of a join stand for as many
// elements, else 0 (and then tree must not be called).
template <class ForEach, class Reduce, class Tree, class PerThread>
__device__ __forceinline__ Stat held_stats(ForEach for_each, Reduce reduce, Tree tree, PerThread) {
  $held_stats
}
// The normalized value of an element of a held row, x as held_stats left it, w and b as for apply_to.
__device__ __forceinline__ float held_apply_to(float x, Stat st, float w, float b) {
  (void)w; (void)b;
  return $held_apply;
}
}  // namespace cg_norm
using cg_norm::Stat;
)";

}  // namespace

std::string generate_rownorm(const Recipe& r, const TaskSpec& spec, const Params& p) {
  NormCode c = norm_code(r);
  std::string body = fill_template(kStat, {{"identity", c.identity},
                                           {"update", c.update},
                                           {"combine", c.combine},
                                           {"finalize", c.finalize},
                                           {"apply", c.apply},
                                           {"partial", c.partial},
                                           {"held_partial", c.held_partial},
                                           {"join", c.join},
                                           {"held_stats", c.held_stats},
                                           {"held_apply", c.held_apply},
                                           {"to_slot", c.to_slot},
                                           {"from_slot", c.from_slot}}) +
                     (r.rows.inner > 1          ? kRowNormColumns
                      : rows_in_registers(r, p) ? kRowNormRegisters
                      : rows_in_grid_registers(p) ? kRowNormGrid
                      : rows_held(p)            ? kRowNormHeld
                                                : kRowNormStreamed);
  return kernel_prelude(r.summary + " [" + to_string(p) + "]") +
         fill_template(body, [&] {
           auto vars = row_template_vars(r, spec, p);
           vars.push_back({"weight", r.weight_name.empty() ? "nullptr" : r.weight_name});
           vars.push_back({"bias", r.bias_name.empty() ? "nullptr" : r.bias_name});
           vars.push_back({"has_weight", r.weight_name.empty() ? "false" : "true"});
           vars.push_back({"has_bias", r.bias_name.empty() ? "false" : "true"});
           // Up to 8 CTAs (the portable size) the kernel names its cluster; beyond, the launch does.
           vars.push_back({"cluster_dims", p.cluster > 0 && p.cluster <= 8 ? "__cluster_dims__(kGroup, 1, 1)" : ""});
           return vars;
         }());
}

}  // namespace cutegen
