// The generators: each turns a Recipe at a parameter point into one complete .cu implementing the
// task's cutegen_forward (ABI header force-included by the Builder). A generator fills its instance
// template (kernels/instances/*.cu.in) with types, shapes, the pointwise expression and the
// strategy's constants; the kernels themselves are the library's headers, inlined into the output.
#pragma once

#include <string>

#include "core/result.h"
#include "core/text_template.h"
#include "expert/params.h"
#include "expert/recipe.h"
#include "task/task_spec.h"

namespace cutegen {

// Errors when the parameters do not fit the recipe (see invalid_reason).
Result<std::string> generate_kernel(const Recipe& r, const TaskSpec& spec, const Params& p,
                                    const ArchLimits& hw = Target{}.limits());

// Per-family instances (called by generate_kernel after validation), before inlining.
Result<std::string> elementwise_instance(const Recipe& r, const TaskSpec& spec, const Params& p);
Result<std::string> reduce_instance(const Recipe& r, const TaskSpec& spec, const Params& p);
Result<std::string> rownorm_instance(const Recipe& r, const TaskSpec& spec, const Params& p);
Result<std::string> gemm_instance(const Recipe& r, const TaskSpec& spec, const Params& p);
// A chain's anchor: the GEMM instance with `signature` in place of the entry point's.
Result<std::string> gemm_instance(const Recipe& r, const Params& p, const std::string& signature);
// A chain: its anchor's instance as the function cutegen_anchor, then one kernel per stage.
Result<std::string> chain_instance(const Recipe& r, const TaskSpec& spec, const Params& p);

// Why the GEMM kernels cannot compute a recognized GEMM ("" when they can): recognize() declines
// such a task with this reason.
std::string gemm_unsupported(const GemmRecipe& g);

// The entry point's declaration exactly as the ABI header spells it.
std::string entry_signature(const TaskSpec& spec);
// The first line of every generated kernel: "summary [point]".
std::string kernel_title(const Recipe& r, const Params& p);

}  // namespace cutegen
