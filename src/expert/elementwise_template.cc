// Elementwise template: every dense operand moves global -> registers through a 128-bit tiled
// copy, broadcast or strided operands are read through a CuTe layout over the output's dims
// (stride 0 on broadcast dims) -- with the same tiled copy when each tile of the output falls in
// one contiguous run of the operand, else one element at a time -- the fused expression runs in
// fp32 (fast intrinsics when the output is 16-bit), and a tiled copy stores the result. Full tiles
// first (grid-stride, optionally a persistent grid), then a predicated tail.
#include <optional>
#include <set>
#include <utility>

#include "core/strings.h"
#include "expert/templates.h"

namespace cutegen {
namespace {

void collect_scalars(const ExprPtr& e, std::set<std::string>& out) {
  if (e->prim == Prim::kScalarArg) out.insert(e->name);
  for (auto& k : e->kids) collect_scalars(k, out);
}

std::string static_int(int64_t v) { return v < (int64_t(1) << 31) ? "Int<" + std::to_string(v) + ">{}" : "int64_t(" + std::to_string(v) + ")"; }

// CuTe is column-major: the output's row-major dims are listed last-first. `nested` makes it one
// mode over the flat index n, ((dims...)):((strides...)), which local_tile can cut into tiles.
std::string operand_layout(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides, bool nested = false) {
  std::vector<std::string> s, d;
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    s.push_back(static_int(shape[i]));
    d.push_back(static_int(strides[i]));
  }
  if (s.empty()) s = {"Int<1>{}"}, d = {"Int<0>{}"};
  std::string shp = "make_shape(" + join(s, ", ") + ")", str = "make_stride(" + join(d, ", ") + ")";
  if (nested) shp = "make_shape(" + shp + ")", str = "make_stride(" + str + ")";
  return "make_layout(" + shp + ", " + str + ")";
}

// A broadcast operand can be read with the dense operands' tiled copy when every output tile lies in
// one contiguous run of it: its innermost output dims, merged while its strides are contiguous, span a
// multiple of `tile` elements, and every other stride keeps a tile's start aligned to `vec` elements.
// Returns the dims with that run merged into the innermost one, or nothing.
std::optional<std::pair<std::vector<int64_t>, std::vector<int64_t>>> tileable_broadcast(
    const std::vector<int64_t>& shape, const std::vector<int64_t>& strides, int64_t tile, int64_t vec) {
  int i = static_cast<int>(shape.size()) - 1;
  int64_t run = 1;
  for (; i >= 0 && (shape[i] == 1 || strides[i] == run); --i) run *= shape[i];
  if (run % tile != 0) return std::nullopt;
  std::vector<int64_t> s(shape.begin(), shape.begin() + i + 1), d(strides.begin(), strides.begin() + i + 1);
  for (int64_t stride : d)
    if (stride % vec != 0) return std::nullopt;
  s.push_back(run);
  d.push_back(1);
  return std::make_pair(s, d);
}

constexpr const char* kKernel = R"(
template <int kThreads, int kVec, int kUnroll>
__global__ void __launch_bounds__(kThreads) elementwise_kernel($kernel_params, int64_t n, bool vectorized) {
  using Tile = Int<kThreads * kVec * kUnroll>;
  Tensor mOut = make_tensor(make_gmem_ptr(out_ptr), make_shape(n));  // (n)
$tensors
  auto copy_out = cg_expert::vec_tiled_copy<$out_type, kThreads, kVec>();
  auto thr_out = copy_out.get_thread_slice(threadIdx.x);
$copies
  Tensor cOut = make_identity_tensor(make_shape(n));  // (n) -> linear index, for broadcast operands

  int64_t full_tiles = vectorized ? n / Tile{} : 0;
  for (int64_t t = blockIdx.x; t < full_tiles; t += gridDim.x) {
    Tensor gOut = local_tile(mOut, make_shape(Tile{}), make_coord(t));  // (Tile)
    Tensor tOgOut = thr_out.partition_D(gOut);                          // (CPY, kUnroll)
    Tensor tOcOut = thr_out.partition_D(local_tile(cOut, make_shape(Tile{}), make_coord(t)));
    Tensor tOrOut = make_fragment_like(tOgOut);                         // registers
$loads
    CUTE_UNROLL
    for (int i = 0; i < size(tOrOut); ++i) {
      int64_t idx = get<0>(tOcOut(i));
      (void)idx;
$tile_values
      tOrOut(i) = cg_expert::from_f<$out_type>($expr_tile);
    }
    copy(copy_out, tOrOut, tOgOut);
  }
  // Tail (or everything, when a pointer is not 16-byte aligned): one element per thread, predicated.
  for (int64_t idx = full_tiles * Tile{} + int64_t(blockIdx.x) * kThreads + threadIdx.x; idx < n;
       idx += int64_t(gridDim.x) * kThreads) {
$tail_values
    mOut(idx) = cg_expert::from_f<$out_type>($expr_tail);
  }
}

$signature {
  constexpr int kThreads = $threads, kVec = $vec, kUnroll = $unroll, kBlocksPerSm = $blocks_per_sm;
  constexpr int64_t n = $numel;
  bool vectorized = $aligned_check;
  int64_t tiles = n / (kThreads * kVec * kUnroll) + 1;
  int64_t cap = kBlocksPerSm > 0 ? int64_t(cg_expert::sm_count()) * kBlocksPerSm : int64_t(1) << 30;
  if (!vectorized) tiles = (n + kThreads - 1) / kThreads;
  int blocks = static_cast<int>(tiles < cap ? tiles : cap);
  elementwise_kernel<kThreads, kVec, kUnroll><<<blocks, kThreads, 0, stream>>>($call_args, n, vectorized);
}
)";

}  // namespace

std::string generate_elementwise(const Recipe& r, const TaskSpec& spec, const Params& p) {
  std::vector<std::string> kernel_params, call_args, tensors, copies, loads, tile_values, tail_values, checks;
  std::vector<std::string> tile_names, tail_names;
  checks.push_back("cg_expert::aligned_to(" + r.out_name + ", 16)");
  const int64_t tile = int64_t(p.threads) * p.vec * p.unroll;
  for (size_t k = 0; k < r.operands.size(); ++k) {
    auto& o = r.operands[k];
    std::string K = std::to_string(k), m = "mIn" + K;
    kernel_params.push_back(o.c_type + " const* __restrict__ in" + K);
    call_args.push_back(o.c_name);
    auto runs = o.dense ? std::nullopt : tileable_broadcast(r.out_shape, o.strides, tile, p.vec);
    if (o.dense) {
      tensors.push_back("  Tensor " + m + " = make_tensor(make_gmem_ptr(in" + K + "), make_shape(n));  // (n)");
    } else if (runs) {
      tensors.push_back("  Tensor " + m + " = make_tensor(make_gmem_ptr(in" + K + "), " +
                        operand_layout(runs->first, runs->second, true) + ");  // (n), contiguous runs of Tile multiples");
    } else {
      tensors.push_back("  Tensor " + m + " = make_tensor(make_gmem_ptr(in" + K + "), " +
                        operand_layout(r.out_shape, o.strides) + ");  // output dims, broadcast strides");
    }
    if (o.dense || runs) {
      copies.push_back("  auto copy_in" + K + " = cg_expert::evict_last_tiled_copy<" + o.c_type + ", kThreads, kVec>();");
      loads.push_back("    Tensor tIgIn" + K + " = copy_in" + K + ".get_thread_slice(threadIdx.x).partition_S(local_tile(" +
                      m + ", make_shape(Tile{}), make_coord(t)));  // (CPY, kUnroll)");
      loads.push_back("    Tensor tIrIn" + K + " = make_fragment_like(tIgIn" + K + ");");
      loads.push_back("    copy(copy_in" + K + ", tIgIn" + K + ", tIrIn" + K + ");");
      tile_values.push_back("      float v" + K + " = cg_expert::to_f(tIrIn" + K + "(i));");
      checks.push_back("cg_expert::aligned_to(" + o.c_name + ", 16)");
    } else {
      tile_values.push_back("      float v" + K + " = cg_expert::to_f(" + m + "(idx));");
    }
    tail_values.push_back("    float v" + K + " = cg_expert::to_f(" + m + "(idx));");
    tile_names.push_back("v" + K);
  }
  std::set<std::string> scalars;
  collect_scalars(r.expr, scalars);
  for (auto& s : scalars) {
    kernel_params.push_back("double " + s);
    call_args.push_back(s);
  }
  kernel_params.push_back(r.out_type + "* __restrict__ out_ptr");
  call_args.push_back(r.out_name);
  // A 16-bit output's rounding (bf16: 2^-8) hides the fast intrinsics' error; fp32 keeps accurate math.
  bool fast = r.out_type == "__half" || r.out_type == "__nv_bfloat16";
  std::string expr = to_cuda(r.expr, tile_names, {.fast = fast});
  return kernel_prelude(r.summary + " [" + to_string(p) + "]") +
         fill_template(kKernel, {{"kernel_params", join(kernel_params, ", ")},
                                 {"tensors", join(tensors, "\n")},
                                 {"copies", join(copies, "\n")},
                                 {"loads", join(loads, "\n")},
                                 {"tile_values", join(tile_values, "\n")},
                                 {"tail_values", join(tail_values, "\n")},
                                 {"expr_tile", expr},
                                 {"expr_tail", expr},
                                 {"out_type", r.out_type},
                                 {"signature", entry_signature(spec)},
                                 {"threads", std::to_string(p.threads)},
                                 {"vec", std::to_string(p.vec)},
                                 {"unroll", std::to_string(p.unroll)},
                                 {"blocks_per_sm", std::to_string(p.blocks_per_sm)},
                                 {"numel", std::to_string(r.out_numel)},
                                 {"aligned_check", join(checks, " && ")},
                                 {"call_args", join(call_args, ", ")}});
}

}  // namespace cutegen
