// GEMMs (kernels/gemm): the instance (kernels/instances/gemm.cu.in; matvec.cu.in for a matrix-vector
// product) holds the epilogue functor generated from the recipe's expression
// (instances/gemm_epilogue.cu.in), the kernel's type at the strategy's point and the operands'
// strides. Batch dims fold into two groups: launches (a host loop) of batches (the kernel's L).
#include <climits>

#include "core/strings.h"
#include "expert/kernel_library.h"
#include "expert/templates.h"

namespace cutegen {
namespace {

struct BatchGroup {
  int64_t count = 1, a = 0, b = 0;  // batches, and A's and B's stride between them
};

// The batch dims (size 1 dropped), merged where both operands' strides allow: [launches, batches].
Result<std::pair<BatchGroup, BatchGroup>> batch_groups(const GemmRecipe& g) {
  std::vector<BatchGroup> groups;
  for (size_t i = 0; i < g.batch_shape.size(); ++i) {
    BatchGroup d{g.batch_shape[i], g.a.batch_strides[i], g.b.batch_strides[i]};
    if (d.count == 1) continue;
    if (!groups.empty() && groups.back().a == d.a * d.count && groups.back().b == d.b * d.count)
      groups.back() = {groups.back().count * d.count, d.a, d.b};
    else
      groups.push_back(d);
  }
  if (groups.size() > 2) return error("batch dims whose strides fold into more than two groups");
  while (groups.size() < 2)
    groups.insert(groups.begin(), BatchGroup{});
  return std::make_pair(groups[0], groups[1]);
}

// The kernel's element: fp32 operands stay fp32 (3xTF32 in the mainloop), or become tf32 parts
// when split ahead (fp16 ones with fp16x3).
const char* kernel_element(DType t, bool split_ahead = false, bool half_parts = false) {
  if (t == DType::kBFloat16) return "cute::bfloat16_t";
  if (t == DType::kFloat16 || half_parts) return "cute::half_t";
  return split_ahead ? "cute::tfloat32_t" : "float";
}

// Whether TMA can read an operand as stored, in its own layout: its contiguous mode stride 1, 16-byte aligned.
bool tma_readable(const GemmOperand& o, int64_t batch_stride) {
  bool unit = o.layout == MatrixLayout::kRowMajor ? o.col_stride == 1 : o.row_stride == 1;
  const int64_t per16 = o.dtype == DType::kFloat32 ? 4 : 8;
  return unit && o.ld % per16 == 0 && batch_stride % per16 == 0 && o.offset % per16 == 0;
}

// Whether TMA reads an operand in place: tma_readable, and fp32 operands must also be K-major (A
// row-major, B col-major); a 16-bit one may be either.
bool in_place(const GemmOperand& o, bool is_a, int64_t batch_stride) {
  const MatrixLayout k_major = is_a ? MatrixLayout::kRowMajor : MatrixLayout::kColMajor;
  if (o.dtype == DType::kFloat32 && o.layout != k_major) return false;
  return tma_readable(o, batch_stride);
}

// Bytes of the K-major copy of an fp32 operand the kernel cannot read in place (rows of K padded
// to 4, as the pre-pass writes them), 0 when it reads the operand in place.
int64_t copy_bytes(const GemmOperand& o, bool is_a, int64_t rows, int64_t k, const BatchGroup& batches,
                   int64_t stride) {
  if (in_place(o, is_a, stride)) return 0;
  return (stride == 0 ? 1 : batches.count) * rows * ((k + 3) / 4 * 4) * 4;
}

// Bytes of an fp32 operand split ahead into `parts` tf32 (or fp16) parts, one launch's batches.
int64_t split_ahead_bytes(int64_t rows, int64_t k, const BatchGroup& batches, int64_t stride, int parts = 3,
                          bool half = false) {
  return (stride == 0 ? 1 : batches.count) * rows * fp32_split_ahead_row_bytes(k, parts, half);
}

std::string n(int64_t v) { return std::to_string(v); }

// The register split promotes its tensor-core partial every two k-tiles up to this K, every k-tile
// beyond: on an H100 (2026-12-07f) level 2's 59 (K 32768) and 68 (16384) ran 7% and 6% faster at two,
// their errors 4-5x below eager's either way; level 1's 6 (K 524288) at two had 2.7x eager's error.
constexpr int64_t kRegisterSplitPairK = 65536;

// batch0 + batch (the task's flat batch index) -> element offset along the batch dims with these strides.
std::string batch_offset(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides) {
  std::vector<std::string> terms;
  int64_t inner = 1;
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    if (strides[i] != 0 && shape[i] != 1) {
      std::string index = inner == 1 ? "int64_t(batch0 + batch)" : "(int64_t(batch0 + batch) / " + n(inner) + ")";
      if (i > 0) index = "(" + index + " % " + n(shape[i]) + ")";
      terms.push_back(index + " * " + n(strides[i]));
    }
    inner *= shape[i];
  }
  return terms.empty() ? "0" : join(terms, " + ");
}

// The Epilogue struct and the arguments that construct it after batch0 (", bias, residual").
Result<std::pair<std::string, std::string>> epilogue(const GemmRecipe& g) {
  std::vector<std::string> members, loads, leaves = {"acc"}, args;
  for (size_t k = 0; k < g.epilogue_operands.size(); ++k) {
    auto& o = g.epilogue_operands[k];
    std::string K = n(int64_t(k) + 1);
    members.push_back("  " + std::string(dtype_info(o.dtype).c_type) + " const* in" + K + ";");
    std::string at = batch_offset(g.batch_shape, o.batch_strides) + " + row * int64_t(" + n(o.m_stride) +
                     ") + col * int64_t(" + n(o.n_stride) + ")";
    loads.push_back("    const float x" + K + " = float(in" + K + "[" + at + "]);");
    leaves.push_back("x" + K);
    args.push_back(", " + o.c_name);
  }
  bool fast = g.out_dtype == DType::kFloat16 || g.out_dtype == DType::kBFloat16;
  std::string expr = to_cuda(g.epilogue, leaves, {.fast = fast});
  // torch.tril/triu of the product: zeros outside the kept triangle, whose tiles the GEMM then skips.
  std::string masks_tiles;
  if (g.triangle != Triangle::kNone) {
    expr = "col - row " + std::string(g.triangle == Triangle::kLower ? "<=" : ">=") + " " + n(g.diagonal) + " ? " +
           expr + " : 0.0f";
    masks_tiles = "\n  static constexpr bool MasksTiles = true;  // the GEMM skips the tiles outside the triangle";
  }
  auto text = CUTEGEN_TRY(render_instance(
      "instances/gemm_epilogue.cu.in",
      {{"members", join(members, "\n")}, {"masks_tiles", masks_tiles}, {"loads", join(loads, "\n")}, {"expr", expr}}));
  return std::make_pair(text, join(args, ""));
}

std::string pointer(const GemmOperand& o) { return o.offset ? "(" + o.c_name + " + " + n(o.offset) + ")" : o.c_name; }

Result<std::string> matvec_instance(const Recipe& r, const Params& p, const std::string& signature) {
  const GemmRecipe& g = *r.gemm;
  auto [launches, batches] = CUTEGEN_TRY(batch_groups(g));
  auto [functor, functor_args] = CUTEGEN_TRY(epilogue(g));
  // N == 1: A's rows times B's column. M == 1: A's row times B's columns (B read transposed).
  const bool along_n = g.n != 1;
  const GemmOperand &mat = along_n ? g.b : g.a, &vec = along_n ? g.a : g.b;
  const int64_t mat_i = along_n ? g.b.col_stride : g.a.row_stride, mat_k = along_n ? g.b.row_stride : g.a.col_stride;
  const int64_t vec_k = along_n ? g.a.col_stride : g.b.row_stride;
  const BatchGroup& per = batches;
  const int64_t mat_batch = along_n ? per.b : per.a, vec_batch = along_n ? per.a : per.b;
  const int64_t outputs = along_n ? g.n : g.m;
  return render_instance("instances/matvec.cu.in", {{"title", kernel_title(r, p)},
                                                    {"epilogue", functor},
                                                    {"signature", signature},
                                                    {"launches", n(launches.count)},
                                                    {"batches", n(batches.count)},
                                                    {"input_type", dtype_info(g.a.dtype).c_type},
                                                    {"mat", pointer(mat)},
                                                    {"launch_stride_mat", n(along_n ? launches.b : launches.a)},
                                                    {"strides_mat", n(mat_i) + ", " + n(mat_k) + ", " + n(mat_batch)},
                                                    {"vec", pointer(vec)},
                                                    {"launch_stride_vec", n(along_n ? launches.a : launches.b)},
                                                    {"strides_vec", n(vec_k) + ", " + n(vec_batch)},
                                                    {"outputs", n(outputs)},
                                                    {"k", n(g.k)},
                                                    {"threads", n(p.threads)},
                                                    {"along_n", along_n ? "true" : "false"},
                                                    {"out", g.out_c_name},
                                                    {"launch_stride_out", n(batches.count * outputs)},
                                                    {"epilogue_args", functor_args}});
}

}  // namespace

std::string gemm_unsupported(const GemmRecipe& g) {
  auto groups = batch_groups(g);
  if (!groups.ok()) return groups.message();
  auto& [launches, batches] = *groups;
  if (g.a.dtype != g.b.dtype) return "A and B differ in dtype";
  if (g.m > INT_MAX || g.n > INT_MAX || 3 * g.k > INT_MAX || batches.count > INT_MAX || launches.count > INT_MAX)
    return "a dimension exceeds 32-bit indexing";
  if (g.kind == GemmClass::kMatVec) return "";
  if (g.math == GemmMath::kTF32) return "plain TF32 math is not emitted (3xTF32 keeps fp32 accuracy)";
  if (g.math == GemmMath::kNative) {
    if (!in_place(g.a, true, batches.a) || !in_place(g.b, false, batches.b))
      return "a 16-bit operand is not 16-byte aligned with a unit stride for TMA, and no padded copy is emitted";
    return "";
  }
  int64_t bytes =
      copy_bytes(g.a, true, g.m, g.k, batches, batches.a) + copy_bytes(g.b, false, g.n, g.k, batches, batches.b);
  if (bytes > kMaxGemmScratchBytes)
    return "K-major copies of the fp32 operands take " + n(bytes >> 20) + " MB, over the " +
           n(kMaxGemmScratchBytes >> 20) + " MB scratch";
  return "";
}

Result<std::string> gemm_instance(const Recipe& r, const TaskSpec& spec, const Params& p) {
  return gemm_instance(r, p, entry_signature(spec));
}

Result<std::string> gemm_instance(const Recipe& r, const Params& p, const std::string& signature) {
  const GemmRecipe& g = *r.gemm;
  if (auto why = gemm_unsupported(g); !why.empty()) return error("no GEMM kernel for this recipe: " + why);
  if (g.kind == GemmClass::kMatVec) return matvec_instance(r, p, signature);
  auto [launches, batches] = CUTEGEN_TRY(batch_groups(g));
  auto [functor, functor_args] = CUTEGEN_TRY(epilogue(g));
  std::string const epilogue_init = "Epilogue{launch * kBatches" + functor_args + "}";
  // fp32 operands are read K-major (copied so where stored otherwise); 16-bit ones as stored.
  const bool fp32 = g.math == GemmMath::k3xTF32;
  auto layout = [&](const GemmOperand& o, const char* k_major) {
    return fp32 ? k_major : o.layout == MatrixLayout::kRowMajor ? "RowMajor" : "ColMajor";
  };
  auto scratch = [](int64_t bytes) { return n((bytes + 255) / 256 * 256); };
  const bool pipelined = p.strategy == Strategy::kGemmPipelined, ahead = fp32 && p.split_ahead > 0;
  const bool registers = fp32 && p.register_split, swap = gemm_swaps_operands(g, p);
  // B split in the kernel from an MN-major B as stored (N contiguous, TMA-aligned): its split transposes it.
  const bool b_rows =
      fp32 && p.register_split == 2 && !swap && g.b.layout == MatrixLayout::kRowMajor && tma_readable(g.b, batches.b);
  auto strides = [&](const GemmOperand& o, int64_t batch_stride) {
    return n(o.row_stride) + ", " + n(o.col_stride) + ", " + n(batches.count == 1 ? 0 : batch_stride);
  };
  // The kernel's A (M x K) and B (K x N): swapped, B^T and A^T (C^T = B^T A^T, stored transposed).
  const GemmOperand &ka = swap ? g.b : g.a, &kb = swap ? g.a : g.b;
  const int64_t km = swap ? g.n : g.m, kn = swap ? g.m : g.n, ka_batch = swap ? batches.b : batches.a,
                kb_batch = swap ? batches.a : batches.b;
  // The kernel's A as stored where it is M-major (B^T of a B stored N-contiguous, or A stored so):
  // the register split loads it element by element, in any layout.
  const bool a_columns = registers && !in_place(ka, !swap, ka_batch) && tma_readable(ka, ka_batch);
  auto kernel_strides = [&](const GemmOperand& o, int64_t batch_stride, bool transposed) {
    return transposed ? n(o.col_stride) + ", " + n(o.row_stride) + ", " + n(batches.count == 1 ? 0 : batch_stride)
                      : strides(o, batch_stride);
  };
  // The register split writes the kernel's B in two tf32 parts, lo and hi (or reads it K-major fp32
  // where the kernel splits it).
  int64_t copy_a = !fp32 || a_columns ? 0
                   : ahead            ? split_ahead_bytes(g.m, g.k, batches, batches.a, p.split_parts, p.fp16x3)
                                      : copy_bytes(ka, !swap, km, g.k, batches, ka_batch);
  int64_t copy_b = !fp32    ? 0
                   : ahead  ? split_ahead_bytes(g.n, g.k, batches, batches.b, p.split_parts, p.fp16x3)
                   : b_rows ? 0
                   : registers && p.register_split == 1 ? split_ahead_bytes(kn, g.k, batches, kb_batch, 2)
                   : registers                          ? copy_bytes(kb, swap, kn, g.k, batches, kb_batch)
                                                        : copy_bytes(g.b, false, g.n, g.k, batches, batches.b);
  // The triangle whose outside tiles the masked scheduler skips (the epilogue's MasksTiles).
  std::string const mask =
      g.triangle == Triangle::kNone
          ? ""
          : "\n    args.mask = {cg::TileMask::" + std::string(g.triangle == Triangle::kUpper ? "kUpper" : "kLower") +
                ", " + n(g.diagonal) + "};";
  return render_instance("instances/gemm.cu.in",
                         {{"title", kernel_title(r, p)},
                          {"header", std::string(strategy_def(p.strategy).header).substr(5)},
                          {"epilogue", functor},
                          {"functor", p.fp16x3 ? "cg::Fp16x3Unscale<Epilogue>" : "Epilogue"},
                          {"functor_init", p.fp16x3 ? "Functor{" + epilogue_init + "}" : epilogue_init},
                          {"scales", p.fp16x3 ? "256" : "0"},
                          {"element", kernel_element(g.a.dtype, ahead, p.fp16x3)},
                          {"element_c", kernel_element(g.out_dtype)},
                          {"layout_a", a_columns ? "ColMajor" : layout(g.a, "RowMajor")},
                          {"layout_b", b_rows ? "RowMajor" : layout(g.b, "ColMajor")},
                          {"tile_m", n(p.tile_m)},
                          {"tile_n", n(p.tile_n)},
                          {"stages", n(p.stages)},
                          {"cluster_m", n(pipelined ? 1 : p.cluster_m)},
                          {"cluster_n", n(pipelined ? 1 : p.cluster_n)},
                          {"mma_warpgroups", p.strategy == Strategy::kGemmPingpong ? "1" : "2"},
                          {"promote_every", n(ahead                                     ? p.split_ahead
                                              : registers && g.k <= kRegisterSplitPairK ? 2
                                                                                        : 1)},
                          {"register_split", n(registers ? p.register_split : 0)},
                          {"split_parts", ahead && p.fp16x3                 ? ", 3, true"
                                          : ahead && p.split_parts == 2     ? ", 2"
                                          : registers && p.split_parts == 1 ? ", 1"
                                                                            : ""},
                          {"transposed_c", swap ? "true" : "false"},
                          {"kernel", pipelined ? "GemmPipelined" : "GemmWarpSpecialized"},
                          {"kernel_params", p.tma_store ? ", cg::GemmParams<Config, Functor, "
                                                          "cg::EpilogueTmaStore<Config, Functor, " +
                                                              n(p.tma_store) + ">>"
                                                        : ""},
                          {"copy_a", scratch(copy_a)},
                          {"copy_b", scratch(copy_b)},
                          {"workspace", scratch(split_k_workspace_bytes(r, p))},
                          {"split_k", n(p.split_k)},
                          {"mask", mask},
                          {"signature", signature},
                          {"launches", n(launches.count)},
                          {"batches", n(batches.count)},
                          {"m", n(km)},
                          {"n", n(kn)},
                          {"ldc", n(g.n)},
                          {"k", n(g.k)},
                          {"out", g.out_c_name},
                          {"launch_stride_c", n(batches.count * g.m * g.n)},
                          {"batch_stride_c", n(g.m * g.n)},
                          {"swizzle", n(p.swizzle)},
                          {"input_type", dtype_info(g.a.dtype).c_type},
                          {"a", pointer(ka)},
                          {"launch_stride_a", n(swap ? launches.b : launches.a)},
                          {"strides_a", kernel_strides(ka, ka_batch, swap)},
                          {"b", pointer(kb)},
                          {"launch_stride_b", n(swap ? launches.a : launches.b)},
                          {"strides_b", kernel_strides(kb, kb_batch, swap)}});
}

}  // namespace cutegen
