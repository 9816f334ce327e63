// Single-op reductions over one dim (sum, mean, max, min, argmax, argmin) and the row-wise
// normalizations that aten dispatches as one op (softmax, log-softmax, LayerNorm).
#include "expert/recognize_parts.h"

namespace cutegen {
namespace {

struct ReduceRow {
  const char* op;
  ReduceOp reduce;
  int result;  // which tuple element is the output (-1 for a single tensor)
};

const std::vector<ReduceRow>& reduce_ops() {
  static const std::vector<ReduceRow> rows = {
      {"aten.sum.dim_IntList", ReduceOp::kSum, -1},
      {"aten.mean.dim", ReduceOp::kMean, -1},
      {"aten.amax.default", ReduceOp::kMax, -1},
      {"aten.amin.default", ReduceOp::kMin, -1},
      {"aten.max.dim", ReduceOp::kMax, 0},
      {"aten.min.dim", ReduceOp::kMin, 0},
      {"aten.argmax.default", ReduceOp::kArgMax, -1},
      {"aten.argmin.default", ReduceOp::kArgMin, -1},
      {"aten.sum.default", ReduceOp::kSum, -1},
      {"aten.mean.default", ReduceOp::kMean, -1},
      {"aten.max.default", ReduceOp::kMax, -1},
      {"aten.min.default", ReduceOp::kMin, -1},
  };
  return rows;
}

// The one node the output comes from, after identity ops; errors if other real ops exist.
Result<std::pair<int, GraphArg>> single_op(const OpGraph& g) {
  if (g.outputs.size() != 1) return error("forward returns several tensors");
  GraphArg out = skip_identity(g, g.outputs[0]);
  if (out.kind != GraphArg::kOp) return error("the output is not computed by an op");
  int real = 0;
  for (auto& n : g.nodes)
    real += n.op != "aten.clone.default" && n.op != "aten.alias.default" && n.op != "aten.detach.default";
  if (real != 1) return error(std::to_string(real) + " ops, not one");
  return std::pair{out.op, out};
}

}  // namespace

Result<Recipe> recognize_reduce(const TaskSpec& spec, const OpGraph& g) {
  auto [index, out] = CUTEGEN_TRY(single_op(g));
  const GraphNode& n = g.nodes[index];
  const ReduceRow* row = nullptr;
  for (auto& r : reduce_ops())
    if (n.op == r.op) row = &r;
  if (!row) return error(n.op + " is not a reduction");
  if (out.out != row->result) return error(n.op + ": the output is not the reduced values");
  for (const char* k : {"dtype"})
    if (auto* a = n.arg(99, k); a && a->kind != GraphArg::kNone) return error(n.op + " with a dtype argument");
  bool arg = row->reduce == ReduceOp::kArgMax || row->reduce == ReduceOp::kArgMin;
  Recipe r{.kind = TemplateKind::kReduce, .reduce = row->reduce};
  CUTEGEN_TRY(set_output(spec, g, r, arg));
  auto* x = CUTEGEN_TRY(set_input(spec, g, n.args.at(0), r));
  int rank = static_cast<int>(x->shape.size());
  const GraphArg* dim = n.arg(1, "dim");
  bool all = !dim || dim->kind == GraphArg::kNone || (dim->kind == GraphArg::kList && dim->items.empty());
  if (all) {
    r.rows = RowShape{1, x->numel(), 1};
  } else {
    int d = CUTEGEN_TRY(normalize_dim(dim, rank));
    r.rows = row_shape(x->shape, d, d);
  }
  if (r.rows.outer * r.rows.inner != r.out_numel) return error("the output's size does not match the reduction");
  r.summary = std::string("reduce: ") + to_string(r.reduce) + " over [" + std::to_string(r.rows.outer) + ", " +
              std::to_string(r.rows.extent) + ", " + std::to_string(r.rows.inner) + "] (outer, reduced, inner)";
  return r;
}

Result<Recipe> recognize_rownorm(const TaskSpec& spec, const OpGraph& g) {
  auto [index, out] = CUTEGEN_TRY(single_op(g));
  const GraphNode& n = g.nodes[index];
  Recipe r{.kind = TemplateKind::kRowNorm};
  if (n.op == "aten._softmax.default" || n.op == "aten._log_softmax.default") {
    r.norm = n.op == "aten._softmax.default" ? NormKind::kSoftmax : NormKind::kLogSoftmax;
    CUTEGEN_TRY(set_output(spec, g, r));
    auto* x = CUTEGEN_TRY(set_input(spec, g, n.args.at(0), r));
    int d = CUTEGEN_TRY(normalize_dim(n.arg(1, "dim"), static_cast<int>(x->shape.size())));
    r.rows = row_shape(x->shape, d, d);
  } else if (n.op == "aten.native_layer_norm.default") {
    if (out.out != 0) return error("the output is not layer_norm's normalized tensor");
    r.norm = NormKind::kLayerNorm;
    CUTEGEN_TRY(set_output(spec, g, r));
    auto* x = CUTEGEN_TRY(set_input(spec, g, n.args.at(0), r));
    auto* shape = n.arg(1, "normalized_shape");
    int rank = static_cast<int>(x->shape.size());
    int k = shape && shape->kind == GraphArg::kList ? static_cast<int>(shape->items.size()) : 0;
    if (k < 1 || k > rank) return error("layer_norm's normalized_shape is not readable");
    r.rows = row_shape(x->shape, rank - k, rank - 1);
    for (auto [slot, name, target] : {std::tuple{2, "weight", &r.weight_name}, std::tuple{3, "bias", &r.bias_name}}) {
      auto* p = n.arg(slot, name);
      if (!p || p->kind == GraphArg::kNone) continue;
      auto* arg = CUTEGEN_TRY(referenced_arg(spec, *p));
      if (arg->numel() != r.rows.extent || !is_contiguous(*arg) || arg->dtype != DType::kFloat32)
        return error(std::string("layer_norm's ") + name + " is not a contiguous float32 row");
      *target = abi_name(spec, arg);
    }
    auto* eps = n.arg(4, "eps");
    if (!eps || eps->kind != GraphArg::kConst) return error("layer_norm's eps is not a constant");
    r.eps = eps->number;
  } else {
    return error(n.op + " is not a row normalization");
  }
  if (r.out_numel != r.rows.outer * r.rows.extent * r.rows.inner)
    return error("the output's size differs from the input's");
  r.summary = std::string("rownorm: ") + to_string(r.norm) + " over rows of " + std::to_string(r.rows.extent) + " ([" +
              std::to_string(r.rows.outer) + ", " + std::to_string(r.rows.extent) + ", " +
              std::to_string(r.rows.inner) + "])";
  return r;
}

}  // namespace cutegen
