// Export of a task's best kernel for use outside CuTeGen:
//   <out>/<task>_cutegen.cu    the kernel with the task's ABI header inlined at the top
//   <out>/<task>_model_new.py  a drop-in KernelBench ModelNew (agent/export_model_new.h): the
//                              reference Model with forward replaced by the kernel, which it
//                              carries and compiles itself; it needs no file beside it.
#pragma once

#include <string>
#include <utility>

#include "core/result.h"
#include "task/task_spec.h"

namespace cutegen {

std::string standalone_source(const TaskSpec& spec, const std::string& kernel);
// Reads the task file (spec.path) to embed it. `arch` as build.arch takes it ("sm_90a").
// Returns the two paths written.
Result<std::pair<std::string, std::string>> export_kernel(const TaskSpec& spec, const std::string& kernel,
                                                          const std::string& out_dir,
                                                          const std::string& arch = "sm_90a");

}  // namespace cutegen
