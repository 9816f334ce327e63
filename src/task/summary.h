// A readable account of a TaskSpec for people: arguments with dtypes, shapes and sizes, the op
// list, FLOPs and the minimal traffic (whose ratio says whether the task is compute- or memory-bound).
#pragma once

#include <string>

#include "task/task_spec.h"

namespace cutegen {

std::string task_summary(const TaskSpec& spec);
// "1.00 GiB", "64.0 KiB", "12 B".
std::string human_bytes(int64_t bytes);
// "137.4 GFLOP", "0".
std::string human_flops(int64_t flops);

}  // namespace cutegen
