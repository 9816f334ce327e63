// Level-2 chains: walk back from the output through pointwise segments; each ends at the stage op
// (reduction, normalization, pooling) that made its value, whose input is the next segment's top,
// until a segment ends at the anchor. The anchor with its epilogue is then recognized by
// recognize_gemm or recognize_conv on the graph cut at the first stage's input.
#include <algorithm>
#include <map>
#include <set>

#include "core/strings.h"
#include "expert/chain_recipe.h"
#include "expert/recognize_parts.h"
#include "expert/segment.h"
#include "expert/templates.h"
#include "expert/strided.h"
#include "task/abi.h"

namespace cutegen {
namespace {

bool is_anchor(const std::string& op) {
  static const std::set<std::string> ops = {
      kConvOp,           "aten.mm.default",   "aten.addmm.default", "aten.bmm.default", "aten.baddbmm.default",
      "aten.mv.default", "aten.addmv.default"};
  return ops.count(op) > 0;
}

// How a stage op's arguments read: which kind it makes and, for reductions, the combine.
struct StageOp {
  const char* op;
  StageKind kind;
  ReduceOp reduce = ReduceOp::kSum;
  bool mean = false, log_sum_exp = false;
};
const std::vector<StageOp>& stage_ops() {
  static const std::vector<StageOp> ops = {
      {"aten.sum.dim_IntList", StageKind::kReduce, ReduceOp::kSum},
      {"aten.sum.default", StageKind::kReduce, ReduceOp::kSum},
      {"aten.mean.dim", StageKind::kReduce, ReduceOp::kSum, true},
      {"aten.mean.default", StageKind::kReduce, ReduceOp::kSum, true},
      {"aten.amax.default", StageKind::kReduce, ReduceOp::kMax},
      {"aten.amin.default", StageKind::kReduce, ReduceOp::kMin},
      {"aten.max.dim", StageKind::kReduce, ReduceOp::kMax},
      {"aten.min.dim", StageKind::kReduce, ReduceOp::kMin},
      {"aten.max.default", StageKind::kReduce, ReduceOp::kMax},
      {"aten.min.default", StageKind::kReduce, ReduceOp::kMin},
      {"aten.logsumexp.default", StageKind::kReduce, ReduceOp::kSum, false, true},
      {"aten._adaptive_avg_pool2d.default", StageKind::kReduce, ReduceOp::kSum, true},
      {"aten._adaptive_avg_pool3d.default", StageKind::kReduce, ReduceOp::kSum, true},
      {"aten._softmax.default", StageKind::kSoftmax},
      {"aten._log_softmax.default", StageKind::kLogSoftmax},
      {"aten.native_group_norm.default", StageKind::kGroupNorm},
      {"aten.native_layer_norm.default", StageKind::kLayerNorm},
      {"aten.native_batch_norm.default", StageKind::kBatchNorm},
      {"aten._native_batch_norm_legit.default", StageKind::kBatchNorm},
      {"aten._native_batch_norm_legit_functional.default", StageKind::kBatchNorm},
      {"aten.max_pool1d.default", StageKind::kMaxPool},
      {"aten.max_pool2d_with_indices.default", StageKind::kMaxPool},
      {"aten.max_pool3d_with_indices.default", StageKind::kMaxPool},
      {"aten.avg_pool1d.default", StageKind::kAvgPool},
      {"aten.avg_pool2d.default", StageKind::kAvgPool},
      {"aten.avg_pool3d.default", StageKind::kAvgPool},
  };
  return ops;
}
const StageOp* stage_op(const std::string& op) {
  for (auto& s : stage_ops())
    if (op == s.op) return &s;
  return nullptr;
}

Result<double> number(const GraphNode& n, size_t i, const char* name, double fallback) {
  auto* a = n.arg(i, name);
  if (!a || a->kind == GraphArg::kNone) return fallback;
  if (a->kind != GraphArg::kConst) return error(n.op + "'s " + name + " is not a constant");
  return a->number;
}

// Numbers of a list argument (a single number: `count` copies); empty when absent.
Result<std::vector<int64_t>> numbers(const GraphNode& n, size_t i, const char* name, size_t count) {
  auto* a = n.arg(i, name);
  std::vector<int64_t> v;
  if (!a || a->kind == GraphArg::kNone) return v;
  if (a->kind == GraphArg::kConst) return std::vector<int64_t>(count, static_cast<int64_t>(a->number));
  for (auto& item : a->items) {
    if (item.kind != GraphArg::kConst) return error(n.op + "'s " + name + " is not a list of numbers");
    v.push_back(static_cast<int64_t>(item.number));
  }
  if (v.size() == 1 && count > 1) v.assign(count, v[0]);
  return v;
}

// Reduced dims: a dim list (or one dim) at argument i; absent or empty means all.
Result<std::vector<int>> reduced_dims(const GraphNode& n, size_t i, int rank) {
  auto* a = n.arg(i, "dim");
  std::vector<int> dims;
  if (a && a->kind != GraphArg::kNone)
    for (auto& item : a->kind == GraphArg::kList ? a->items : std::vector<GraphArg>{*a})
      dims.push_back(CUTEGEN_TRY(normalize_dim(&item, rank)));
  if (dims.empty())
    for (int d = 0; d < rank; ++d)
      dims.push_back(d);
  std::sort(dims.begin(), dims.end());
  return dims;
}

std::vector<int> trailing(int rank, int count) {
  std::vector<int> dims;
  for (int d = rank - count; d < rank; ++d)
    dims.push_back(d);
  return dims;
}

class ChainBuilder {
 public:
  ChainBuilder(const TaskSpec& spec, const OpGraph& g) : spec_(spec), g_(g) {}

  Result<ChainRecipe> build() {
    for (int i = 0; i < static_cast<int>(g_.nodes.size()); ++i)
      if (is_anchor(g_.nodes[i].op)) {
        bool two_convs = g_.nodes[i].op == kConvOp && anchor_ >= 0 && g_.nodes[anchor_].op == kConvOp;
        if (anchor_ >= 0 && (prologue_ >= 0 || !two_convs))
          return error("two anchors (" + g_.nodes[anchor_].op + ", " + g_.nodes[i].op +
                       "): one GEMM or convolution per chain, or a depthwise convolution and one after it");
        if (anchor_ >= 0) prologue_ = anchor_;
        anchor_ = i;
      }
    if (anchor_ < 0) return error("no GEMM or convolution to anchor a chain");
    for (auto& n : g_.nodes)
      if (n.op.find("bernoulli") != std::string::npos)
        return error(n.op + " stops recognition: dropout in training mode draws random numbers");
    if (spec_.outputs.size() != 1 || g_.outputs.size() != 1)
      return error("forward returns " + std::to_string(spec_.outputs.size()) + " tensors; a chain writes one");
    auto& out = spec_.outputs[0];
    r_.out_name = out.name;
    r_.out_c_name = abi_name(spec_, &out);
    r_.out_dtype = out.dtype;
    r_.out_shape = out.shape;
    r_.anchor = g_.nodes[anchor_].op == "aten.convolution.default" ? AnchorKind::kConv : AnchorKind::kGemm;
    GraphArg top = g_.outputs[0];
    auto is_source = [this](int op) {
      return op == anchor_ || (stage_op(g_.nodes[op].op) && !is_inference_batch_norm(g_.nodes[op]));
    };
    while (true) {
      auto seg = CUTEGEN_TRY(pointwise_segment(spec_, g_, top, is_source));
      if (seg.source < 0) return error("the output does not depend on " + g_.nodes[anchor_].op);
      if (seg.source == anchor_) break;
      ChainStage stage = CUTEGEN_TRY(read_stage(seg.source));
      stage.after = seg.expr;
      stage.after_shape = seg.shape;
      stage.source_strides = seg.source_strides;
      for (auto& o : seg.operands)
        stage.after_operands.push_back({o.name, o.c_name, o.dtype, o.strides});
      r_.stages.insert(r_.stages.begin(), stage);
      top = g_.nodes[seg.source].args.at(0);
    }
    CUTEGEN_TRY(read_anchor(top));
    return r_;
  }

 private:
  // The anchor and its epilogue: the graph cut at `top` (the first stage's input), the task's
  // output replaced by that value.
  Status read_anchor(const GraphArg& top) {
    OpGraph cut = g_;
    cut.outputs = {top};
    TaskSpec prefix = spec_;
    if (!r_.stages.empty()) {
      auto* v = g_.value(top);
      if (!v) return error("the graph records no shape for the value the first stage reads");
      prefix = returning(*v);
    }
    if (prologue_ >= 0) {
      CUTEGEN_TRY(read_prologue());
      cut = after_prologue();
      prefix.inputs.push_back(prologue_value());
    }
    if (r_.anchor == AnchorKind::kConv) {
      r_.conv = CUTEGEN_TRY(recognize_conv(prefix, cut));
      if (r_.prologue) r_.conv->input.c_name = kChainIn;
    } else {
      r_.gemm = CUTEGEN_TRY(recognize_gemm(prefix, cut));
    }
    return Ok{};
  }

  // The task as if its output were `v`, a value inside the graph, written contiguous.
  TaskSpec returning(const GraphValue& v) const {
    TaskSpec spec = spec_;
    spec.outputs[0].shape = v.shape;
    spec.outputs[0].strides = contiguous_strides(v.shape);
    spec.outputs[0].dtype = v.dtype;
    return spec;
  }

  // The anchor's input as the task input the prologue writes: contiguous, named `chain_in`.
  TaskArg prologue_value() const {
    auto* v = g_.value(g_.nodes[anchor_].args.at(0));
    return TaskArg{.name = kChainIn, .dtype = v->dtype, .shape = v->shape, .strides = contiguous_strides(v->shape)};
  }

  // The convolution before the anchor and its epilogue: the graph up to the anchor, its output the
  // anchor's input.
  Status read_prologue() {
    const GraphArg& in = g_.nodes[anchor_].args.at(0);
    auto* v = g_.value(in);
    if (!v) return error("the graph records no shape for the value the second convolution reads");
    OpGraph before = g_;
    before.nodes.resize(anchor_);
    before.outputs = {in};
    r_.prologue = CUTEGEN_TRY(recognize_conv(returning(*v), before));
    if (r_.prologue->kind != ConvClass::kDepthwise)
      return error("a " + std::string(to_string(r_.prologue->kind)) +
                   " convolution before another: only a depthwise one runs ahead of the anchor");
    r_.prologue->out_name = r_.prologue->out_c_name = kChainIn;
    return Ok{};
  }

  // The graph from the anchor on: the ops before it inert, the anchor reading `chain_in`.
  OpGraph after_prologue() const {
    OpGraph g = g_;
    for (int i = 0; i < anchor_; ++i)
      g.nodes[i] = GraphNode{.op = "cutegen.prologue"};
    g.nodes[anchor_].args[0] = GraphArg{.kind = GraphArg::kInput, .name = kChainIn};
    return g;
  }

  // A stage's per-channel parameter (a norm's weight or bias) read over its input.
  Result<std::optional<ChainOperand>> stage_param(const GraphNode& n, size_t i, const char* name,
                                                  const std::vector<int64_t>& in_shape, int channel_dim) {
    auto* a = n.arg(i, name);
    if (!a || a->kind == GraphArg::kNone) return std::optional<ChainOperand>{};
    GraphArg ref = skip_identity(g_, *a);
    auto* t = CUTEGEN_TRY(referenced_arg(spec_, ref));
    if (!t->is_tensor() || !is_contiguous(*t)) return error(n.op + "'s " + name + " is not a contiguous tensor");
    ChainOperand o{t->name, abi_name(spec_, t), t->dtype, std::vector<int64_t>(in_shape.size(), 0)};
    if (channel_dim >= 0) {  // a [C] vector over dim channel_dim
      if (t->shape.size() != 1 || t->shape[0] != in_shape.at(channel_dim))
        return error(n.op + "'s " + name + " " + dims_text(t->shape) + " is not one per channel");
      o.strides[channel_dim] = 1;
    } else {
      o.strides = CUTEGEN_TRY(broadcast_strides(*t, in_shape));
    }
    return std::optional<ChainOperand>{o};
  }

  Result<ChainStage> read_stage(int op) {
    const GraphNode& n = g_.nodes[op];
    const StageOp* kind = stage_op(n.op);
    auto* in = n.args.empty() ? nullptr : g_.value(n.args[0]);
    auto* out = g_.value(GraphArg{.kind = GraphArg::kOp, .op = op, .out = 0});
    if (!in || !out) return error(n.op + ": the graph records no shapes");
    ChainStage s{.kind = kind->kind,
                 .op = n.op,
                 .in_shape = in->shape,
                 .out_shape = out->shape,
                 .reduce = kind->reduce,
                 .mean = kind->mean,
                 .log_sum_exp = kind->log_sum_exp};
    int rank = static_cast<int>(in->shape.size());
    auto unsupported = [&](const std::string& why) { return error(n.op + " stops recognition: " + why); };
    switch (s.kind) {
      case StageKind::kReduce:
        if (n.op.find("adaptive") != std::string::npos) {
          auto size = CUTEGEN_TRY(numbers(n, 1, "output_size", rank - 2));
          if (product(size) != 1) return unsupported("an adaptive pool to " + dims_text(size) + ", not to one element");
          s.dims = trailing(rank, static_cast<int>(size.size()));
          s.keepdim = true;
        } else {
          bool all = n.op.ends_with(".default") && n.op != "aten.amax.default" && n.op != "aten.amin.default" &&
                     n.op != "aten.logsumexp.default";
          s.dims = all ? trailing(rank, rank) : CUTEGEN_TRY(reduced_dims(n, 1, rank));
          s.keepdim = !all && CUTEGEN_TRY(number(n, 2, "keepdim", 0)) != 0;
        }
        break;
      case StageKind::kSoftmax:
      case StageKind::kLogSoftmax: s.dims = {CUTEGEN_TRY(normalize_dim(n.arg(1, "dim"), rank))}; break;
      case StageKind::kGroupNorm:
        s.groups = static_cast<int64_t>(CUTEGEN_TRY(number(n, 6, "group", 0)));
        s.eps = CUTEGEN_TRY(number(n, 7, "eps", 1e-5));
        s.dims = trailing(rank, rank - 1);
        s.weight = CUTEGEN_TRY(stage_param(n, 1, "weight", in->shape, 1));
        s.bias = CUTEGEN_TRY(stage_param(n, 2, "bias", in->shape, 1));
        if (s.groups == in->shape.at(1)) s.kind = StageKind::kInstanceNorm;
        break;
      case StageKind::kLayerNorm: {
        auto normalized = CUTEGEN_TRY(numbers(n, 1, "normalized_shape", 1));
        s.dims = trailing(rank, static_cast<int>(normalized.size()));
        s.weight = CUTEGEN_TRY(stage_param(n, 2, "weight", in->shape, -1));
        s.bias = CUTEGEN_TRY(stage_param(n, 3, "bias", in->shape, -1));
        s.eps = CUTEGEN_TRY(number(n, 4, "eps", 1e-5));
        break;
      }
      case StageKind::kBatchNorm: {
        s.eps = CUTEGEN_TRY(number(n, 7, "eps", 1e-5));
        for (int d = 0; d < rank; ++d)
          if (d != 1) s.dims.push_back(d);
        s.weight = CUTEGEN_TRY(stage_param(n, 1, "weight", in->shape, 1));
        s.bias = CUTEGEN_TRY(stage_param(n, 2, "bias", in->shape, 1));
        // F.instance_norm reaches dispatch as a batch norm of the [1, N*C, spatial...] view.
        if (in->shape.at(0) == 1 && !s.weight) s.kind = StageKind::kInstanceNorm;
        break;
      }
      case StageKind::kMaxPool:
      case StageKind::kAvgPool: {
        bool max = s.kind == StageKind::kMaxPool;
        int pooled = n.op.find("1d") != std::string::npos ? 1 : n.op.find("2d") != std::string::npos ? 2 : 3;
        s.dims = trailing(rank, pooled);
        s.window = CUTEGEN_TRY(numbers(n, 1, "kernel_size", pooled));
        s.stride = CUTEGEN_TRY(numbers(n, 2, "stride", pooled));
        if (s.stride.empty()) s.stride = s.window;
        s.padding = CUTEGEN_TRY(numbers(n, 3, "padding", pooled));
        if (s.padding.empty()) s.padding.assign(pooled, 0);
        s.dilation = max ? CUTEGEN_TRY(numbers(n, 4, "dilation", pooled)) : std::vector<int64_t>{};
        if (s.dilation.empty()) s.dilation.assign(pooled, 1);
        s.ceil_mode = CUTEGEN_TRY(number(n, max ? 5 : 4, "ceil_mode", 0)) != 0;
        if (!max) {
          s.count_include_pad = CUTEGEN_TRY(number(n, 5, "count_include_pad", 1)) != 0;
          if (auto* div = n.arg(6, "divisor_override"); div && div->kind != GraphArg::kNone)
            return unsupported("avg_pool with divisor_override");
        }
        if (s.window.size() != static_cast<size_t>(pooled)) return unsupported("a pool window that is not one per dim");
        break;
      }
      case StageKind::kInstanceNorm:  // never a table row: set above from a group or batch norm
        break;
    }
    return s;
  }

  const TaskSpec& spec_;
  const OpGraph& g_;
  int anchor_ = -1, prologue_ = -1;
  ChainRecipe r_;
};

std::string stage_text(const ChainStage& s) {
  std::vector<std::string> dims;
  for (int d : s.dims)
    dims.push_back(std::to_string(d));
  std::string t = to_string(s.kind);
  if (s.kind == StageKind::kReduce) t = s.log_sum_exp ? "logsumexp" : s.mean ? "mean" : to_string(s.reduce);
  t += "(" + dims_text(s.in_shape) + " over [" + join(dims, ", ") + "]";
  if (s.kind == StageKind::kGroupNorm) t += ", " + std::to_string(s.groups) + " groups";
  if (!s.window.empty())
    t += ", window " + dims_text(s.window) + " stride " + dims_text(s.stride) + " pad " + dims_text(s.padding);
  if (s.weight) t += ", weight " + s.weight->name;
  if (s.bias) t += ", bias " + s.bias->name;
  t += ") -> " + dims_text(s.out_shape);
  if (describe(s.after) != "x0") {
    t += ", then " + describe(s.after);
    for (size_t i = 0; i < s.after_operands.size(); ++i)
      t += ", x" + std::to_string(i + 1) + " = " + s.after_operands[i].name;
  }
  return t;
}

}  // namespace

const char* to_string(AnchorKind k) { return k == AnchorKind::kGemm ? "gemm" : "conv"; }
const char* to_string(StageKind k) {
  static const char* names[] = {"reduce",     "softmax",    "log_softmax", "group_norm", "instance_norm",
                                "layer_norm", "batch_norm", "max_pool",    "avg_pool"};
  return names[static_cast<int>(k)];
}

std::string ChainRecipe::summary() const {
  std::string s = gemm ? gemm->summary() : conv ? conv->summary() : "?";
  if (prologue) s = prologue->summary() + " -> " + s;
  for (auto& st : stages)
    s += " -> " + stage_text(st);
  return s;
}

Result<ChainRecipe> recognize_chain(const TaskSpec& spec, const OpGraph& g) { return ChainBuilder(spec, g).build(); }

Result<Recipe> recognize_chain_kernel(const TaskSpec& spec, const OpGraph& g) {
  auto chain = recognize_chain(spec, g);
  if (!chain.ok()) return error(chain.message());
  if (!chain->conv && chain->stages.empty()) return error("a GEMM with a pointwise epilogue: the GEMM recognizer's");
  std::string why = chain->conv ? conv_unsupported(*chain->conv) : gemm_unsupported(*chain->gemm);
  if (why.empty() && chain->prologue) why = conv_unsupported(*chain->prologue);
  if (why.empty()) why = chain_unsupported(*chain);
  if (!why.empty()) return error(std::string(kChainRecognized) + chain->summary() + kChainNoKernel + ": " + why + ")");
  Recipe r{.summary = chain->summary(),
           .out_name = chain->out_c_name,
           .out_type = dtype_info(chain->out_dtype).c_type,
           .out_numel = spec.outputs.at(0).numel(),
           .out_shape = chain->out_shape};
  if (chain->stages.empty() && !chain->prologue) {  // a convolution and its epilogue: its own kernel
    r.kind = TemplateKind::kConv;
    r.summary = chain->conv->summary();
    r.conv = std::make_shared<const ConvRecipe>(*chain->conv);
    return r;
  }
  // Stages follow: the anchor writes its value into the chain's first buffer.
  auto anchor = [&chain](auto recipe) {
    if (!chain->stages.empty()) recipe.out_c_name = "chain_out";
    return std::make_shared<const decltype(recipe)>(std::move(recipe));
  };
  r.kind = chain->gemm ? TemplateKind::kGemm : TemplateKind::kConv;
  if (chain->gemm)
    r.gemm = anchor(*chain->gemm);
  else
    r.conv = anchor(*chain->conv);
  r.chain = std::make_shared<const ChainRecipe>(*std::move(chain));
  return r;
}

Result<ChainRecipe> recognize_chain(const TaskSpec& spec) {
  auto g = CUTEGEN_TRY(import_graph(spec));
  return recognize_chain(spec, g);
}

}  // namespace cutegen
