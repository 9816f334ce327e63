// Internals shared by the recognizers (not part of the expert's interface).
#pragma once

#include <string>

#include "core/result.h"
#include "expert/graph.h"
#include "expert/recipe.h"
#include "task/task_spec.h"

namespace cutegen {

// The ABI parameter carrying input or parameter `ref`; errors for other references.
Result<const TaskArg*> referenced_arg(const TaskSpec& spec, const GraphArg& ref);
std::string abi_name(const TaskSpec& spec, const TaskArg* arg);
bool is_contiguous(const TaskArg& a);
// Fills out_* and checks the single float output every template writes ("int64" allowed for argmax).
Status set_output(const TaskSpec& spec, const OpGraph& g, Recipe& r, bool integer_output = false);
// Follows identity ops (clone, alias, detach) back to the node that made a value.
GraphArg skip_identity(const OpGraph& g, GraphArg a);
// Normalizes a dim argument against `rank` (negative dims count from the end).
Result<int> normalize_dim(const GraphArg* dim, int rank);
RowShape row_shape(const std::vector<int64_t>& shape, int first, int last);  // reduces dims [first, last]

Result<Recipe> recognize_elementwise(const TaskSpec& spec, const OpGraph& g);
Result<Recipe> recognize_reduce(const TaskSpec& spec, const OpGraph& g);
Result<Recipe> recognize_rownorm(const TaskSpec& spec, const OpGraph& g);
Result<Recipe> recognize_scale_norm(const TaskSpec& spec, const OpGraph& g);

}  // namespace cutegen

namespace cutegen {
// Sets in_name/in_type from a reference to a contiguous float input tensor; returns that input.
Result<const TaskArg*> set_input(const TaskSpec& spec, const OpGraph& g, const GraphArg& ref, Recipe& r);
}  // namespace cutegen
