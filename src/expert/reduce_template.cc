// Reduction template over [outer, extent, inner]. Last dim (inner == 1): one block per row (a warp
// for short rows), the row streamed through 128-bit tiled copies (kUnroll vectors in flight) and
// then whole vectors (a row not 16-byte aligned, scalar by scalar), then a shuffle+shared-memory
// block reduction. Middle dim (inner > 1): threads own adjacent columns (coalesced), `split`
// threads share a column's extent and combine through shared memory.
// Ties in argmax/argmin go to the first index and NaN ranks above and below everything, as in torch.
#include "expert/templates.h"

namespace cutegen {
namespace {

struct ReduceCode {
  ReduceOp op;
  const char* identity;  // Acc{value, index}
  const char* combine;   // body of combine(a, b)
  const char* finalize;  // the stored value from `acc` (and `extent`)
};

const std::vector<ReduceCode>& reduce_code() {
  static const std::vector<ReduceCode> rows = {
      {ReduceOp::kSum, "Acc{0.0f, 0}", "return Acc{a.v + b.v, 0};", "acc.v"},
      // ATen scales the sum by 1/N too (a multiply, not a division).
      {ReduceOp::kMean, "Acc{0.0f, 0}", "return Acc{a.v + b.v, 0};", "acc.v * (1.0f / float(extent))"},
      {ReduceOp::kMax, "Acc{-INFINITY, 0}", "return Acc{cg_expert::nan_max(a.v, b.v), 0};", "acc.v"},
      {ReduceOp::kMin, "Acc{INFINITY, 0}", "return Acc{cg_expert::nan_min(a.v, b.v), 0};", "acc.v"},
      {ReduceOp::kArgMax, "Acc{-INFINITY, INT64_MAX}",
       "return cg_reduce::b_wins(a, b, (b.v > a.v) | ((b.v == a.v) & (b.i < a.i))) ? b : a;",
       "acc.i == INT64_MAX ? 0 : acc.i"},
      {ReduceOp::kArgMin, "Acc{INFINITY, INT64_MAX}",
       "return cg_reduce::b_wins(a, b, (b.v < a.v) | ((b.v == a.v) & (b.i < a.i))) ? b : a;",
       "acc.i == INT64_MAX ? 0 : acc.i"},
  };
  return rows;
}

constexpr const char* kCommon = R"(
namespace cg_reduce {
struct Acc {
  float v;
  int64_t i;  // index along the reduced dim (argmax/argmin)
};
__device__ __forceinline__ Acc identity() { return $identity; }
// Whether b replaces a in argmax/argmin, given `b_better` for two numbers: torch ranks NaN above
// (and below) everything, the first one winning. Selects, not branches, so that ptxas keeps a
// thread's loads batched (with branches it issued one load per combine).
__device__ __forceinline__ bool b_wins(Acc a, Acc b, bool b_better) {
  bool a_nan = a.v != a.v, b_nan = b.v != b.v;
  return (a_nan | b_nan) ? (!a_nan | (b_nan & (b.i <= a.i))) : b_better;
}
__device__ __forceinline__ Acc combine(Acc a, Acc b) { $combine }
}  // namespace cg_reduce
using cg_reduce::Acc;
)";

constexpr const char* kRows = R"(
template <int kThreads, int kVec, int kUnroll>
__global__ void __launch_bounds__(kThreads) reduce_rows($in_type const* __restrict__ x, $out_type* __restrict__ out,
                                                        int64_t rows, int64_t extent, bool vectorized) {
  using Tile = Int<kThreads * kVec * kUnroll>;
  __shared__ Acc smem[32];
  auto tiled_copy = cg_expert::vec_tiled_copy<$in_type, kThreads, kVec>();
  auto thr_copy = tiled_copy.get_thread_slice(threadIdx.x);
  Tensor mX = make_tensor(make_gmem_ptr(x), make_layout(make_shape(extent, rows), make_stride(Int<1>{}, extent)));  // (extent, rows)
  Tensor cRow = make_identity_tensor(make_shape(extent));  // (extent) -> index in the row
  int64_t full_tiles = vectorized ? extent / Tile{} : 0;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    Tensor mRow = mX(_, row);  // (extent)
    Acc acc = cg_reduce::identity();
    for (int64_t t = 0; t < full_tiles; ++t) {
      Tensor tXgX = thr_copy.partition_S(local_tile(mRow, make_shape(Tile{}), make_coord(t)));  // (CPY, kUnroll)
      Tensor tXcX = thr_copy.partition_S(local_tile(cRow, make_shape(Tile{}), make_coord(t)));
      Tensor tXrX = make_fragment_like(tXgX);
      copy(tiled_copy, tXgX, tXrX);
      CUTE_UNROLL
      for (int i = 0; i < size(tXrX); ++i) acc = cg_reduce::combine(acc, Acc{cg_expert::to_f(tXrX(i)), get<0>(tXcX(i))});
    }
    if (vectorized) {  // whole vectors past the last full tile (a row shorter than a tile is all tail)
      for (int64_t v = full_tiles * (Tile{} / kVec) + threadIdx.x; v < extent / kVec; v += kThreads) {
        Tensor gV = local_tile(mRow, make_shape(Int<kVec>{}), make_coord(v));  // (kVec)
        Tensor rV = make_fragment_like(gV);
        copy(cg_expert::VecCopy<$in_type, kVec>{}, gV, rV);
        CUTE_UNROLL
        for (int i = 0; i < kVec; ++i) acc = cg_reduce::combine(acc, Acc{cg_expert::to_f(rV(i)), v * kVec + i});
      }
    } else {
      for (int64_t i = threadIdx.x; i < extent; i += kThreads)  // unaligned rows: scalar loads
        acc = cg_reduce::combine(acc, Acc{cg_expert::to_f(mRow(i)), i});
    }
    acc = cg_expert::block_reduce<kThreads>(acc, cg_reduce::combine, smem);
    if (threadIdx.x == 0) out[row] = $out_value;
  }
}

$signature {
  constexpr int kThreads = $threads, kVec = $vec, kUnroll = $unroll;
  constexpr int64_t rows = $outer, extent = $extent;
  bool vectorized = cg_expert::aligned_to($in_name, kVec * sizeof($in_type)) && extent % kVec == 0;
  int blocks = static_cast<int>(rows < (int64_t(1) << 30) ? rows : (int64_t(1) << 30));
  reduce_rows<kThreads, kVec, kUnroll><<<blocks, kThreads, 0, stream>>>($in_name, $out_name, rows, extent, vectorized);
}
)";

constexpr const char* kColumns = R"(
// blockDim = (kCols, kSplit): kCols adjacent columns, kSplit threads sharing each column's extent,
// each keeping kUnroll independent partial results so that kUnroll loads are in flight at once.
template <int kCols, int kSplit, int kUnroll>
__global__ void __launch_bounds__(kCols * kSplit) reduce_columns($in_type const* __restrict__ x,
                                                                 $out_type* __restrict__ out, int64_t outer,
                                                                 int64_t extent, int64_t inner) {
  __shared__ Acc smem[kSplit][kCols];
  Tensor mX = make_tensor(make_gmem_ptr(x), make_layout(make_shape(inner, extent, outer),
                                                        make_stride(Int<1>{}, inner, extent * inner)));  // (inner, extent, outer)
  Tensor mOut = make_tensor(make_gmem_ptr(out), make_layout(make_shape(inner, outer), make_stride(Int<1>{}, inner)));
  int64_t columns = outer * inner;
  for (int64_t base = int64_t(blockIdx.x) * kCols; base < columns; base += int64_t(gridDim.x) * kCols) {
    int64_t col = base + threadIdx.x;
    bool valid = col < columns;  // predicate for the last block's columns
    int64_t o = valid ? col / inner : 0, j = valid ? col % inner : 0;
    Acc part[kUnroll];
    CUTE_UNROLL
    for (int u = 0; u < kUnroll; ++u) part[u] = cg_reduce::identity();
    int64_t r = threadIdx.y;
    if (valid) {
      for (; r + (kUnroll - 1) * kSplit < extent; r += kUnroll * kSplit) {
        float v[kUnroll];
        CUTE_UNROLL
        for (int u = 0; u < kUnroll; ++u) v[u] = cg_expert::to_f(mX(j, r + u * kSplit, o));
        CUTE_UNROLL
        for (int u = 0; u < kUnroll; ++u) part[u] = cg_reduce::combine(part[u], Acc{v[u], r + u * kSplit});
      }
      for (; r < extent; r += kSplit) part[0] = cg_reduce::combine(part[0], Acc{cg_expert::to_f(mX(j, r, o)), r});
    }
    Acc acc = part[0];
    CUTE_UNROLL
    for (int u = 1; u < kUnroll; ++u) acc = cg_reduce::combine(acc, part[u]);
    smem[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.y == 0 && valid) {
      CUTE_UNROLL
      for (int s = 1; s < kSplit; ++s) acc = cg_reduce::combine(acc, smem[s][threadIdx.x]);
      mOut(j, o) = $out_value;
    }
    __syncthreads();
  }
}

$signature {
  constexpr int kSplit = $split, kCols = $threads / kSplit, kUnroll = $unroll;
  constexpr int64_t outer = $outer, extent = $extent, inner = $inner;
  int64_t blocks = (outer * inner + kCols - 1) / kCols;
  if (blocks > (int64_t(1) << 30)) blocks = int64_t(1) << 30;
  reduce_columns<kCols, kSplit, kUnroll><<<static_cast<int>(blocks), dim3(kCols, kSplit), 0, stream>>>($in_name, $out_name, outer, extent, inner);
}
)";

}  // namespace

std::string generate_reduce(const Recipe& r, const TaskSpec& spec, const Params& p) {
  const ReduceCode* code = &reduce_code()[0];
  for (auto& c : reduce_code())
    if (c.op == r.reduce) code = &c;
  std::string out_value = r.out_type == "int64_t" ? std::string("int64_t(") + code->finalize + ")"
                                                  : "cg_expert::from_f<" + r.out_type + ">(" + code->finalize + ")";
  std::string body = fill_template(kCommon, {{"identity", code->identity}, {"combine", code->combine}}) +
                     (r.rows.inner == 1 ? kRows : kColumns);
  return kernel_prelude(r.summary + " [" + to_string(p) + "]") +
         fill_template(body, [&] {
           auto vars = row_template_vars(r, spec, p);
           vars.push_back({"out_value", out_value});
           return vars;
         }());
}

}  // namespace cutegen
