// The exported ModelNew (<task>_model_new.py): the template src/agent/export_model_new.py with the
// task's data written in — the reference task's source, the kernel's source (ABI header inlined),
// nvcc's flags, and the ABI's inputs, parameters/buffers and outputs as tables. The file needs
// nothing beside it: it works imported, or exec'd from a string with no __file__.
#pragma once

#include <string>

#include "build/target.h"
#include "core/result.h"
#include "task/task_spec.h"

namespace cutegen {

// A Python string literal holding `text` exactly: "..." on one line, or, with `block`, a
// triple-quoted literal that keeps text's lines as lines (for embedded sources).
std::string python_literal(const std::string& text, bool block = false);

// `reference` is the task file's source, `kernel_source` the standalone .cu (header included).
Result<std::string> model_new_python(const TaskSpec& spec, const std::string& reference,
                                     const std::string& kernel_source, const Target& target);

}  // namespace cutegen
