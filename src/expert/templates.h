// The templates: code generators that turn a Recipe at a parameter point into one complete .cu
// source implementing the task's cutegen_forward (ABI header force-included by the Builder).
#pragma once

#include <string>

#include "core/result.h"
#include "expert/params.h"
#include "expert/recipe.h"
#include "task/task_spec.h"

namespace cutegen {

// Errors when the parameters do not fit the recipe (see invalid_reason).
Result<std::string> generate_kernel(const Recipe& r, const TaskSpec& spec, const Params& p);

// Per-template generators (called by generate_kernel after validation).
std::string generate_elementwise(const Recipe& r, const TaskSpec& spec, const Params& p);
std::string generate_reduce(const Recipe& r, const TaskSpec& spec, const Params& p);
std::string generate_rownorm(const Recipe& r, const TaskSpec& spec, const Params& p);

// Shared pieces: the includes and device helpers every kernel starts with, and the entry point's
// declaration exactly as the ABI header spells it.
std::string kernel_prelude(const std::string& title);
std::string entry_signature(const TaskSpec& spec);
// Replaces each "$name" in `text` (longest names first).
std::string fill_template(std::string text, const std::vector<std::pair<std::string, std::string>>& vars);
// The variables every row-shaped template (reductions, row normalizations) fills the same way.
std::vector<std::pair<std::string, std::string>> row_template_vars(const Recipe& r, const TaskSpec& spec, const Params& p);

}  // namespace cutegen
