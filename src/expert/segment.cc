#include "expert/segment.h"

#include <map>

#include "expert/pointwise_ops.h"
#include "expert/recognize_parts.h"
#include "expert/strided.h"

namespace cutegen {
namespace {

bool all_zero(const std::vector<int64_t>& v) {
  for (auto x : v)
    if (x) return false;
  return true;
}

class SegmentBuilder {
 public:
  SegmentBuilder(const TaskSpec& spec, const OpGraph& g, const std::function<bool(int)>& is_source)
      : spec_(spec), g_(g), is_source_(is_source) {}

  Result<PointwiseSegment> build(GraphArg top) {
    // Order-keeping views at the top (the [1, N*C, ...] view an instance norm reads) change no
    // element: the segment is indexed in the shape before them.
    while (top.kind == GraphArg::kOp && top.out < 0 && !is_source_(top.op) && keeps_order(top.op))
      top = g_.nodes[top.op].args[0];
    if (top.kind == GraphArg::kOp) {
      auto* v = g_.value(top);
      if (!v) return error("the graph records no shape for " + g_.nodes.at(top.op).op);
      s_.shape = v->shape;
    } else {
      s_.shape = CUTEGEN_TRY(referenced_arg(spec_, top))->shape;
    }
    b_.leaf_for = [this](const GraphArg& a) -> Result<ExprPtr> {
      auto* arg = CUTEGEN_TRY(referenced_arg(spec_, a));
      if (!arg->is_tensor()) return scalar_arg(abi_name(spec_, arg));
      return operand(*arg, arg);
    };
    b_.special = [this](int op) { return special(op); };
    s_.expr = CUTEGEN_TRY(b_(top));
    return s_;
  }

 private:
  std::vector<int64_t> consumer_shape() const {
    if (b_.consumer < 0) return s_.shape;
    auto* v = g_.value(GraphArg{.kind = GraphArg::kOp, .op = b_.consumer});
    return v ? v->shape : std::vector<int64_t>{};
  }

  // A view of a computed value whose elements stay in order (dense, not a slice).
  bool keeps_order(int op) const {
    const GraphNode& n = g_.nodes[op];
    if (!is_view_op(n.op) || n.args.empty() || n.args[0].kind != GraphArg::kOp) return false;
    auto* v = g_.value(GraphArg{.kind = GraphArg::kOp, .op = op});
    auto* in = g_.value(n.args[0]);
    return v && in && v->offset == 0 && is_dense_row_major(v->shape, v->strides) &&
           product(v->shape) == product(in->shape);
  }

  // Strides over the consumer's shape, moved to the segment's: the same shape, or (where no view
  // lies between) a shape the pointwise ops broadcast to the segment's, or one element.
  Result<std::vector<int64_t>> in_segment(const std::vector<int64_t>& strides, const std::string& what) const {
    auto shape = consumer_shape();
    if (shape == s_.shape) return strides;
    if (all_zero(strides)) return std::vector<int64_t>(s_.shape.size(), 0);
    int rank = static_cast<int>(s_.shape.size()), lrank = static_cast<int>(shape.size());
    bool broadcasts = views_ == 0 && lrank <= rank;
    for (int d = 0; broadcasts && d < lrank; ++d)
      broadcasts = shape[d] == 1 || shape[d] == s_.shape[d + rank - lrank];
    if (!broadcasts)
      return error(what + " meets the value in shape " + dims_text(shape) + ", not the segment's " +
                   dims_text(s_.shape));
    std::vector<int64_t> out(rank, 0);
    for (int d = 0; d < lrank; ++d)
      if (shape[d] != 1) out[d + rank - lrank] = strides[d];
    return out;
  }

  // `view` (the tensor with the shape and strides it is read with) broadcast to its consumer.
  Result<ExprPtr> operand(const TaskArg& view, const TaskArg* base) {
    if (!is_float(view.dtype)) return error(view.name + " is not a float tensor");
    auto strides = CUTEGEN_TRY(in_segment(CUTEGEN_TRY(broadcast_strides(view, consumer_shape())), view.name));
    std::string key = abi_name(spec_, base) + dims_text(strides);
    if (!leaves_.count(key)) {
      leaves_[key] = static_cast<int>(s_.operands.size()) + 1;
      s_.operands.push_back({base->name, abi_name(spec_, base), base->dtype, strides});
    }
    return leaf(leaves_[key]);
  }

  Result<ExprPtr> source(int op) {
    if (s_.source >= 0 && s_.source != op)
      return error("the values of " + g_.nodes[s_.source].op + " and " + g_.nodes[op].op +
                   " meet in one pointwise op (a residual across a stage is not covered)");
    s_.source = op;
    auto* v = g_.value(GraphArg{.kind = GraphArg::kOp, .op = op});
    if (!v) return error("the graph records no shape for " + g_.nodes[op].op);
    auto shape = consumer_shape();
    std::vector<int64_t> strides;
    if (views_ > 0 && product(shape) == product(v->shape) && product(shape) == product(s_.shape)) {
      strides = contiguous_strides(s_.shape);  // reshaped, read in element order
    } else {
      TaskArg dense{.name = g_.nodes[op].op, .shape = v->shape, .strides = contiguous_strides(v->shape)};
      strides = CUTEGEN_TRY(in_segment(CUTEGEN_TRY(broadcast_strides(dense, shape)), g_.nodes[op].op + "'s value"));
    }
    if (!s_.source_strides.empty() && s_.source_strides != strides)
      return error(g_.nodes[op].op + "'s value is read in two shapes");
    s_.source_strides = strides;
    return leaf(0);
  }

  Result<ExprPtr> special(int op) {
    const GraphNode& n = g_.nodes[op];
    if (is_source_(op)) return source(op);
    GraphArg ref{.kind = GraphArg::kOp, .op = op};
    if (is_view_op(n.op)) {
      if (auto read = strided_read(spec_, g_, ref); read.ok()) {  // a view of a tensor the task passes
        if (read->offset != 0) return error(read->base->name + " is read from an offset (a slice)");
        TaskArg view = *read->base;
        view.shape = read->shape;
        view.strides = CUTEGEN_TRY(read->strides());
        return operand(view, read->base);
      }
      if (!keeps_order(op)) return error(n.op + " reorders or slices a computed value");
      return through(op, n.args[0]);
    }
    if (n.op == "aten._to_copy.default") {
      auto* v = g_.value(ref);
      if (!v || !is_float(v->dtype)) return error(n.op + " to a non-float type");
      return through(op, n.args.at(0));
    }
    if (is_inference_batch_norm(n))
      return inference_batch_norm(spec_, b_, op,
                                  [this](const TaskArg& view, const TaskArg* base) { return operand(view, base); });
    if (!is_pointwise_op(n.op))
      return error(n.op + " stops recognition: neither pointwise nor a stage the chain covers");
    return ExprPtr{};
  }

  // The value of `arg` as op `op` reads it (a view or a cast of it).
  Result<ExprPtr> through(int op, const GraphArg& arg) {
    int saved = b_.consumer;
    b_.consumer = op;
    views_ += is_view_op(g_.nodes[op].op);
    auto e = b_(arg);
    views_ -= is_view_op(g_.nodes[op].op);
    b_.consumer = saved;
    return e;
  }

  const TaskSpec& spec_;
  const OpGraph& g_;
  const std::function<bool(int)>& is_source_;
  PointwiseSegment s_;
  ExprBuilder b_{g_, nullptr};
  std::map<std::string, int> leaves_;
  int views_ = 0;  // views of computed values between the value being built and the top
};

}  // namespace

Result<PointwiseSegment> pointwise_segment(const TaskSpec& spec, const OpGraph& g, const GraphArg& top,
                                           const std::function<bool(int)>& is_source) {
  return SegmentBuilder(spec, g, is_source).build(top);
}

}  // namespace cutegen
