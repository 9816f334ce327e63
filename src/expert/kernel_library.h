// The kernel library (kernels/ at the repository root), compiled in by CMake: .cuh headers that hold
// the kernels and .cu.in instance templates that the generators fill. An instance includes library
// headers by their path under kernels/ ("rownorm/held.cuh"); instantiate() inlines them, so a
// generated kernel is one self-contained .cu (for the evaluator, the model and export).
#pragma once

#include <map>
#include <string>

#include "core/result.h"
#include "core/text_template.h"

namespace cutegen {

// Every file of kernels/, by its path under kernels/.
const std::map<std::string, std::string>& kernel_library();

// The instance template `name` (a .cu.in of the library) rendered with `vars` (a missing or unused
// one is an error), without inlining.
Result<std::string> render_instance(const std::string& name, const TemplateVars& vars);

// `source` with each #include "PATH" of a library file replaced by that file's text, itself inlined
// the same way, each file once (its #pragma once dropped); other includes stay as they are.
Result<std::string> inline_library(const std::string& source);

}  // namespace cutegen
