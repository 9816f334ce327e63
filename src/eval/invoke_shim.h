// The harness's glue for evaluation builds: `cutegen_invoke(slots, stream)`, which the runner
// (src/runner) calls for every task alike, unpacks 64-bit argument slots in ABI order (addresses,
// int64 and bool values, double bits) into the task's own cutegen_forward. It is appended to the
// force-included ABI header; exported kernels (`cutegen export`) do without it.
#pragma once

#include <string>

#include "task/task_spec.h"

namespace cutegen {

std::string invoke_shim(const TaskSpec& spec);

// What an evaluation build force-includes: the task's ABI header, then the glue.
std::string evaluation_header(const TaskSpec& spec);

}  // namespace cutegen
