// The run's HTML report (`cutegen report RUN`): one self-contained page (inline CSS and SVG, no
// scripts or fetches) with the run table, KernelBench's aggregates, and per task its speedup by
// step, its steps, the diff between successive kept kernels, the profiles its prompts carried and
// the evaluator's findings for its failed steps.
#pragma once

#include <string>

#include "agent/run_record.h"

namespace cutegen {

std::string run_report_html(const RunRecord& run);

}  // namespace cutegen
