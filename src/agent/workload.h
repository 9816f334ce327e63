// Workload classes from a task's aten op list (tables in the .cc): what the optimize prompt is
// written for and when delayed profiling starts by default.
#pragma once

#include <string>
#include <vector>

#include "core/outcomes.h"

namespace cutegen {

enum class Workload { kConv, kGemm, kLoss, kReduction, kOther, kElementwise };
// Its names: what the prompts show and agent.profile_after's keys name.
template <>
std::span<const NameRow<Workload>> name_table();

// The first table row that matches any op wins (GEMM before reduction, so linear+softmax is
// GEMM-like); ops no row names make an elementwise task, shape ops alone an "other" one.
Workload classify_workload(const std::vector<std::string>& ops);
// Accepted steps before the runtime profile joins the prompt (the paper's runs).
int default_profile_after(Workload w);
// The optimize template for a class: loss shares the reduction prompt.
std::string optimize_template(Workload w);

}  // namespace cutegen
