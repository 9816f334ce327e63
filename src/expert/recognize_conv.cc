// Convolution-shaped work: one aten.convolution (what conv1d/2d/3d and conv_transpose1d/2d/3d
// reach dispatch as) reading a forward input and the module's weight and bias, and the pointwise
// ops after it as an epilogue segment.

#include "core/strings.h"
#include "expert/conv_recipe.h"
#include "expert/recognize_parts.h"
#include "expert/strided.h"
#include "task/abi.h"

namespace cutegen {
namespace {

// A list argument of `count` numbers (a single number repeats, as torch expands it).
Result<std::vector<int64_t>> int_list(const GraphNode& n, size_t i, const char* name, size_t count) {
  auto* a = n.arg(i, name);
  if (!a) return error(n.op + " has no " + name);
  std::vector<int64_t> v;
  if (a->kind == GraphArg::kConst) v.assign(count, static_cast<int64_t>(a->number));
  for (auto& item : a->items) {
    if (item.kind != GraphArg::kConst) return error(n.op + "'s " + name + " is not a list of numbers");
    v.push_back(static_cast<int64_t>(item.number));
  }
  if (v.size() == 1) v.assign(count, v[0]);
  if (v.size() != count)
    return error(n.op + "'s " + name + " has " + std::to_string(v.size()) + " entries, not " + std::to_string(count));
  return v;
}

// The input, weight or bias: a task tensor read as it is, contiguous.
Result<ConvTensor> conv_tensor(const TaskSpec& spec, const OpGraph& g, const GraphArg& ref, const char* which) {
  GraphArg a = skip_identity(g, ref);
  if (a.kind != GraphArg::kInput && a.kind != GraphArg::kParam)
    return error(std::string("the convolution's ") + which + " is computed (" +
                 (a.kind == GraphArg::kOp ? g.nodes.at(a.op).op : "not a tensor") +
                 "): prologue fusion is not supported");
  auto* t = CUTEGEN_TRY(referenced_arg(spec, a));
  if (!t->is_tensor() || !is_float(t->dtype))
    return error(std::string("the convolution's ") + which + " is not a float tensor");
  if (!is_contiguous(*t))
    return error(std::string("the convolution's ") + which + " (" + t->name + ") is not contiguous");
  return ConvTensor{t->name, abi_name(spec, t), t->dtype, t->shape};
}

std::string dims_x(const std::vector<int64_t>& v) {
  std::vector<std::string> parts;
  for (auto x : v)
    parts.push_back(std::to_string(x));
  return join(parts, "x");
}

// A forward 3-D convolution whose kernel is 1 wide in the last dim, with stride 1 and no padding
// there and stride 1 in the dim before, is the convolution over the last two dims flattened: the
// dim before's taps, padding and dilation scaled by the last dim's size (a 3 x 3 x 1 kernel over
// rows of 10 is a 3 x 3 one with a row dilation of 10 over rows of 10 x H). The memory is the
// same; the kernels then tile long rows instead of short ones. Epilogue operands must read the
// flattened dim as one (a per-channel bias does).
void fold_unit_last_dim(ConvRecipe& r) {
  size_t d = r.kernel.size();
  if (r.transposed || d != 3 || r.kernel[d - 1] != 1 || r.stride[d - 1] != 1 || r.padding[d - 1] != 0 ||
      r.stride[d - 2] != 1)
    return;
  if (r.out_shape != r.conv_out_shape()) return;
  int64_t w = r.in_size[d - 1];
  for (auto& o : r.epilogue_operands) {
    size_t q = o.strides.size() - 1;
    if (o.strides[q - 1] != w * o.strides[q]) return;
  }
  for (auto& o : r.epilogue_operands) {
    o.strides[o.strides.size() - 2] = o.strides.back();
    o.strides.pop_back();
  }
  r.in_size[d - 2] *= w, r.out_size[d - 2] *= w;
  r.padding[d - 2] *= w, r.dilation[d - 2] *= w;
  for (auto* v : {&r.in_size, &r.out_size, &r.kernel, &r.stride, &r.padding, &r.dilation, &r.output_padding})
    v->pop_back();
  r.out_shape.pop_back();
  r.out_shape.back() = r.out_size.back();
  r.dims -= 1;
  r.folded_w = w;
}

// The kernel class and, for fp32, the math.
void classify(ConvRecipe& r) {
  r.kind =
      !r.transposed && r.groups > 1 && r.groups == r.in_channels ? ConvClass::kDepthwise : ConvClass::kImplicitGemm;
  // A packed k-tile at most half full (3 channels x 3 taps: 9 of 32), before 3xTF32 triples it:
  // fp32 multiply-adds do less work than the tensor cores' padding (conv-direct).
  if (r.kind == ConvClass::kImplicitGemm && r.in_size.size() >= 2 && r.in_channels / r.groups * r.kernel.back() <= 16)
    r.kind = ConvClass::kDirect;
  // Depthwise runs exact fp32 multiply-adds (no MMA): native precision. Eager's cuDNN ran forward
  // convolutions over few input channels in full fp32, 1e-7 from float64, which TF32's ~3e-4 misses
  // by far (level 1's 3-D ones over 3 channels, 2026-12-02e call C; level 2's 2-D ones over 8,
  // 2026-12-02f calls B and C): 3xTF32 there, and for transposed ones over as few (not measured:
  // the safe side).
  if (r.input.dtype == DType::kFloat32 && r.kind == ConvClass::kImplicitGemm)
    r.math = r.in_channels / r.groups < 16 ? GemmMath::k3xTF32 : GemmMath::kTF32;
}

}  // namespace

const char* to_string(ConvClass c) {
  switch (c) {
    case ConvClass::kImplicitGemm: return "implicit-gemm";
    case ConvClass::kDepthwise: return "depthwise";
    case ConvClass::kDirect: return "direct";
  }
  return "?";
}

int64_t ConvRecipe::out_pixels() const { return product(out_size); }
std::vector<int64_t> ConvRecipe::conv_out_shape() const {
  std::vector<int64_t> shape = {batch, out_channels};
  shape.insert(shape.end(), out_size.begin(), out_size.end());
  return shape;
}
int64_t ConvRecipe::kernel_volume() const { return product(kernel); }
int64_t ConvRecipe::gemm_m() const { return batch * out_pixels(); }
int64_t ConvRecipe::gemm_n() const { return out_channels / groups; }
int64_t ConvRecipe::gemm_k() const { return in_channels / groups * kernel_volume(); }

std::string ConvRecipe::summary() const {
  std::string s = std::string(transposed ? "conv_transpose" : "conv") + std::to_string(dims) + "d " +
                  dtype_info(input.dtype).name + " (" + to_string(math) + ") " + to_string(kind) +
                  ": N=" + std::to_string(batch) + " C=" + std::to_string(in_channels) + "->" +
                  std::to_string(out_channels) + " in " + dims_x(in_size) + " out " + dims_x(out_size) + " k " +
                  dims_x(kernel) + " s " + dims_x(stride) + " p " + dims_x(padding) + " d " + dims_x(dilation);
  if (transposed) s += " op " + dims_x(output_padding);
  if (groups != 1) s += " groups " + std::to_string(groups);
  if (folded_w) s += " (the task's last dim of " + std::to_string(folded_w) + " folded into the one before)";
  s += bias_name.empty() ? ", no bias" : ", bias " + bias_name;
  s += ", GEMM M=" + std::to_string(gemm_m()) + " N=" + std::to_string(gemm_n()) + " K=" + std::to_string(gemm_k());
  s += ", out (" + out_name + ") " + dims_text(out_shape) + ", epilogue " + describe(epilogue) + " (x0 = conv";
  for (size_t i = 0; i < epilogue_operands.size(); ++i)
    s += ", x" + std::to_string(i + 1) + " = " + epilogue_operands[i].name + " strides " +
         dims_text(epilogue_operands[i].strides);
  return s + ")";
}

Result<ConvRecipe> recognize_conv(const TaskSpec& spec, const OpGraph& g) {
  int node = -1;
  for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i)
    if (g.nodes[i].op == kConvOp) {
      if (node >= 0) return error("two convolutions: chained convolutions are not one recipe");
      node = i;
    }
  if (node < 0) return error("no convolution (" + std::string(kConvOp) + ")");
  const GraphNode& n = g.nodes[node];
  ConvRecipe r;
  r.input = CUTEGEN_TRY(conv_tensor(spec, g, n.args.at(0), "input"));
  r.weight = CUTEGEN_TRY(conv_tensor(spec, g, n.args.at(1), "weight"));
  if (auto* bias = n.arg(2, "bias"); bias && bias->kind != GraphArg::kNone) {
    auto b = CUTEGEN_TRY(conv_tensor(spec, g, *bias, "bias"));
    r.bias_name = b.name;
    r.bias_c_name = b.c_name;
  }
  if (r.input.shape.size() < 3 || r.input.shape.size() > 5)
    return error("a convolution over " + dims_text(r.input.shape) + " is not 1-3-D");
  if (r.weight.dtype != r.input.dtype) return error("the convolution's input and weight differ in dtype");
  r.dims = static_cast<int>(r.input.shape.size()) - 2;
  size_t d = r.dims;
  r.stride = CUTEGEN_TRY(int_list(n, 3, "stride", d));
  r.padding = CUTEGEN_TRY(int_list(n, 4, "padding", d));
  r.dilation = CUTEGEN_TRY(int_list(n, 5, "dilation", d));
  auto* transposed = n.arg(6, "transposed");
  r.transposed = transposed && transposed->kind == GraphArg::kConst && transposed->number != 0;
  r.output_padding = CUTEGEN_TRY(int_list(n, 7, "output_padding", d));
  auto* groups = n.arg(8, "groups");
  if (!groups || groups->kind != GraphArg::kConst) return error(n.op + "'s groups is not a constant");
  r.groups = static_cast<int64_t>(groups->number);
  auto* value = g.value(GraphArg{.kind = GraphArg::kOp, .op = node});
  if (!value || value->shape.size() != r.input.shape.size())
    return error("the graph records no shape for the convolution");
  r.batch = r.input.shape[0];
  r.in_channels = r.input.shape[1];
  r.out_channels = value->shape[1];
  r.in_size.assign(r.input.shape.begin() + 2, r.input.shape.end());
  r.out_size.assign(value->shape.begin() + 2, value->shape.end());
  r.kernel.assign(r.weight.shape.begin() + 2, r.weight.shape.end());
  if (r.groups < 1 || r.in_channels % r.groups || r.out_channels % r.groups)
    return error("the channels do not divide into groups");
  if (spec.outputs.size() != 1 || g.outputs.size() != 1)
    return error("forward returns " + std::to_string(spec.outputs.size()) + " tensors; a convolution writes one");
  auto& out = spec.outputs[0];
  if (!is_float(out.dtype) || !is_contiguous(out)) return error("the output is not a contiguous float tensor");
  auto epilogue = pointwise_segment(spec, g, g.outputs[0], [node](int op) { return op == node; });
  if (!epilogue.ok()) return error("the epilogue after the convolution: " + epilogue.message());
  if (epilogue->source != node) return error("the output does not depend on the convolution");
  if (epilogue->source_strides != contiguous_strides(epilogue->shape) || product(epilogue->shape) != out.numel())
    return error("the epilogue broadcasts the convolution to another shape");
  r.epilogue = epilogue->expr;
  r.epilogue_operands = epilogue->operands;
  r.out_name = out.name;
  r.out_c_name = abi_name(spec, &out);
  r.out_dtype = out.dtype;
  r.out_shape = epilogue->shape;
  fold_unit_last_dim(r);
  classify(r);
  return r;
}

Result<ConvRecipe> recognize_conv(const TaskSpec& spec) {
  auto g = CUTEGEN_TRY(import_graph(spec));
  return recognize_conv(spec, g);
}

}  // namespace cutegen
