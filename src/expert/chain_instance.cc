// A level-2 chain's kernel file (instances/chain.cu.in): the anchor's instance (GEMM or convolution,
// its pointwise epilogue fused) rendered as the function cutegen_anchor writing into a buffer, then
// one kernel per stage from kernels/chain/stages.cuh. A stage's index maps are CuTe layouts with
// static shapes and strides over row-major indices, so their divisions are by constants.
#include <algorithm>
#include <numeric>
#include <optional>

#include "core/strings.h"
#include "expert/chain_recipe.h"
#include "expert/conv_recipe.h"
#include "expert/kernel_library.h"
#include "expert/strided.h"
#include "expert/templates.h"
#include "task/abi.h"

namespace cutegen {
namespace {

std::string n(int64_t v) { return std::to_string(v); }

// A static CuTe layout over the dims `dims` of `shape` read with `strides`, innermost (last) dim
// first, so that its index counts those dims in row-major order; dims of extent 1 are left out.
std::string layout(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                   const std::vector<int>& dims) {
  std::vector<std::string> extents, steps;
  for (auto d = dims.rbegin(); d != dims.rend(); ++d)
    if (shape[*d] != 1) {
      extents.push_back("cute::Int<" + n(shape[*d]) + ">");
      steps.push_back("cute::Int<" + n(strides[*d]) + ">");
    }
  if (extents.empty()) return "cute::Layout<cute::Shape<cute::Int<1>>, cute::Stride<cute::Int<0>>>";
  return "cute::Layout<cute::Shape<" + join(extents, ", ") + ">, cute::Stride<" + join(steps, ", ") + ">>";
}

std::vector<int> all_dims(size_t rank) {
  std::vector<int> dims(rank);
  std::iota(dims.begin(), dims.end(), 0);
  return dims;
}

// The functor a stage applies at each store: a norm's affine parameters, then the pointwise ops
// after the stage (leaf 0 the stage's value, leaf k its k-th operand), each operand read through a
// layout of its broadcast strides.
struct Functor {
  std::string type, init;  // "struct Stage0 {...};", "Stage0{w, b, in1}"
};

Functor functor(const ChainStage& s, const std::string& name) {
  std::vector<std::string> members, values, lines;
  auto read = [&](const ChainOperand& o, const std::vector<int64_t>& shape, const std::string& member) {
    members.push_back("  float const* " + member + ";");
    values.push_back(o.c_name);
    return member + "[" + layout(shape, o.strides, all_dims(shape.size())) + "{}(i)]";
  };
  if (s.weight) lines.push_back("    v *= " + read(*s.weight, s.in_shape, "weight") + ";");
  if (s.bias) lines.push_back("    v += " + read(*s.bias, s.in_shape, "bias") + ";");
  std::vector<std::string> leaves = {"v"};
  for (size_t k = 0; k < s.after_operands.size(); ++k) {
    std::string x = "x" + n(int64_t(k) + 1);
    lines.push_back("    const float " + x + " = " +
                    read(s.after_operands[k], s.after_shape, "in" + n(int64_t(k) + 1)) + ";");
    leaves.push_back(x);
  }
  std::string expr = s.after ? to_cuda(s.after, leaves) : "v";
  std::string type = "struct " + name + " {\n" + join(members, "\n") + (members.empty() ? "" : "\n") +
                     "  CUTE_DEVICE float apply(float v, int64_t i) const {\n" + join(lines, "\n") +
                     (lines.empty() ? "" : "\n") + "    return " + expr + ";\n  }\n};\n";
  return {type, name + "{" + join(values, ", ") + "}"};
}

const char* row_op(const ChainStage& s) {
  switch (s.kind) {
    case StageKind::kReduce:
      if (s.log_sum_exp) return "kLogSumExp";
      if (s.reduce == ReduceOp::kMax) return "kMax";
      if (s.reduce == ReduceOp::kMin) return "kMin";
      return s.mean ? "kMean" : "kSum";
    case StageKind::kSoftmax: return "kSoftmax";
    case StageKind::kLogSoftmax: return "kLogSoftmax";
    default: return "kNorm";
  }
}

std::string list(const std::vector<int64_t>& v) {
  std::vector<std::string> items;
  for (auto x : v)
    items.push_back(n(x));
  return "{" + join(items, ", ") + "}";
}

// A row stage's input as the kernel views it: `shape` (dense, `strides`), rows over the `kept` dims,
// each row's elements over `dims`. Group norm: [N, C, spatial...] as [N, G, C / G x spatial],
// normalized over the last dim.
struct RowView {
  std::vector<int64_t> shape, strides;
  std::vector<int> dims, kept;
  int64_t length() const {
    int64_t l = 1;
    for (int d : dims)
      l *= shape[d];
    return l;
  }
  // "using RowsI = ...;\nusing ElemsI = ...;\n": the row stages' layouts.
  std::string types(const std::string& id) const {
    return "using Rows" + id + " = " + layout(shape, strides, kept) + ";\nusing Elems" + id + " = " +
           layout(shape, strides, dims) + ";\n";
  }
};

RowView row_view(const ChainStage& s) {
  RowView v{s.in_shape, {}, s.dims, {}};
  if (s.groups > 0) {  // an instance norm read from a group norm keeps its groups (one per channel)
    v.shape = {s.in_shape[0], s.groups, product(s.in_shape) / s.in_shape[0] / s.groups};
    v.dims = {2};
  }
  for (int d = 0; d < static_cast<int>(v.shape.size()); ++d)
    if (std::find(v.dims.begin(), v.dims.end(), d) == v.dims.end()) v.kept.push_back(d);
  v.strides = contiguous_strides(v.shape);
  return v;
}

// The stage's types (its functor, and its layouts or pool spec) and its launch from `in` to `out`.
std::pair<std::string, std::string> stage_code(const ChainStage& s, int index, const std::string& in,
                                               const std::string& out) {
  Functor f = functor(s, "Stage" + n(index));
  std::string id = n(index), types = f.type;
  if (s.kind == StageKind::kMaxPool || s.kind == StageKind::kAvgPool) {
    const int pooled = static_cast<int>(s.dims.size());
    // Arrays as constexpr functions: a device function may call them with a loop's index.
    auto table = [](const char* name, const char* type, const std::vector<int64_t>& v) {
      return "  static constexpr " + std::string(type) + " " + name + "(int d) {\n    constexpr " + type +
             " v[] = " + list(v) + ";\n    return v[d];\n  }\n";
    };
    types += "struct Pool" + id + " {\n  static constexpr int kRank = " + n(int64_t(s.in_shape.size())) +
             ", kPooled = " + n(pooled) + ", kWindowSize = " + n(product(s.window)) +
             ";\n  static constexpr int64_t kOutSize = " + n(product(s.out_shape)) +
             ";\n  static constexpr bool kMax = " + (s.kind == StageKind::kMaxPool ? "true" : "false") +
             ", kCountPad = " + (s.count_include_pad ? "true" : "false") + ";\n" + table("in", "int64_t", s.in_shape) +
             table("out", "int64_t", s.out_shape) + table("window", "int64_t", s.window) +
             table("stride", "int64_t", s.stride) + table("pad", "int64_t", s.padding) +
             table("dilation", "int64_t", s.dilation) + "};\n";
    return {types, "  if (cutegen::chain::pool_stage<Pool" + id + ">(" + in + ", " + out + ", " + f.init +
                       ", stream) != cudaSuccess) return;\n"};
  }
  types += row_view(s).types(id);
  return {types, "  if (cutegen::chain::row_stage<cutegen::chain::RowOp::" + std::string(row_op(s)) + ", Rows" + id +
                     ", Elems" + id + ">(" + in + ", " + out + ", " + f.init + ", " + float_literal(s.eps) +
                     ", stream) != cudaSuccess) return;\n"};
}

// A norm whose statistics the anchor's epilogue summed beside its output (FusedStage::kStats, the
// pairs `stats_offset` floats past `in`): one normalizing pass. Row r's channels' pairs: whole
// channels a row (group and instance norms), the row's L / pixels channels from r L / pixels; a
// batch norm's channel r in every image.
std::pair<std::string, std::string> norm_stats_code(const ChainStage& s, const ConvRecipe& conv, int64_t stats_offset,
                                                    const std::string& in, const std::string& out) {
  Functor f = functor(s, "Stage0");
  RowView v = row_view(s);
  const int64_t rows = product(s.in_shape) / v.length(), pixels = conv.out_pixels();
  auto line = [](int64_t extent, int64_t stride) { return layout({extent}, {stride}, {0}); };
  std::string stat_rows =
      s.kind == StageKind::kBatchNorm ? line(conv.out_channels, 1) : line(rows, v.length() / pixels);
  std::string stat_elems =
      s.kind == StageKind::kBatchNorm ? line(conv.batch, conv.out_channels) : line(v.length() / pixels, 1);
  std::string types =
      f.type + v.types("0") + "using StatRows0 = " + stat_rows + ";\nusing StatElems0 = " + stat_elems + ";\n";
  return {types, "  if (cutegen::chain::norm_stats_stage<Rows0, Elems0, StatRows0, StatElems0>(" + in +
                     ", reinterpret_cast<double const*>(" + in + " + " + n(stats_offset) + "), " + out + ", " + f.init +
                     ", " + float_literal(s.eps) + ", stream) != cudaSuccess) return;\n"};
}

// A stage whose reduction the anchor's epilogue fused: `in` holds its values, so only the ops after it
// remain, a pointwise pass over them (a broadcast stage of stride 1).
std::pair<std::string, std::string> fused_stage_code(const ChainStage& s, int index, const std::string& in,
                                                     const std::string& out) {
  Functor f = functor(s, "Stage" + n(index));
  std::string id = n(index);
  int64_t size = product(s.out_shape);
  std::string types = f.type + "using Source" + id + " = " + layout({size}, {1}, {0}) + ";\n";
  return {types, "  if (cutegen::chain::broadcast_stage<Source" + id + ">(" + in + ", " + out + ", " + n(size) + ", " +
                     f.init + ", stream) != cudaSuccess) return;\n"};
}

// The last stage where its pointwise ops broadcast its value to more elements than it has: the stage
// with no ops after it, writing `out` (its own size), then one kernel applying them over after_shape
// from there into `final`.
std::pair<std::string, std::string> expanding_stage_code(const ChainStage& s, int index, const std::string& in,
                                                         const std::string& out, const std::string& final) {
  ChainStage bare = s, ops = s;
  bare.after = nullptr, bare.after_operands.clear(), bare.after_shape = s.out_shape;
  ops.weight.reset(), ops.bias.reset();
  auto [types, call] = stage_code(bare, index, in, out);
  std::string id = n(index);
  Functor f = functor(ops, "Broadcast" + id);
  types += f.type + "using Source" + id + " = " +
           layout(s.after_shape, s.source_strides, all_dims(s.after_shape.size())) + ";\n";
  return {types, call + "  if (cutegen::chain::broadcast_stage<Source" + id + ">(" + out + ", " + final + ", " +
                     n(product(s.after_shape)) + ", " + f.init + ", stream) != cudaSuccess) return;\n"};
}

bool same_dims(const std::vector<int>& dims, int first, int last) {
  std::vector<int> want;
  for (int d = first; d <= last; ++d)
    want.push_back(d);
  return dims == want;
}

// Whether every output phase of a transposed convolution has taps (a phase without them holds the
// bias alone, which a fused reduction would have to add in: kernels/conv/transposed_launch.cuh).
bool every_phase_has_taps(const ConvRecipe& c) {
  for (size_t i = 0; i < c.stride.size(); ++i)
    for (int64_t r = 0; r < std::min(c.stride[i], c.out_size[i]); ++r) {
      bool reached = false;
      for (int64_t k = 0; k < c.kernel[i] && !reached; ++k)
        reached = (r + c.padding[i] - k * c.dilation[i]) % c.stride[i] == 0;
      if (!reached) return false;
    }
  return true;
}

// A 2-D pool of square windows of 2 or 4 at their own stride, no padding, dilation or ceil mode, over
// output pixels in place (not a transposed convolution's phases).
Result<FusedStage> fused_pool(const ConvRecipe& conv, const ChainStage& s) {
  auto all = [](const std::vector<int64_t>& v, int64_t x) {
    return std::all_of(v.begin(), v.end(), [x](int64_t e) { return e == x; });
  };
  const int64_t w = s.window.empty() ? 0 : s.window.front();
  if (conv.dims != 2 || !same_dims(s.dims, 2, 3)) return error("the first stage pools other than 2-D pixels");
  if (s.window.size() != 2 || !all(s.window, w) || (w != 2 && w != 4) || s.stride != s.window || !all(s.padding, 0) ||
      !all(s.dilation, 1) || s.ceil_mode)
    return error("the first stage's pool is not of 2 x 2 or 4 x 4 windows at their own stride");
  if (conv.transposed && !all(conv.stride, 1)) return error("the first stage pools a transposed convolution's phases");
  FusedStage f;
  f.over = FusedStage::Over::kPool;
  f.window = static_cast<int>(w);
  f.op = s.kind == StageKind::kMaxPool ? "kMax" : "kSum";
  f.divisor = s.kind == StageKind::kMaxPool ? 1 : w * w;
  if (conv_tiles(conv, false, &f).tile_p * conv.stride.front() > 256)
    return error("the pooling tile's rows exceed a TMA box");
  return f;
}

// A group or instance norm whose rows are whole channels of one image (each row a contiguous run of
// the output), or a batch norm over each channel: the epilogue sums their statistics beside the
// output it writes.
Result<FusedStage> fused_norm(const ConvRecipe& conv, const ChainStage& s) {
  if (s.kind == StageKind::kLayerNorm) return error("a layer norm's rows are not whole channels");
  if (s.kind == StageKind::kBatchNorm && s.in_shape != conv.conv_out_shape())
    return error("the batch norm reads a view of the convolution's output");
  if (s.kind != StageKind::kBatchNorm) {
    RowView v = row_view(s);
    bool reduced = false, contiguous = true;  // no kept dim after a reduced one (extents of 1 aside)
    for (int d = 0; d < static_cast<int>(v.shape.size()); ++d) {
      if (v.shape[d] == 1) continue;
      bool in_row = std::find(v.dims.begin(), v.dims.end(), d) != v.dims.end();
      reduced = reduced || in_row;
      contiguous = contiguous && (in_row || !reduced);
    }
    if (!contiguous || v.length() % conv.out_pixels() != 0)
      return error("the norm's rows are not whole channels of one image");
  }
  FusedStage f;
  f.over = FusedStage::Over::kStats;
  f.op = "kSum";
  f.stats_offset = (product(s.in_shape) + 1) / 2 * 2;  // doubles' alignment
  return f;
}

}  // namespace

Result<FusedStage> fused_first_stage(const ChainRecipe& c) {
  // The implicit GEMM's epilogue fuses them, and the tensor-core direct template's the sums over the
  // pixels and the norms' statistics (its strategy's rule).
  if (c.anchor != AnchorKind::kConv || !c.conv || c.conv->kind == ConvClass::kDepthwise)
    return error("the anchor is not an implicit-GEMM or direct convolution");
  if (c.stages.empty()) return error("no stage after the anchor");
  const ConvRecipe& conv = *c.conv;
  const ChainStage& s = c.stages.front();
  const bool pool = s.kind == StageKind::kMaxPool || s.kind == StageKind::kAvgPool;
  const bool norm = s.kind == StageKind::kGroupNorm || s.kind == StageKind::kInstanceNorm ||
                    s.kind == StageKind::kBatchNorm || s.kind == StageKind::kLayerNorm;
  if (s.kind != StageKind::kReduce && !pool && !norm)
    return error("the first stage, " + s.op + ", is not a reduction, pool or norm");
  if (product(s.in_shape) != product(conv.conv_out_shape()))
    return error("the first stage reads part of the convolution's output");
  if (product(s.after_shape) != product(s.out_shape)) return error("the first stage's ops broadcast its value");
  if (conv.transposed && !every_phase_has_taps(conv)) return error("a transposed phase has no taps");
  if (norm) return fused_norm(conv, s);
  if (s.in_shape != conv.conv_out_shape()) return error("the first stage reads a view of the convolution's output");
  if (pool) return fused_pool(conv, s);
  const int last = static_cast<int>(s.in_shape.size()) - 1;
  FusedStage f;
  f.over = s.dims == std::vector<int>{1} ? FusedStage::Over::kChannels : FusedStage::Over::kPixels;
  if (f.over == FusedStage::Over::kPixels && !same_dims(s.dims, 2, last))
    return error("the first stage reduces neither all the pixels nor all the channels");
  f.op = s.log_sum_exp                ? "kLogSumExp"
         : s.reduce == ReduceOp::kMax ? "kMax"
         : s.reduce == ReduceOp::kMin ? "kMin"
         : s.reduce == ReduceOp::kSum ? "kSum"
                                      : "";
  if (f.op.empty()) return error("the first stage's reduction is not a sum, mean, max, min or logsumexp");
  if (f.over == FusedStage::Over::kPixels && f.op != "kSum")
    return error("a reduction over the pixels fuses as a sum or mean only");
  if (f.over == FusedStage::Over::kChannels &&
      (conv.groups != 1 || conv.gemm_n() * conv_merge_w(conv) > conv_tiles(conv).tile_n))
    return error("the channels span more than one N tile");
  if (s.mean) f.divisor = product(s.in_shape) / product(s.out_shape);
  return f;
}

bool fused_stage_pays(const ChainRecipe& c) {
  auto fused = fused_first_stage(c);
  return fused.ok() && (fused->over != FusedStage::Over::kPool || conv_tiles(*c.conv, false, &*fused).tile_n <= 64);
}

std::string chain_unsupported(const ChainRecipe& c) {
  if (c.out_dtype != DType::kFloat32) return "the chain's output is not float32";
  if (c.prologue && c.prologue->out_dtype != DType::kFloat32) return "the depthwise prologue's value is not float32";
  for (auto& s : c.stages) {
    for (auto* o : {s.weight ? &*s.weight : nullptr, s.bias ? &*s.bias : nullptr})
      if (o && o->dtype != DType::kFloat32) return s.op + "'s parameter " + o->name + " is not float32";
    for (auto& o : s.after_operands)
      if (o.dtype != DType::kFloat32) return "operand " + o.name + " after " + s.op + " is not float32";
    if ((s.kind == StageKind::kMaxPool || s.kind == StageKind::kAvgPool) && s.dims.size() > 3)
      return s.op + " over more than 3 dims";
    if (product(s.after_shape) != product(s.out_shape) && &s != &c.stages.back())
      return "the ops after " + s.op + " change its element count before another stage";
  }
  return "";
}

Result<std::string> chain_instance(const Recipe& r, const TaskSpec& spec, const Params& p) {
  const ChainRecipe& c = *r.chain;
  if (auto why = chain_unsupported(c); !why.empty()) return error(why);
  std::vector<std::string> decls, args;
  for (auto& a : abi_params(spec)) {
    decls.push_back(a.c_decl);
    args.push_back(a.c_name + ", ");
  }
  std::string signature = "static void cutegen_anchor(" + join(decls, ", ") +
                          ", float const* chain_in, float* chain_out, cudaStream_t stream)";
  // With the first stage fused the anchor writes its reduced value (Params::fuse_stage).
  std::optional<FusedStage> fused;
  if (p.fuse_stage) fused = CUTEGEN_TRY(fused_first_stage(c));
  std::string anchor =
      CUTEGEN_TRY(r.gemm ? gemm_instance(r, p, signature) : conv_instance(r, p, signature, fused ? &*fused : nullptr));
  // A depthwise prologue writes the anchor's input (chain_in) at its own default point.
  std::string prologue, prologue_call;
  if (c.prologue) {
    Recipe first{.kind = TemplateKind::kConv, .conv = std::make_shared<const ConvRecipe>(*c.prologue)};
    prologue = CUTEGEN_TRY(
        conv_instance(first, default_params(first),
                      "static void cutegen_prologue(" + join(decls, ", ") + ", float* chain_in, cudaStream_t stream)",
                      nullptr, "cg_prologue"));
    prologue_call = "  cg_prologue::cutegen_prologue(" + join(args, "") + "chain_in, stream);\n";
  }
  std::string types, calls;
  const bool stats = fused && fused->over == FusedStage::Over::kStats;
  int64_t buffer = c.stages.empty() ? 0
                   : stats ? fused->stats_offset + 4 * c.conv->batch * c.conv->out_channels  // (N, K, 2) doubles
                           : product(p.fuse_stage ? c.stages.front().out_shape : c.stages.front().in_shape);
  for (size_t i = 0; i < c.stages.size(); ++i) {
    bool last = i + 1 == c.stages.size();
    if (!last) buffer = std::max(buffer, product(c.stages[i].after_shape));
    const ChainStage& s = c.stages[i];
    std::string in = "buffer[" + n(int64_t(i % 2)) + "]", next = "buffer[" + n(int64_t((i + 1) % 2)) + "]";
    auto [t, call] = i == 0 && stats ? norm_stats_code(s, *c.conv, fused->stats_offset, in, last ? c.out_c_name : next)
                     : i == 0 && p.fuse_stage ? fused_stage_code(s, 0, in, last ? c.out_c_name : next)
                     : last && product(s.after_shape) != product(s.out_shape)
                         ? expanding_stage_code(s, static_cast<int>(i), in, next, c.out_c_name)
                         : stage_code(s, static_cast<int>(i), in, last ? c.out_c_name : next);
    types += t + "\n";
    calls += call;
  }
  auto bytes = [](int64_t floats) { return n((floats * 4 + 255) / 256 * 256); };  // whole 256-byte blocks
  return render_instance("instances/chain.cu.in",
                         {{"prologue", prologue},
                          {"anchor", anchor},
                          {"chain_in_bytes", bytes(c.prologue ? product(c.prologue->out_shape) : 0)},
                          {"prologue_call", prologue_call},
                          {"stage_types", types},
                          {"signature", entry_signature(spec)},
                          {"buffer_bytes", bytes(buffer)},
                          {"anchor_args", join(args, "")},
                          {"stage_calls", calls}});
}

}  // namespace cutegen
