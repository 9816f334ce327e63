// Recognition: from a TaskSpec's traced op graph to a Recipe, or a clear decline that says why
// (so a run can move on to an LLM). Recognizers form a table tried in order.
#pragma once

#include "core/result.h"
#include "expert/recipe.h"
#include "task/task_spec.h"

namespace cutegen {

// Errors start with "no template for this task" and carry each recognizer's reason; for a GEMM the
// kernels cannot compute the first reason is kGemmRecognized, the GemmRecipe's summary,
// kGemmNoKernel, the reason (without parentheses) and ")".
Result<Recipe> recognize(const TaskSpec& spec);

inline constexpr const char* kGemmRecognized = "GEMM recognized: ";
inline constexpr const char* kGemmNoKernel = " (no kernel: ";

}  // namespace cutegen
