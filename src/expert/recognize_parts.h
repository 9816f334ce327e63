// Internals shared by the recognizers (not part of the expert's interface).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "expert/graph.h"
#include "expert/recipe.h"
#include "expert/strided.h"
#include "task/task_spec.h"

namespace cutegen {

inline constexpr const char* kConvOp = "aten.convolution.default";  // every conv1d/2d/3d, forward or transposed

// The ABI parameter carrying input or parameter `ref`; errors for other references.
Result<const TaskArg*> referenced_arg(const TaskSpec& spec, const GraphArg& ref);
std::string abi_name(const TaskSpec& spec, const TaskArg* arg);
bool is_contiguous(const TaskArg& a);
bool is_float(DType d);  // float32, float16 or bfloat16
// Fills out_* and checks the single float output every template writes ("int64" allowed for argmax).
Status set_output(const TaskSpec& spec, const OpGraph& g, Recipe& r, bool integer_output = false);
// Follows identity ops (clone, alias, detach) back to the node that made a value.
GraphArg skip_identity(const OpGraph& g, GraphArg a);
// A batch norm from running statistics (the evaluator runs tasks in eval mode): per channel, so a
// pointwise op (segment.cc) rather than a normalization over the batch.
bool is_inference_batch_norm(const GraphNode& n);
// Normalizes a dim argument against `rank` (negative dims count from the end).
Result<int> normalize_dim(const GraphArg* dim, int rank);
RowShape row_shape(const std::vector<int64_t>& shape, int first, int last);  // reduces dims [first, last]

// Strides that read `a` broadcast to `out` (right-aligned, 0 where broadcast).
Result<std::vector<int64_t>> broadcast_strides(const TaskArg& a, const std::vector<int64_t>& out);

// Builds expressions for graph values; `leaf_for` decides what a tensor input/parameter becomes,
// `special` may take over an op (returning nullptr leaves it to the pointwise table).
struct ExprBuilder {
  const OpGraph& g;
  std::function<Result<ExprPtr>(const GraphArg&)> leaf_for;  // tensors that are not ops
  std::function<Result<ExprPtr>(int op)> special = nullptr;  // ops handled by the caller
  std::map<int, ExprPtr> memo;
  int consumer = -1;  // the node whose operand is being built (-1: the output itself)

  Result<ExprPtr> operator()(const GraphArg& a);
};

// Batch norm op `op` from running statistics as a pointwise expression,
// (x - running_mean) * rsqrt(running_var + eps) * weight + bias, x built by `b` (its consumer set to
// the norm) and each [C] parameter made a leaf by `channel` from its [1, C, 1, ...] view.
using ChannelLeafFn = std::function<Result<ExprPtr>(const TaskArg& view, const TaskArg* base)>;
Result<ExprPtr> inference_batch_norm(const TaskSpec& spec, ExprBuilder& b, int op, const ChannelLeafFn& channel);

Result<Recipe> recognize_elementwise(const TaskSpec& spec, const OpGraph& g);
Result<Recipe> recognize_reduce(const TaskSpec& spec, const OpGraph& g);
Result<Recipe> recognize_rownorm(const TaskSpec& spec, const OpGraph& g);
Result<Recipe> recognize_scale_norm(const TaskSpec& spec, const OpGraph& g);
struct GemmRecipe;
Result<GemmRecipe> recognize_gemm(const TaskSpec& spec, const OpGraph& g);

// diag(d) @ B and B @ diag(d) (mm of a diag_embed): the scaling d * B, each side's read given to
// `leaf_for` (d as a column [n, 1] for the row scaling).
using ViewLeafFn = std::function<Result<ExprPtr>(const StridedRead&)>;
bool is_diagonal_product(const OpGraph& g, int op);
Result<ExprPtr> diagonal_product(const TaskSpec& spec, const OpGraph& g, int op, const ViewLeafFn& leaf_for);

}  // namespace cutegen

namespace cutegen {
// Sets in_name/in_type from a reference to a contiguous float input tensor; returns that input.
Result<const TaskArg*> set_input(const TaskSpec& spec, const OpGraph& g, const GraphArg& ref, Recipe& r);
}  // namespace cutegen
