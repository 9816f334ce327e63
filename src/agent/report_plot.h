// The report's plot of one task: speedup over eager by step as inline SVG, kept steps with the
// best-so-far line through them, reverted steps beside it, failed steps marked on the axis.
#pragma once

#include <string>
#include <vector>

#include "store/run_store.h"

namespace cutegen {

std::string speedup_plot_svg(const std::string& task, const std::vector<StepRecord>& steps);

}  // namespace cutegen
