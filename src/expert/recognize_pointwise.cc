// Elementwise chains, and "scale" normalizations (out = f(x, g(reduce(h(x))))) whose parts are
// pointwise: RMSNorm, L1/L2 norms over a dim, the Frobenius norm over everything.
#include <functional>
#include <algorithm>
#include <map>

#include "expert/pointwise_ops.h"
#include "expert/recognize_parts.h"
#include "task/abi.h"

namespace cutegen {
namespace {

// A reduction node a scale norm may use: its op, the statistic's combine, and what the value means.
struct StatOp {
  const char* op;
  ReduceOp reduce;
  bool mean;  // divide the sum by the count
};
const std::vector<StatOp>& stat_ops() {
  static const std::vector<StatOp> ops = {
      {"aten.sum.dim_IntList", ReduceOp::kSum, false}, {"aten.sum.default", ReduceOp::kSum, false},
      {"aten.mean.dim", ReduceOp::kSum, true},         {"aten.mean.default", ReduceOp::kSum, true},
      {"aten.amax.default", ReduceOp::kMax, false},    {"aten.linalg_vector_norm.default", ReduceOp::kSum, false},
  };
  return ops;
}

// Reduced dims [first, last] of a stat node; dim None or [] means all. Needs keepdim unless all.
Result<std::pair<int, int>> reduced_dims(const GraphNode& n, int rank) {
  bool norm = n.op == "aten.linalg_vector_norm.default";
  const GraphArg* dim = n.arg(norm ? 2 : 1, "dim");
  const GraphArg* keep = n.arg(norm ? 3 : 2, "keepdim");
  if (!dim || dim->kind == GraphArg::kNone || (dim->kind == GraphArg::kList && dim->items.empty()))
    return std::pair{0, rank - 1};
  std::vector<int> dims;
  for (auto& item : dim->kind == GraphArg::kList ? dim->items : std::vector<GraphArg>{*dim}) {
    dims.push_back(CUTEGEN_TRY(normalize_dim(&item, rank)));
  }
  std::sort(dims.begin(), dims.end());
  for (size_t i = 1; i < dims.size(); ++i)
    if (dims[i] != dims[i - 1] + 1) return error(n.op + " reduces dims that are not adjacent");
  bool all = dims.front() == 0 && dims.back() == rank - 1;
  if (!all && !(keep && keep->kind == GraphArg::kConst && keep->number != 0))
    return error(n.op + " without keepdim feeds a broadcast over other dims");
  return std::pair{dims.front(), dims.back()};
}

}  // namespace

Result<std::vector<int64_t>> broadcast_strides(const TaskArg& a, const std::vector<int64_t>& out) {
  int rank = static_cast<int>(out.size()), lrank = static_cast<int>(a.shape.size());
  if (lrank > rank) return error(a.name + " has more dims than the output");
  std::vector<int64_t> strides(rank, 0);
  for (int d = 0; d < rank; ++d) {
    int ld = d - (rank - lrank);
    if (ld < 0 || a.shape[ld] == 1) continue;
    if (a.shape[ld] != out[d])
      return error(a.name + " " + dims_text(a.shape) + " does not broadcast to " + dims_text(out));
    strides[d] = a.strides[ld];
  }
  return strides;
}

bool is_float(DType d) { return d == DType::kFloat32 || d == DType::kFloat16 || d == DType::kBFloat16; }

Result<ExprPtr> ExprBuilder::operator()(const GraphArg& a) {
  if (a.kind == GraphArg::kConst) return constant(a.number);
  if (a.kind == GraphArg::kInput || a.kind == GraphArg::kParam) return leaf_for(a);
  if (a.kind != GraphArg::kOp) return error("an operand is neither a tensor nor a number");
  if (a.op < 0 || a.op >= static_cast<int>(g.nodes.size())) return error("a graph reference is out of range");
  if (special) {
    auto s = special(a.op);
    if (!s.ok() || s.value()) return s;
  }
  if (a.out >= 0) return error(g.nodes[a.op].op + " returns several tensors");
  if (auto it = memo.find(a.op); it != memo.end()) return it->second;
  auto e = CUTEGEN_TRY(pointwise_expr(g.nodes[a.op], [this, op = a.op](const GraphArg& x) {
    consumer = op;
    return (*this)(x);
  }));
  memo[a.op] = e;
  return e;
}

bool is_inference_batch_norm(const GraphNode& n) {
  if (n.op == "aten._native_batch_norm_legit_no_training.default") return true;
  if (n.op != "aten.native_batch_norm.default" && n.op != "aten.cudnn_batch_norm.default" &&
      n.op != "aten._native_batch_norm_legit.default")
    return false;
  auto* training = n.arg(5, "training");
  return training && training->kind == GraphArg::kConst && training->number == 0;
}

Result<ExprPtr> inference_batch_norm(const TaskSpec& spec, ExprBuilder& b, int op, const ChannelLeafFn& channel) {
  const GraphNode& n = b.g.nodes[op];
  auto* in = b.g.value(n.args.at(0));
  if (!in || in->shape.size() < 2) return error(n.op + ": the graph records no shape for its input");
  auto* eps = n.arg(n.op == "aten._native_batch_norm_legit_no_training.default" ? 6 : 7, "eps");
  if (!eps || eps->kind != GraphArg::kConst) return error(n.op + "'s eps is not a constant");
  int saved = b.consumer;
  b.consumer = op;
  auto per_channel = [&](size_t i, const char* name) -> Result<ExprPtr> {
    auto* a = n.arg(i, name);
    if (!a || a->kind == GraphArg::kNone) return ExprPtr{};
    auto* t = CUTEGEN_TRY(referenced_arg(spec, skip_identity(b.g, *a)));
    if (t->shape != std::vector<int64_t>{in->shape[1]} || !is_contiguous(*t))
      return error(n.op + "'s " + name + " is not one contiguous value per channel");
    TaskArg view = *t;
    view.shape.assign(in->shape.size(), 1);
    view.shape[1] = in->shape[1];
    view.strides = contiguous_strides(view.shape);
    return channel(view, t);
  };
  auto x = b(n.args[0]);
  auto weight = per_channel(1, "weight"), bias = per_channel(2, "bias");
  auto mean = per_channel(3, "running_mean"), var = per_channel(4, "running_var");
  b.consumer = saved;
  for (auto* r : {&x, &weight, &bias, &mean, &var})
    if (!r->ok()) return error(r->message());
  if (!*mean || !*var) return error(n.op + " without running statistics");
  ExprPtr e = call(Prim::kMul, {call(Prim::kSub, {*x, *mean}),
                                call(Prim::kRsqrt, {call(Prim::kAdd, {*var, constant(eps->number)})})});
  if (*weight) e = call(Prim::kMul, {e, *weight});
  if (*bias) e = call(Prim::kAdd, {e, *bias});
  return e;
}

Result<const TaskArg*> set_input(const TaskSpec& spec, const OpGraph& g, const GraphArg& ref, Recipe& r) {
  GraphArg a = skip_identity(g, ref);
  if (a.kind != GraphArg::kInput) return error("the reduced tensor is not a forward input");
  auto* x = CUTEGEN_TRY(referenced_arg(spec, a));
  if (!x->is_tensor() || !is_float(x->dtype)) return error("input " + x->name + " is not a float tensor");
  if (!is_contiguous(*x)) return error("input " + x->name + " is not contiguous");
  if (x->numel() == 0) return error("input " + x->name + " has zero elements (a zero-size dim)");
  r.in_name = abi_name(spec, x);
  r.in_type = dtype_info(x->dtype).c_type;
  return x;
}

Result<Recipe> recognize_elementwise(const TaskSpec& spec, const OpGraph& g) {
  Recipe r{.kind = TemplateKind::kElementwise};
  CUTEGEN_TRY(set_output(spec, g, r));
  std::map<std::string, int> leaf_index;  // by ABI name and strides: one input read two ways is two operands
  // `arg` as read (a view's copy of its base, with the view's shape and strides); `name` its ABI parameter.
  auto operand = [&](const TaskArg& arg, const std::string& name) -> Result<ExprPtr> {
    if (!is_float(arg.dtype)) return error(arg.name + " is " + dtype_info(arg.dtype).name + ", not a float tensor");
    auto strides = CUTEGEN_TRY(broadcast_strides(arg, r.out_shape));
    std::string key = name + dims_text(strides);
    if (!leaf_index.count(key)) {
      bool dense = arg.shape == r.out_shape && is_contiguous(arg);
      leaf_index[key] = static_cast<int>(r.operands.size());
      r.operands.push_back({name, dtype_info(arg.dtype).c_type, strides, dense});
    }
    return leaf(leaf_index[key]);
  };
  // A view of an input (unsqueeze, expand, transpose, ...) is the input read with the view's strides.
  ViewLeafFn view_operand = [&](const StridedRead& read) -> Result<ExprPtr> {
    if (read.offset != 0) return error("an input read from an offset (a slice)");
    TaskArg view = *read.base;
    view.shape = read.shape;
    view.strides = CUTEGEN_TRY(read.strides());
    return operand(view, abi_name(spec, read.base));
  };
  ExprBuilder build{g, [&](const GraphArg& a) -> Result<ExprPtr> {
                      auto* arg = CUTEGEN_TRY(referenced_arg(spec, a));
                      if (!arg->is_tensor()) return scalar_arg(abi_name(spec, arg));
                      return operand(*arg, abi_name(spec, arg));
                    }};
  build.special = [&](int op) -> Result<ExprPtr> {
    if (is_view_op(g.nodes[op].op))
      return view_operand(CUTEGEN_TRY(strided_read(spec, g, GraphArg{.kind = GraphArg::kOp, .op = op})));
    if (is_diagonal_product(g, op)) return diagonal_product(spec, g, op, view_operand);
    return ExprPtr{};
  };
  for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) {
    auto& op = g.nodes[i].op;
    if (!is_pointwise_op(op) && !is_view_op(op) && op != "aten.diag_embed.default" && !is_diagonal_product(g, i))
      return error(op + " is not pointwise");
  }
  r.expr = CUTEGEN_TRY(build(g.outputs[0]));
  if (r.operands.empty()) return error("the output reads no tensor");
  r.summary = "elementwise: " + describe(r.expr);
  return r;
}

Result<Recipe> recognize_scale_norm(const TaskSpec& spec, const OpGraph& g) {
  int stat_node = -1;
  const StatOp* stat = nullptr;
  for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i)
    for (auto& s : stat_ops())
      if (g.nodes[i].op == s.op) {
        if (stat) return error("more than one reduction");
        stat = &s, stat_node = i;
      }
  if (!stat) return error("no reduction to normalize by");
  const GraphNode& node = g.nodes[stat_node];
  Recipe r{.kind = TemplateKind::kRowNorm, .reduce = stat->reduce, .norm = NormKind::kScale};
  CUTEGEN_TRY(set_output(spec, g, r));
  // pre: the reduced value as a function of the one input x.
  std::string x_name;
  auto only_x = [&](const GraphArg& a) -> Result<ExprPtr> {
    if (a.kind != GraphArg::kInput) return error("the normalization reads a parameter");
    if (x_name.empty()) x_name = a.name;
    if (a.name != x_name) return error("the normalization reads two inputs");
    return leaf(0);
  };
  ExprBuilder pre_build{g, only_x};
  ExprPtr pre = CUTEGEN_TRY(pre_build(node.args.at(0)));
  auto* x = CUTEGEN_TRY(set_input(spec, g, GraphArg{.kind = GraphArg::kInput, .name = x_name}, r));
  if (x->shape != r.out_shape) return error("the output's shape differs from the input's");
  auto [first, last] = CUTEGEN_TRY(reduced_dims(node, static_cast<int>(x->shape.size())));
  r.rows = row_shape(x->shape, first, last);
  ExprPtr stat_value = leaf(1);
  if (stat->mean) stat_value = call(Prim::kDiv, {stat_value, constant(static_cast<double>(r.rows.extent))});
  if (node.op == std::string("aten.linalg_vector_norm.default")) {
    auto* ord = node.arg(1, "ord");
    double p = ord && ord->kind == GraphArg::kConst ? ord->number : 2.0;
    if (p == 2) {
      pre = call(Prim::kMul, {pre, pre});
      stat_value = call(Prim::kSqrt, {stat_value});
    } else if (p == 1) {
      pre = call(Prim::kAbs, {pre});
    } else {
      return error("linalg_vector_norm with ord " + std::to_string(p) + " is not supported");
    }
  }
  r.pre = pre;
  // post: the output from x and the statistic.
  ExprBuilder post_build{g, only_x};
  post_build.special = [&](int op) -> Result<ExprPtr> { return op == stat_node ? stat_value : ExprPtr{}; };
  r.post = CUTEGEN_TRY(post_build(g.outputs[0]));
  r.summary = std::string("rownorm scale: ") + to_string(r.reduce) + " of " + describe(r.pre) +
              ", out = " + describe(r.post) + " over rows of " + std::to_string(r.rows.extent);
  return r;
}

}  // namespace cutegen
