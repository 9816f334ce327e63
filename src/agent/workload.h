// Workload classes from a task's aten op list (tables in the .cc): what the optimize prompt is
// written for and when delayed profiling starts by default.
#pragma once

#include <string>
#include <vector>

namespace cutegen {

// "gemm", "conv", "loss", "reduction", "elementwise" or "other"; the first table row that
// matches any op wins (GEMM before reduction, so linear+softmax is GEMM-like).
std::string classify_workload(const std::vector<std::string>& ops);
// Accepted steps before the runtime profile joins the prompt (the paper's runs).
int default_profile_after(const std::string& workload);
// The optimize template for a class: loss shares the reduction prompt.
std::string optimize_template(const std::string& workload);

}  // namespace cutegen
