// Row-normalization template: out = apply(x, finalize(stat(row))) over [outer, extent, inner].
// Last dim (inner == 1): rows stream through 128-bit tiled copies (predicated tail). With
// split == 1 one block owns a row (statistics, block reduction, then the normalizing pass); with
// split > 1 a row is cut into `split` tile-aligned chunks: pass 1 writes each chunk's partial
// statistics (online max/sum-exp, Welford count/mean/M2, or a plain sum/max) to a workspace
// allocated once, pass 2 combines a row's partials and normalizes its chunk — so a 4M-element
// row is spread over many SMs. Middle dim (inner > 1): one thread per column, coalesced.
#include "expert/templates.h"

namespace cutegen {
namespace {

// The statistic's math per normalization, as CUDA text; `st` is a Stat {a, b, c}.
struct NormCode {
  std::string identity, update, combine, finalize, apply;
};

NormCode norm_code(const Recipe& r) {
  const std::string online_softmax_update =
      "if (x > st.a) { st.b = st.b * expf(st.a - x) + 1.0f; st.a = x; } else { st.b += expf(x - st.a); }";
  const std::string online_softmax_combine =
      "float m = fmaxf(p.a, q.a); if (m == -INFINITY) return Stat{m, 0.0f, 0.0f};\n"
      "  return Stat{m, p.b * expf(p.a - m) + q.b * expf(q.a - m), 0.0f};";
  switch (r.norm) {
    case NormKind::kSoftmax:
      return {"Stat{-INFINITY, 0.0f, 0.0f}", online_softmax_update, online_softmax_combine,
              "Stat{st.a, 1.0f / st.b, 0.0f}", "expf(x - st.a) * st.b"};
    case NormKind::kLogSoftmax:
      return {"Stat{-INFINITY, 0.0f, 0.0f}", online_softmax_update, online_softmax_combine,
              "Stat{st.a + logf(st.b), 0.0f, 0.0f}", "x - st.a"};
    case NormKind::kLayerNorm: {
      std::string apply = "(x - st.a) * st.b";
      if (!r.weight_name.empty()) apply = "(" + apply + ") * weight[j]";
      if (!r.bias_name.empty()) apply += " + bias[j]";
      char eps[64];
      std::snprintf(eps, sizeof eps, "%.9g", r.eps);
      return {"Stat{0.0f, 0.0f, 0.0f}",
              "st.a += 1.0f; float d = x - st.b; st.b += d / st.a; st.c += d * (x - st.b);",
              "float n = p.a + q.a; if (n == 0.0f) return p;\n"
              "  float d = q.b - p.b, w = q.a / n;\n"
              "  return Stat{n, p.b + d * w, p.c + q.c + d * d * p.a * w};",
              "Stat{st.b, rsqrtf(st.c / st.a + float(" + std::string(eps) + ")), 0.0f}", apply};
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
              "st", to_cuda(r.post, {"x", "st.a"})};
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
__device__ __forceinline__ Stat finalize(Stat st) { return $finalize; }
// The normalized value of x at position j of its row.
__device__ __forceinline__ float apply(float x, int64_t j, Stat st, float const* weight, float const* bias) {
  (void)j; (void)weight; (void)bias;
  return $apply;
}
}  // namespace cg_norm
using cg_norm::Stat;
)";

constexpr const char* kRowHelpers = R"(
// Statistics of row elements [begin, end): whole tiles through the tiled copy, then a predicated tail.
template <int kThreads, int kVec, class RowTensor>
__device__ __forceinline__ Stat chunk_stats(RowTensor const& mRow, int64_t begin, int64_t end, bool vectorized) {
  using Tile = Int<kThreads * kVec>;
  auto tiled_copy = cg_expert::vec_tiled_copy<$in_type, kThreads, kVec>();
  auto thr_copy = tiled_copy.get_thread_slice(threadIdx.x);
  Stat st = cg_norm::identity();
  int64_t t0 = begin / Tile{}, full = vectorized ? (end - begin) / Tile{} : 0;
  for (int64_t t = t0; t < t0 + full; ++t) {
    Tensor tXgX = thr_copy.partition_S(local_tile(mRow, make_shape(Tile{}), make_coord(t)));  // (CPY, 1)
    Tensor tXrX = make_fragment_like(tXgX);
    copy(tiled_copy, tXgX, tXrX);
    CUTE_UNROLL
    for (int i = 0; i < size(tXrX); ++i) cg_norm::update(st, cg_expert::to_f(tXrX(i)));
  }
  for (int64_t i = begin + full * Tile{} + threadIdx.x; i < end; i += kThreads) cg_norm::update(st, cg_expert::to_f(mRow(i)));
  return st;
}

// Writes the normalized row elements [begin, end).
template <int kThreads, int kVec, class InTensor, class OutTensor>
__device__ __forceinline__ void chunk_apply(InTensor const& mRow, OutTensor& mOutRow, int64_t begin, int64_t end,
                                            bool vectorized, Stat st, float const* weight, float const* bias) {
  using Tile = Int<kThreads * kVec>;
  auto copy_in = cg_expert::vec_tiled_copy<$in_type, kThreads, kVec>();
  auto copy_out = cg_expert::vec_tiled_copy<$out_type, kThreads, kVec>();
  auto thr_in = copy_in.get_thread_slice(threadIdx.x);
  auto thr_out = copy_out.get_thread_slice(threadIdx.x);
  Tensor cRow = make_identity_tensor(shape(mRow));  // (extent) -> position in the row
  int64_t t0 = begin / Tile{}, full = vectorized ? (end - begin) / Tile{} : 0;
  for (int64_t t = t0; t < t0 + full; ++t) {
    Tensor tXgX = thr_in.partition_S(local_tile(mRow, make_shape(Tile{}), make_coord(t)));      // (CPY, 1)
    Tensor tYgY = thr_out.partition_D(local_tile(mOutRow, make_shape(Tile{}), make_coord(t)));  // (CPY, 1)
    Tensor tXcX = thr_in.partition_S(local_tile(cRow, make_shape(Tile{}), make_coord(t)));
    Tensor tXrX = make_fragment_like(tXgX);
    Tensor tYrY = make_fragment_like(tYgY);
    copy(copy_in, tXgX, tXrX);
    CUTE_UNROLL
    for (int i = 0; i < size(tXrX); ++i)
      tYrY(i) = cg_expert::from_f<$out_type>(cg_norm::apply(cg_expert::to_f(tXrX(i)), get<0>(tXcX(i)), st, weight, bias));
    copy(copy_out, tYrY, tYgY);
  }
  for (int64_t i = begin + full * Tile{} + threadIdx.x; i < end; i += kThreads)
    mOutRow(i) = cg_expert::from_f<$out_type>(cg_norm::apply(cg_expert::to_f(mRow(i)), i, st, weight, bias));
}

template <int kThreads, int kVec, int kSplit>
__global__ void __launch_bounds__(kThreads) norm_rows($in_type const* __restrict__ x, $out_type* __restrict__ out,
                                                      float const* weight, float const* bias, Stat* partials,
                                                      int64_t rows, int64_t extent, int pass, bool vectorized) {
  __shared__ Stat smem[32];
  Tensor mX = make_tensor(make_gmem_ptr(x), make_layout(make_shape(extent, rows), make_stride(Int<1>{}, extent)));    // (extent, rows)
  Tensor mY = make_tensor(make_gmem_ptr(out), make_layout(make_shape(extent, rows), make_stride(Int<1>{}, extent)));  // (extent, rows)
  constexpr int64_t kTile = kThreads * kVec;
  int64_t chunk = ((extent + kSplit - 1) / kSplit + kTile - 1) / kTile * kTile;  // tile-aligned chunk length
  for (int64_t work = blockIdx.x; work < rows * kSplit; work += gridDim.x) {
    int64_t row = work / kSplit, s = work % kSplit;
    int64_t begin = s * chunk < extent ? s * chunk : extent, end = begin + chunk < extent ? begin + chunk : extent;
    Tensor mRow = mX(_, row);   // (extent)
    Tensor mYRow = mY(_, row);  // (extent)
    Stat st;
    if (kSplit == 1 || pass == 1) {
      st = cg_expert::block_reduce<kThreads>(chunk_stats<kThreads, kVec>(mRow, begin, end, vectorized), cg_norm::combine, smem);
      if (kSplit > 1) {
        if (threadIdx.x == 0) partials[work] = st;
        continue;
      }
    } else {
      st = cg_norm::identity();
      for (int i = threadIdx.x; i < kSplit; i += kThreads) st = cg_norm::combine(st, partials[row * kSplit + i]);
      st = cg_expert::block_reduce<kThreads>(st, cg_norm::combine, smem);
    }
    chunk_apply<kThreads, kVec>(mRow, mYRow, begin, end, vectorized, cg_norm::finalize(st), weight, bias);
  }
}

$signature {
  constexpr int kThreads = $threads, kVec = $vec, kSplit = $split;
  constexpr int64_t rows = $outer, extent = $extent;
  bool vectorized = cg_expert::aligned_to($in_name, 16) && cg_expert::aligned_to($out_name, 16) && extent % kVec == 0;
  int64_t work = rows * kSplit;
  int blocks = static_cast<int>(work < (int64_t(1) << 30) ? work : (int64_t(1) << 30));
  static Stat* partials = nullptr;  // the split passes' workspace, allocated once (sizes are fixed per task)
  if (kSplit > 1 && partials == nullptr && cudaMalloc(&partials, sizeof(Stat) * work) != cudaSuccess) return;
  for (int pass = (kSplit > 1 ? 1 : 2); pass <= 2; ++pass)
    norm_rows<kThreads, kVec, kSplit><<<blocks, kThreads, 0, stream>>>($in_name, $out_name, $weight, $bias, partials,
                                                                      rows, extent, pass, vectorized);
}
)";

constexpr const char* kColumns = R"(
// One thread per (outer, inner) column; the column's extent is read twice (statistics, then output).
template <int kThreads>
__global__ void __launch_bounds__(kThreads) norm_columns($in_type const* __restrict__ x, $out_type* __restrict__ out,
                                                         int64_t outer, int64_t extent, int64_t inner) {
  auto layout = make_layout(make_shape(inner, extent, outer), make_stride(Int<1>{}, inner, extent * inner));
  Tensor mX = make_tensor(make_gmem_ptr(x), layout);    // (inner, extent, outer)
  Tensor mY = make_tensor(make_gmem_ptr(out), layout);  // (inner, extent, outer)
  for (int64_t col = int64_t(blockIdx.x) * kThreads + threadIdx.x; col < outer * inner; col += int64_t(gridDim.x) * kThreads) {
    int64_t o = col / inner, j = col % inner;
    Stat st = cg_norm::identity();
    for (int64_t r = 0; r < extent; ++r) cg_norm::update(st, cg_expert::to_f(mX(j, r, o)));
    st = cg_norm::finalize(st);
    for (int64_t r = 0; r < extent; ++r)
      mY(j, r, o) = cg_expert::from_f<$out_type>(cg_norm::apply(cg_expert::to_f(mX(j, r, o)), r, st, nullptr, nullptr));
  }
}

$signature {
  constexpr int kThreads = $threads;
  constexpr int64_t outer = $outer, extent = $extent, inner = $inner;
  int64_t blocks = (outer * inner + kThreads - 1) / kThreads;
  if (blocks > (int64_t(1) << 30)) blocks = int64_t(1) << 30;
  norm_columns<kThreads><<<static_cast<int>(blocks), kThreads, 0, stream>>>($in_name, $out_name, outer, extent, inner);
}
)";

}  // namespace

std::string generate_rownorm(const Recipe& r, const TaskSpec& spec, const Params& p) {
  NormCode c = norm_code(r);
  std::string body = fill_template(kStat, {{"identity", c.identity},
                                           {"update", c.update},
                                           {"combine", c.combine},
                                           {"finalize", c.finalize},
                                           {"apply", c.apply}}) +
                     (r.rows.inner == 1 ? kRowHelpers : kColumns);
  return kernel_prelude(r.summary + " [" + to_string(p) + "]") +
         fill_template(body, [&] {
           auto vars = row_template_vars(r, spec, p);
           vars.push_back({"weight", r.weight_name.empty() ? "nullptr" : r.weight_name});
           vars.push_back({"bias", r.bias_name.empty() ? "nullptr" : r.bias_name});
           return vars;
         }());
}

}  // namespace cutegen
