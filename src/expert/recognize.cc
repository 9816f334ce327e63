#include "expert/recognize.h"

#include <algorithm>
#include <functional>

#include "core/strings.h"
#include "expert/chain_recipe.h"
#include "expert/gemm_recipe.h"
#include "expert/recognize_parts.h"
#include "expert/templates.h"
#include "task/abi.h"

namespace cutegen {

const char* to_string(TemplateKind k) {
  static const char* names[] = {"elementwise", "reduce", "rownorm", "gemm", "conv"};
  return names[static_cast<int>(k)];
}
const char* to_string(ReduceOp op) {
  static const char* names[] = {"sum", "mean", "max", "min", "argmax", "argmin"};
  return names[static_cast<int>(op)];
}
const char* to_string(NormKind k) {
  static const char* names[] = {"softmax", "log_softmax", "layer_norm", "scale"};
  return names[static_cast<int>(k)];
}

Result<const TaskArg*> referenced_arg(const TaskSpec& spec, const GraphArg& ref) {
  auto* group = ref.kind == GraphArg::kInput ? &spec.inputs : ref.kind == GraphArg::kParam ? &spec.params : nullptr;
  if (!group) return error("not an input or parameter");
  for (auto& a : *group)
    if (a.name == ref.name) return &a;
  return error("the spec has no " + std::string(ref.kind == GraphArg::kInput ? "input " : "parameter ") + ref.name);
}

std::string abi_name(const TaskSpec& spec, const TaskArg* arg) {
  for (auto& p : abi_params(spec))
    if (p.arg == arg) return p.c_name;
  return "";
}

bool is_contiguous(const TaskArg& a) {
  int64_t expect = 1;
  for (int d = static_cast<int>(a.shape.size()) - 1; d >= 0; --d) {
    if (a.shape[d] != 1 && a.strides[d] != expect) return false;
    expect *= a.shape[d];
  }
  return true;
}

Status set_output(const TaskSpec& spec, const OpGraph& g, Recipe& r, bool integer_output) {
  if (spec.outputs.size() != 1 || g.outputs.size() != 1)
    return error("forward returns " + std::to_string(spec.outputs.size()) + " tensors; templates write one");
  auto& out = spec.outputs[0];
  bool is_float = out.dtype == DType::kFloat32 || out.dtype == DType::kFloat16 || out.dtype == DType::kBFloat16;
  if (integer_output ? out.dtype != DType::kInt64 : !is_float)
    return error("output dtype " + std::string(dtype_info(out.dtype).name) + " is not supported here");
  if (out.numel() == 0) return error("the output has zero elements (a zero-size dim); nothing to tile");
  if (!is_contiguous(out)) return error("the output is not contiguous");
  r.out_name = abi_name(spec, &out);
  r.out_type = dtype_info(out.dtype).c_type;
  r.out_numel = out.numel();
  r.out_shape = out.shape;
  return Ok{};
}

GraphArg skip_identity(const OpGraph& g, GraphArg a) {
  static const std::vector<std::string> identity = {"aten.clone.default", "aten.alias.default", "aten.detach.default"};
  while (a.kind == GraphArg::kOp && a.out < 0 && a.op >= 0 && a.op < static_cast<int>(g.nodes.size()) &&
         std::find(identity.begin(), identity.end(), g.nodes[a.op].op) != identity.end() && !g.nodes[a.op].args.empty())
    a = g.nodes[a.op].args[0];
  return a;
}

Result<int> normalize_dim(const GraphArg* dim, int rank) {
  if (dim && dim->kind == GraphArg::kList && dim->items.size() == 1) dim = &dim->items[0];
  if (!dim || dim->kind != GraphArg::kConst) return error("the reduction is not over exactly one dim");
  int d = static_cast<int>(dim->number);
  if (d < 0) d += rank;
  if (d < 0 || d >= rank) return error("dim " + std::to_string(static_cast<int>(dim->number)) + " is out of range");
  return d;
}

RowShape row_shape(const std::vector<int64_t>& shape, int first, int last) {
  RowShape s;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d)
    (d < first ? s.outer : d <= last ? s.extent : s.inner) *= shape[d];
  return s;
}

Result<Recipe> recognize(const TaskSpec& spec) {
  static const std::vector<std::pair<const char*, std::function<Result<Recipe>(const TaskSpec&, const OpGraph&)>>>
      recognizers = {
          {"elementwise", recognize_elementwise},    {"reduce", recognize_reduce},      {"rownorm", recognize_rownorm},
          {"rownorm (scale)", recognize_scale_norm}, {"chain", recognize_chain_kernel},
      };
  std::string ops = join(spec.ops, ", ");
  auto graph = import_graph(spec);
  if (!graph.ok()) return error("no template for this task; configure an LLM (" + graph.message() + ")");
  // A Python number passed to forward is traced as a constant, so a kernel would bake in the
  // example value; decline rather than risk a wrong answer for another value.
  for (auto& in : spec.inputs)
    if (!in.is_tensor())
      return error("no template for this task; configure an LLM (forward takes the scalar `" + in.name +
                   "`, which the op graph records only as its example value)");
  std::vector<std::string> reasons;
  for (auto& [name, fn] : recognizers) {
    auto r = fn(spec, *graph);
    if (r.ok()) return r;
    reasons.push_back(std::string(name) + ": " + r.message());
  }
  // A GEMM the kernels cannot compute: the decline says what was recognized and why not first.
  if (auto gemm = recognize_gemm(spec, *graph); !gemm.ok())
    reasons.push_back("gemm: " + gemm.message());
  else if (auto why = gemm_unsupported(*gemm); !why.empty())
    reasons.insert(reasons.begin(), std::string(kGemmRecognized) + gemm->summary() + kGemmNoKernel + why + ")");
  else
    return Recipe{.kind = TemplateKind::kGemm,
                  .summary = gemm->summary(),
                  .out_name = gemm->out_c_name,
                  .out_type = dtype_info(gemm->out_dtype).c_type,
                  .out_numel = spec.outputs.at(0).numel(),
                  .out_shape = gemm->out_shape,
                  .gemm = std::make_shared<const GemmRecipe>(*gemm)};
  return error("no template for this task; configure an LLM (ops: " + (ops.empty() ? "none" : ops) + "; " +
               join(reasons, "; ") + ")");
}

}  // namespace cutegen
