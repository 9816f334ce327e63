// Export of a task's best kernel for use outside CuTeGen:
//   <out>/<task>_cutegen.cu    the kernel with the task's ABI header inlined at the top
//   <out>/<task>_model_new.py  class ModelNew(nn.Module): compiles the .cu with nvcc (harness
//                              flags, CUTLASS from $CUTEGEN_CUTLASS_DIR), loads it with ctypes and
//                              calls cutegen_forward on torch's current stream, tensors in ABI order.
#pragma once

#include <string>

#include "core/result.h"
#include "task/task_spec.h"

namespace cutegen {

std::string standalone_source(const TaskSpec& spec, const std::string& kernel);
std::string model_new_python(const TaskSpec& spec, const std::string& arch);
// Returns the two paths written.
Result<std::pair<std::string, std::string>> export_kernel(const TaskSpec& spec, const std::string& kernel,
                                                          const std::string& out_dir, const std::string& arch = "sm_90a");

}  // namespace cutegen
