// GEMM-shaped work: one matrix product (mm, bmm, addmm, baddbmm, mv, addmv; matmul, linear and
// einsum reach dispatch as these) with its operands read through views of inputs or parameters,
// and the pointwise ops that follow it as an epilogue built by the elementwise expression machinery.
// Also diag(d) @ B and B @ diag(d), which are scalings and go to the elementwise template.
#include <algorithm>
#include <set>

#include "core/strings.h"
#include "expert/gemm_recipe.h"
#include "expert/graph.h"
#include "expert/pointwise_ops.h"
#include "expert/recognize_parts.h"
#include "expert/strided.h"
#include "task/abi.h"

namespace cutegen {
namespace {

// A product op: where its operands sit; self (-1 when none) is added as beta * self + alpha * A@B.
struct ProductOp {
  const char* op;
  int self, a, b;
  bool batched, vector;
};
const std::vector<ProductOp>& product_ops() {
  static const std::vector<ProductOp> ops = {
      {"aten.mm.default", -1, 0, 1, false, false}, {"aten.addmm.default", 0, 1, 2, false, false},
      {"aten.bmm.default", -1, 0, 1, true, false}, {"aten.baddbmm.default", 0, 1, 2, true, false},
      {"aten.mv.default", -1, 0, 1, false, true},  {"aten.addmv.default", 0, 1, 2, false, true},
  };
  return ops;
}
const ProductOp* product_op(const std::string& op) {
  for (auto& p : product_ops())
    if (op == p.op) return &p;
  return nullptr;
}

// Ops that reduce or normalize what they read: after a product they make a reduction epilogue.
bool is_reduction(const std::string& op) {
  static const std::set<std::string> ops = {"aten.sum.dim_IntList",
                                            "aten.sum.default",
                                            "aten.mean.dim",
                                            "aten.mean.default",
                                            "aten.amax.default",
                                            "aten.amin.default",
                                            "aten.max.dim",
                                            "aten.min.dim",
                                            "aten.max.default",
                                            "aten.min.default",
                                            "aten.logsumexp.default",
                                            "aten._softmax.default",
                                            "aten._log_softmax.default",
                                            "aten.native_group_norm.default",
                                            "aten.native_batch_norm.default",
                                            "aten.native_layer_norm.default",
                                            "aten.avg_pool2d.default",
                                            "aten.max_pool2d_with_indices.default",
                                            "aten.var.correction",
                                            "aten.std.correction",
                                            "aten.argmax.default",
                                            "aten.argmin.default",
                                            "aten.linalg_vector_norm.default",
                                            "aten._native_batch_norm_legit_functional.default"};
  return ops.count(op) > 0;
}

bool is_inplace(const std::string& op) {  // "aten.add_.Tensor"
  auto first = op.find('.'), second = op.find('.', first + 1);
  return first != std::string::npos && second != std::string::npos && op[second - 1] == '_';
}
std::vector<int64_t> sizes_of(const Modes& m) {
  std::vector<int64_t> s;
  for (auto& x : m)
    s.push_back(x.size);
  return s;
}

// The op nodes an argument (or a list of them) refers to.
void referenced_ops(const GraphArg& a, std::vector<int>& ops) {
  if (a.kind == GraphArg::kOp) ops.push_back(a.op);
  for (auto& item : a.items)
    referenced_ops(item, ops);
}
std::vector<int> inputs_of(const GraphNode& n) {
  std::vector<int> ops;
  for (auto& a : n.args)
    referenced_ops(a, ops);
  for (auto& [k, a] : n.kwargs)
    referenced_ops(a, ops);
  return ops;
}

// Nodes the output depends on (`needed`), and those that depend on node `from` (`after`).
struct Reach {
  std::vector<bool> needed, after;
};
Reach reach(const OpGraph& g, int from) {
  int n = static_cast<int>(g.nodes.size());
  Reach r{std::vector<bool>(n), std::vector<bool>(n)};
  std::vector<int> todo;
  for (auto& o : g.outputs)
    referenced_ops(o, todo);
  while (!todo.empty()) {
    int i = todo.back();
    todo.pop_back();
    if (i < 0 || i >= n || r.needed[i]) continue;
    r.needed[i] = true;
    for (int j : inputs_of(g.nodes[i]))
      todo.push_back(j);
  }
  r.after[from] = true;
  for (int i = from + 1; i < n; ++i)  // the graph is in execution order
    for (int j : inputs_of(g.nodes[i]))
      r.after[i] = r.after[i] || (j >= 0 && j < n && r.after[j]);
  return r;
}

Result<double> number_arg(const GraphNode& n, size_t i, const char* name, double fallback) {
  auto* a = n.arg(i, name);
  if (!a || a->kind == GraphArg::kNone) return fallback;
  if (a->kind != GraphArg::kConst) return error(n.op + "'s " + name + " is not a constant");
  return a->number;
}

// A or B from its read: the matrix dims' strides, the layout (preferring K-major where a size-1
// dim leaves it open: A row-major, B col-major), and the leading dimension.
Result<GemmOperand> matrix_operand(const TaskSpec& spec, const StridedRead& r, int64_t rows, int64_t cols,
                                   int64_t row_stride, int64_t col_stride, bool is_a) {
  GemmOperand o{.name = r.base->name,
                .c_name = abi_name(spec, r.base),
                .dtype = r.base->dtype,
                .row_stride = row_stride,
                .col_stride = col_stride,
                .offset = r.offset};
  bool row_major = cols == 1 || col_stride == 1, col_major = rows == 1 || row_stride == 1;
  if (!row_major && !col_major)
    return error(std::string(is_a ? "A" : "B") + " (" + o.name + ") has no unit-stride matrix dim");
  o.layout = row_major && (is_a || !col_major) ? MatrixLayout::kRowMajor : MatrixLayout::kColMajor;
  if (o.layout == MatrixLayout::kRowMajor)
    o.ld = rows == 1 ? cols : row_stride;
  else
    o.ld = cols == 1 ? rows : col_stride;
  return o;
}

std::string strides_text(const std::vector<int64_t>& batch, int64_t a, int64_t b) {
  std::vector<int64_t> all = batch;
  all.push_back(a);
  all.push_back(b);
  return dims_text(all);
}

// The diagonal operand of mm(diag_embed(d), B) or mm(B, diag_embed(d)): 0 for A, 1 for B, -1 when neither.
int diagonal_side(const OpGraph& g, const GraphNode& n) {
  if (n.op != "aten.mm.default" || n.args.size() != 2) return -1;
  for (int side = 0; side < 2; ++side) {
    auto& a = n.args[side];
    if (a.kind != GraphArg::kOp || a.op < 0 || a.op >= static_cast<int>(g.nodes.size())) continue;
    auto& d = g.nodes[a.op];
    if (d.op != "aten.diag_embed.default" || d.args.size() != 1 || !d.kwargs.empty()) continue;
    return side;
  }
  return -1;
}

class GemmBuilder {
 public:
  GemmBuilder(const TaskSpec& spec, const OpGraph& g) : spec_(spec), g_(g) {}

  Result<GemmRecipe> build() {
    CUTEGEN_TRY(find_product());
    CUTEGEN_TRY(read_operands());
    CUTEGEN_TRY(check_after());
    CUTEGEN_TRY(set_output());
    CUTEGEN_TRY(build_epilogue());
    r_.kind = r_.m == 1 || r_.n == 1 ? GemmClass::kMatVec : GemmClass::kGemm;
    return r_;
  }

 private:
  Status find_product() {
    for (int i = 0; i < static_cast<int>(g_.nodes.size()); ++i)
      if (product_op(g_.nodes[i].op)) {
        if (node_ >= 0)
          return error("two matrix products (" + g_.nodes[node_].op + ", " + g_.nodes[i].op +
                       "): chained GEMMs are not one recipe");
        node_ = i;
      }
    if (node_ < 0) return error("no matrix product (mm, bmm, addmm, baddbmm, mv, addmv)");
    op_ = product_op(g_.nodes[node_].op);
    r_.op = op_->op;
    if (diagonal_side(g_, g_.nodes[node_]) >= 0) return error("a product with diag(...) is a scaling, not a GEMM");
    reach_ = reach(g_, node_);
    if (!reach_.needed[node_]) return error("the output does not depend on " + r_.op);
    return Ok{};
  }

  Status read_operands() {
    const GraphNode& n = g_.nodes[node_];
    if (static_cast<int>(n.args.size()) <= op_->b) return error(r_.op + " has too few arguments");
    StridedRead a = CUTEGEN_TRY(with_context("A", strided_read(spec_, g_, n.args[op_->a])));
    StridedRead b = CUTEGEN_TRY(with_context("B", strided_read(spec_, g_, n.args[op_->b])));
    size_t rank = op_->batched ? 3 : 2;
    if (a.shape.size() != rank || b.shape.size() != (op_->vector ? 1 : rank))
      return error(r_.op + ": operand ranks do not match");
    size_t am = rank - 2;
    r_.m = a.shape[am], r_.k = a.shape[am + 1], r_.n = op_->vector ? 1 : b.shape[rank - 1];
    int64_t a_rm = CUTEGEN_TRY(a.stride(am)), a_rk = CUTEGEN_TRY(a.stride(am + 1));
    int64_t b_rk = CUTEGEN_TRY(b.stride(op_->vector ? 0 : rank - 2)),
            b_rn = op_->vector ? 0 : CUTEGEN_TRY(b.stride(rank - 1));
    Modes a_batch = op_->batched ? merged(a.dims[0]) : Modes{}, b_batch = op_->batched ? merged(b.dims[0]) : Modes{};
    r_.batch_shape = CUTEGEN_TRY(common_sizes(sizes_of(a_batch), sizes_of(b_batch)));
    auto a_strides = CUTEGEN_TRY(batch_strides(a_batch)), b_strides = CUTEGEN_TRY(batch_strides(b_batch));
    // B shared by every batch and A's batch continuing its rows: one GEMM with M = batch * M.
    bool b_shared = std::all_of(b_strides.begin(), b_strides.end(), [](int64_t s) { return s == 0; });
    Modes a_rows = a_batch;
    a_rows.push_back(Mode{r_.m, a_rm});
    if (!r_.batch_shape.empty() && b_shared && merged(a_rows).size() == 1) {
      r_.m *= product(r_.batch_shape);
      a_rm = merged(a_rows)[0].stride;
      r_.batch_shape.clear();
      a_strides.clear();
      b_strides.clear();
    }
    r_.a = CUTEGEN_TRY(matrix_operand(spec_, a, r_.m, r_.k, a_rm, a_rk, true));
    r_.b = CUTEGEN_TRY(matrix_operand(spec_, b, r_.k, r_.n, b_rk, b_rn, false));
    r_.a.batch_strides = a_strides;
    r_.b.batch_strides = b_strides;
    if (!is_float(r_.a.dtype) || r_.a.dtype != r_.b.dtype)
      return error(std::string("A is ") + dtype_info(r_.a.dtype).name + " and B " + dtype_info(r_.b.dtype).name +
                   " (both must be one of float32, bfloat16, float16)");
    r_.math = r_.a.dtype == DType::kFloat32 ? GemmMath::k3xTF32 : GemmMath::kNative;
    return Ok{};
  }

  template <class T>
  Result<T> with_context(const char* which, Result<T> r) {
    if (r.ok()) return r;
    return error(std::string(which) + " of " + r_.op + ": " + r.message() + " (prologue fusion is not supported)");
  }

  // The batch modes regrouped into batch_shape: one stride per batch dim.
  Result<std::vector<int64_t>> batch_strides(const Modes& modes) {
    std::vector<int64_t> strides;
    if (r_.batch_shape.empty()) return strides;
    auto dims = CUTEGEN_TRY(regroup(modes.empty() ? Modes{Mode{product(r_.batch_shape), 0}} : modes, r_.batch_shape));
    for (auto& d : dims)
      strides.push_back(merged(d).empty() ? 0 : merged(d)[0].stride);
    return strides;
  }

  std::string shape_text() const {
    std::string s = "M=" + std::to_string(r_.m) + " N=" + std::to_string(r_.n) + " K=" + std::to_string(r_.k);
    if (!r_.batch_shape.empty()) s += " batch=" + dims_text(r_.batch_shape);
    return s;
  }

  // Every op after the product that the output needs must be pointwise (or a view, cast, tril/triu).
  Status check_after() {
    for (auto& n : g_.nodes) {
      if (contains(n.op, "bernoulli")) return error("dropout in training mode draws random numbers (" + n.op + ")");
      if (is_inplace(n.op) && !n.args.empty() && n.args[0].kind == GraphArg::kOp && reach_.needed[n.args[0].op])
        return error("the in-place " + n.op + " writes a value the output reads");
    }
    for (int i = node_ + 1; i < static_cast<int>(g_.nodes.size()); ++i) {
      const GraphNode& n = g_.nodes[i];
      if (!reach_.needed[i] || !reach_.after[i]) continue;
      if (is_inference_batch_norm(n)) continue;  // per channel: pointwise (segment.cc)
      if (is_reduction(n.op))
        return error("GEMM (" + shape_text() + ") followed by " + n.op +
                     ": a reduction epilogue, not yet supported (the product would be stored and reduced apart)");
      if (!is_pointwise_op(n.op) && !is_view_op(n.op) && !epilogue_special(n.op))
        return error(n.op + " after " + r_.op + " is not pointwise");
    }
    return Ok{};
  }
  static bool epilogue_special(const std::string& op) {
    return op == "aten._to_copy.default" || op == "aten.tril.default" || op == "aten.triu.default";
  }

  Status set_output() {
    if (spec_.outputs.size() != 1 || g_.outputs.size() != 1)
      return error("forward returns " + std::to_string(spec_.outputs.size()) + " tensors; a GEMM writes one");
    auto& out = spec_.outputs[0];
    if (!is_float(out.dtype))
      return error(std::string("output dtype ") + dtype_info(out.dtype).name + " is not a float");
    if (!is_contiguous(out)) return error("the output is not contiguous");
    if (out.numel() != product(r_.batch_shape) * r_.m * r_.n)
      return error("the output " + dims_text(out.shape) + " is not the product's " + shape_text());
    r_.out_name = out.name;
    r_.out_c_name = abi_name(spec_, &out);
    r_.out_dtype = out.dtype;
    r_.out_shape = out.shape;
    return Ok{};
  }

  std::vector<int64_t> consumer_shape() const {
    if (expr_.consumer < 0) return r_.out_shape;
    auto* v = g_.value(GraphArg{.kind = GraphArg::kOp, .op = expr_.consumer});
    return v ? v->shape : std::vector<int64_t>{};
  }

  // An epilogue operand read through `read`, as its consumer broadcasts it, in (batch..., M, N).
  Result<ExprPtr> epilogue_leaf(const StridedRead& read) {
    if (read.offset != 0) return error(read.base->name + " is read from an offset (a slice) in the epilogue");
    TaskArg view = *read.base;
    view.shape = read.shape;
    view.strides = CUTEGEN_TRY(read.strides());
    return epilogue_leaf(view, read.base);
  }
  // `view`: the shape and strides `base` is read with.
  Result<ExprPtr> epilogue_leaf(const TaskArg& view, const TaskArg* base) {
    if (!is_float(base->dtype)) return error(base->name + " is not a float tensor");
    auto shape = consumer_shape();
    int64_t total = product(r_.batch_shape) * r_.m * r_.n;
    if (product(shape) != total)
      return error(base->name + " enters a part of the epilogue that is not the product's shape");
    auto strides = CUTEGEN_TRY(broadcast_strides(view, shape));
    Modes modes;
    for (size_t d = 0; d < shape.size(); ++d)
      modes.push_back(Mode{shape[d], strides[d]});
    std::vector<int64_t> sizes = r_.batch_shape;
    sizes.push_back(r_.m);
    sizes.push_back(r_.n);
    auto dims = CUTEGEN_TRY(regroup(modes, sizes));
    std::vector<int64_t> per_dim;
    for (auto& d : dims) {
      Modes m = merged(d);
      if (m.size() > 1)
        return error(base->name + " " + dims_text(view.shape) + " does not follow the product's (batch, M, N)");
      per_dim.push_back(m.empty() ? 0 : m[0].stride);
    }
    EpilogueOperand o{.name = base->name, .c_name = abi_name(spec_, base), .dtype = base->dtype};
    o.n_stride = per_dim.back();
    per_dim.pop_back();
    o.m_stride = per_dim.back();
    per_dim.pop_back();
    o.batch_strides = per_dim;
    std::string key = o.c_name + strides_text(o.batch_strides, o.m_stride, o.n_stride);
    if (!leaves_.count(key)) {
      leaves_[key] = static_cast<int>(r_.epilogue_operands.size()) + 1;
      r_.epilogue_operands.push_back(o);
    }
    return leaf(leaves_[key]);
  }

  // The product as its consumer reads it: alpha * acc (+ beta * self).
  Result<ExprPtr> product_value() {
    const GraphNode& n = g_.nodes[node_];
    if (auto* v = g_.value(GraphArg{.kind = GraphArg::kOp, .op = node_});
        !v || product(consumer_shape()) != product(v->shape))
      return error("the epilogue broadcasts the product to a larger shape");
    ExprPtr acc = leaf(0);
    if (op_->self < 0) return acc;
    double beta = CUTEGEN_TRY(number_arg(n, 99, "beta", 1.0)), alpha = CUTEGEN_TRY(number_arg(n, 99, "alpha", 1.0));
    if (alpha != 1) acc = call(Prim::kMul, {acc, constant(alpha)});
    if (beta == 0) return acc;  // torch ignores self then (even NaN)
    int saved = expr_.consumer;
    expr_.consumer = node_;
    auto self = expr_(n.args[op_->self]);
    expr_.consumer = saved;
    ExprPtr bias = CUTEGEN_TRY(std::move(self));
    if (beta != 1) bias = call(Prim::kMul, {bias, constant(beta)});
    return call(Prim::kAdd, {acc, bias});
  }

  // Views over the product (the reshape back after a folded matmul) keep the elements in order.
  Result<ExprPtr> view_value(int op) {
    GraphArg at{.kind = GraphArg::kOp, .op = op};
    while (at.kind == GraphArg::kOp && at.op != node_ &&
           (is_view_op(g_.nodes[at.op].op) || g_.nodes[at.op].op == "aten.clone.default")) {
      auto* v = g_.value(at);
      if (!v || v->offset != 0 || !is_dense_row_major(v->shape, v->strides))
        return error(g_.nodes[at.op].op + " reorders the product's elements");
      at = g_.nodes[at.op].args.at(0);
    }
    if (at.kind == GraphArg::kOp && at.op == node_) return product_value();
    if (at.kind == GraphArg::kOp)
      return error("a view of a computed value (" + g_.nodes[at.op].op + ") in the epilogue");
    return epilogue_leaf(CUTEGEN_TRY(strided_read(spec_, g_, GraphArg{.kind = GraphArg::kOp, .op = op})));
  }

  Result<ExprPtr> special(int op) {
    const GraphNode& n = g_.nodes[op];
    if (op == node_) return product_value();
    if (is_view_op(n.op)) return view_value(op);
    if (is_inference_batch_norm(n))
      return inference_batch_norm(
          spec_, expr_, op, [this](const TaskArg& view, const TaskArg* base) { return epilogue_leaf(view, base); });
    if (n.op == "aten.tril.default" || n.op == "aten.triu.default") {
      if (op != top_) return error(n.op + " inside the epilogue (only on the output)");
      r_.triangle = n.op == "aten.tril.default" ? Triangle::kLower : Triangle::kUpper;
      r_.diagonal = static_cast<int64_t>(CUTEGEN_TRY(number_arg(n, 1, "diagonal", 0)));
      return expr_(n.args.at(0));
    }
    if (n.op == "aten._to_copy.default") {
      for (auto& [k, v] : n.kwargs)
        if (k != "dtype" && v.kind != GraphArg::kNone) return error(n.op + " with " + k);
      auto* v = g_.value(GraphArg{.kind = GraphArg::kOp, .op = op});
      if (!v || !is_float(v->dtype)) return error(n.op + " to a non-float type");
      if (op != top_ && v->dtype != DType::kFloat32) return error(n.op + " narrows a value inside the epilogue");
      return expr_(n.args.at(0));
    }
    return ExprPtr{};
  }

  Status build_epilogue() {
    GraphArg out = skip_identity(g_, g_.outputs[0]);
    top_ = out.kind == GraphArg::kOp ? out.op : -1;
    expr_.leaf_for = [this](const GraphArg& a) -> Result<ExprPtr> {
      auto* arg = CUTEGEN_TRY(referenced_arg(spec_, a));
      if (!arg->is_tensor()) return scalar_arg(abi_name(spec_, arg));
      return epilogue_leaf(CUTEGEN_TRY(strided_read(spec_, g_, a)));
    };
    expr_.special = [this](int op) { return special(op); };
    auto e = expr_(g_.outputs[0]);
    if (!e.ok()) return error("the epilogue after GEMM (" + shape_text() + "): " + e.message());
    r_.epilogue = *e;
    return Ok{};
  }

  const TaskSpec& spec_;
  const OpGraph& g_;
  int node_ = -1, top_ = -1;
  const ProductOp* op_ = nullptr;
  Reach reach_;
  GemmRecipe r_;
  ExprBuilder expr_{g_, nullptr};
  std::map<std::string, int> leaves_;
};

std::string operand_text(const char* which, const GemmOperand& o, bool batched) {
  std::string s = std::string(which) + " (" + o.name + "): " + to_string(o.layout) + " ld " + std::to_string(o.ld);
  if (o.transposed()) s += ", transposed";
  if (batched) s += ", batch strides " + dims_text(o.batch_strides);
  if (o.offset) s += " offset " + std::to_string(o.offset);
  return s;
}

}  // namespace

const char* to_string(GemmClass c) { return c == GemmClass::kGemm ? "gemm" : "matvec"; }
const char* to_string(MatrixLayout l) { return l == MatrixLayout::kRowMajor ? "row-major" : "col-major"; }
const char* to_string(GemmMath m) {
  static const char* names[] = {"native", "3xTF32", "TF32"};
  return names[static_cast<int>(m)];
}
const char* to_string(Triangle t) {
  static const char* names[] = {"none", "lower", "upper"};
  return names[static_cast<int>(t)];
}

bool GemmOperand::transposed() const { return layout == MatrixLayout::kColMajor; }

int64_t GemmRecipe::batch_count() const { return product(batch_shape); }

std::string GemmRecipe::summary() const {
  std::string s = std::string(to_string(kind)) + " " + dtype_info(a.dtype).name + " (" + to_string(math) +
                  "): M=" + std::to_string(m) + " N=" + std::to_string(n) + " K=" + std::to_string(k);
  bool batched = !batch_shape.empty();
  if (batched) s += " batch " + dims_text(batch_shape);
  s += ", " + operand_text("A", a, batched) + ", " + operand_text("B", b, batched);
  s += ", C (" + out_name + "): " + dtype_info(out_dtype).name + " " + dims_text(out_shape);
  s += ", epilogue " + describe(epilogue) + " (x0 = A@B";
  for (size_t i = 0; i < epilogue_operands.size(); ++i) {
    auto& o = epilogue_operands[i];
    s += ", x" + std::to_string(i + 1) + " = " + o.name + " strides " +
         strides_text(o.batch_strides, o.m_stride, o.n_stride);
  }
  s += ")";
  if (triangle != Triangle::kNone)
    s += ", " + std::string(to_string(triangle)) + " triangle, diagonal " + std::to_string(diagonal);
  return s;
}

Result<GemmRecipe> recognize_gemm(const TaskSpec& spec, const OpGraph& g) { return GemmBuilder(spec, g).build(); }

Result<GemmRecipe> recognize_gemm(const TaskSpec& spec) {
  auto g = CUTEGEN_TRY(import_graph(spec));
  return recognize_gemm(spec, g);
}

bool is_diagonal_product(const OpGraph& g, int op) { return diagonal_side(g, g.nodes[op]) >= 0; }

Result<ExprPtr> diagonal_product(const TaskSpec& spec, const OpGraph& g, int op, const ViewLeafFn& leaf_for) {
  const GraphNode& n = g.nodes[op];
  int side = diagonal_side(g, n);
  auto* out = g.value(GraphArg{.kind = GraphArg::kOp, .op = op});
  if (side < 0 || !out) return error("not a product with diag(...)");
  StridedRead d = CUTEGEN_TRY(strided_read(spec, g, g.nodes[n.args[side].op].args[0]));
  StridedRead m = CUTEGEN_TRY(strided_read(spec, g, n.args[1 - side]));
  if (d.shape.size() != 1 || m.shape.size() != 2) return error("diag(...) of a tensor that is not 1-D");
  // diag(d) @ B scales B's rows by d (read as [n, 1]); B @ diag(d) its columns (read as [n]).
  if (side == 0) {
    d.shape.push_back(1);
    d.dims.push_back(Modes{});
  }
  return call(Prim::kMul, {CUTEGEN_TRY(leaf_for(d)), CUTEGEN_TRY(leaf_for(m))});
}

}  // namespace cutegen
