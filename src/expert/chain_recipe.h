// A KernelBench level-2 chain: an anchor (a GEMM or a convolution, its pointwise and per-channel
// ops fused into its epilogue, as GemmRecipe and ConvRecipe hold them) followed by stages, each a
// reduction, normalization or pooling of the value before it and the pointwise ops after it.
// Recognition walks back from the output: a pointwise segment ends at the stage op that made its
// value, which reads the segment before it, down to the anchor. A chain whose ops are not covered
// is declined naming the op that stopped recognition.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "expert/conv_recipe.h"
#include "expert/expr.h"
#include "expert/recipe.h"
#include "expert/gemm_recipe.h"
#include "expert/graph.h"
#include "task/task_spec.h"

namespace cutegen {

enum class AnchorKind { kGemm, kConv };
// kReduce: sum/mean/max/min/logsumexp over `dims`. kSoftmax/kLogSoftmax over dims[0].
// kGroupNorm: `groups` groups of channels (dim 1), each with its spatial dims; kInstanceNorm is
// groups == channels. kLayerNorm over the trailing `dims`. kBatchNorm: batch statistics per
// channel (training mode, as KernelBench's modules run). kMaxPool/kAvgPool: windows over the
// trailing `dims`.
enum class StageKind {
  kReduce,
  kSoftmax,
  kLogSoftmax,
  kGroupNorm,
  kInstanceNorm,
  kLayerNorm,
  kBatchNorm,
  kMaxPool,
  kAvgPool
};
const char* to_string(AnchorKind k);  // "gemm", "conv"
const char* to_string(StageKind k);   // "reduce", "softmax", ..., "avg_pool"

// A tensor a stage or its pointwise segment reads: (name, its ABI parameter, strides that read it
// broadcast to the shape it meets, one per dim, 0 where broadcast).
struct ChainOperand {
  std::string name, c_name;
  DType dtype = DType::kFloat32;
  std::vector<int64_t> strides;
};

struct ChainStage {
  StageKind kind = StageKind::kReduce;
  std::string op;  // the aten op ("aten.native_group_norm.default")
  std::vector<int64_t> in_shape, out_shape;
  std::vector<int> dims;             // reduced / normalized / pooled dims of in_shape, ascending
  ReduceOp reduce = ReduceOp::kSum;  // kReduce (kMean folded as sum / count: `mean`)
  bool mean = false, log_sum_exp = false, keepdim = false;
  int64_t groups = 0;                                      // kGroupNorm
  double eps = 0;                                          // norms
  std::optional<ChainOperand> weight, bias;                // a norm's affine parameters
  std::vector<int64_t> window, stride, padding, dilation;  // pools, one per pooled dim
  bool ceil_mode = false, count_include_pad = true;
  // The pointwise ops after the stage: out = after(stage value, operands...), leaf 0 the stage's
  // result (before any view), leaf k > 0 reading after_operands[k - 1], which broadcast to
  // after_shape, the segment's result's shape (views that keep the element order dropped).
  ExprPtr after;
  std::vector<ChainOperand> after_operands;
  std::vector<int64_t> after_shape;
  // How leaf 0 (the stage's dense result) is read at after_shape's index: its own row-major strides
  // where the ops keep its element count, 0 along the dims they broadcast it over (a reduction's
  // result added to a tensor of the reduced shape: 51's residual add, 75's bias).
  std::vector<int64_t> source_strides;
};

struct ChainRecipe {
  AnchorKind anchor = AnchorKind::kConv;
  std::optional<GemmRecipe> gemm;  // the anchor with its epilogue; its "output" is the value the
  std::optional<ConvRecipe> conv;  // first stage reads
  // A depthwise convolution in front of a convolution anchor (depthwise separable: level 1's 86),
  // its pointwise epilogue fused; it writes the anchor's input, which the anchor reads as `chain_in`.
  std::optional<ConvRecipe> prologue;
  std::vector<ChainStage> stages;  // in execution order; empty when the anchor's epilogue is all
  std::string out_name, out_c_name;
  DType out_dtype = DType::kFloat32;
  std::vector<int64_t> out_shape;

  // "conv2d ... -> group_norm(16 groups over [1, 2, 3]) -> max_pool([2, 3] window 2x2) -> out [..]".
  std::string summary() const;
};

// The chain a task computes, or why not: "<op> stops recognition: <reason>" when an op after the
// anchor is not one the chain covers, the anchor recognizer's reason when the anchor is not one.
Result<ChainRecipe> recognize_chain(const TaskSpec& spec);
Result<ChainRecipe> recognize_chain(const TaskSpec& spec, const OpGraph& g);

// The recognizer table's row for chains: a kConv recipe for a convolution with a pointwise
// epilogue that the forward kernel computes; otherwise an error, either kChainRecognized + the
// summary + kChainNoKernel + ": why" (a convolution, or a GEMM with stages after it), or why the
// task is not a chain.
Result<Recipe> recognize_chain_kernel(const TaskSpec& spec, const OpGraph& g);
// The chain's first stage as its implicit-GEMM convolution's epilogue reduces it (Params::fuse_stage),
// or why it cannot: a sum or mean over each channel's pixels (all the output's spatial dims); a sum,
// mean, max, min or logsumexp over each pixel's channels (one group whose channels one N tile holds);
// a 2-D max or average pool of 2 x 2 or 4 x 4 windows at their own stride (no padding, floor mode;
// not over a transposed convolution's phases); the statistics of a group or instance norm whose rows
// are whole channels of an image, or of a batch norm, beside the output. Of the convolution's output
// as it is (a norm: or a view of it), where a transposed convolution has no phase without taps and
// the stage's ops do not broadcast its value.
Result<FusedStage> fused_first_stage(const ChainRecipe& c);
// Whether the default point fuses the first stage: wherever it can, except pools on a 128-wide N tile,
// measured slower fused (chain-fused-reduction in docs/decisions.md).
bool fused_stage_pays(const ChainRecipe& c);
// Why the stage kernels cannot compute a recognized chain ("" when they can): dtypes other than
// float32, pools over more than 3 dims.
std::string chain_unsupported(const ChainRecipe& c);

inline constexpr const char* kChainIn = "chain_in";  // the prologue's value, the anchor's input
inline constexpr const char* kChainRecognized = "chain recognized: ";
inline constexpr const char* kChainNoKernel = " (kernel not yet available";

}  // namespace cutegen
