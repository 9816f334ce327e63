// The run's Markdown summary (summary.md in the run folder): per task the verdict, speedup vs
// eager (re-measured), fraction of the roofline, steps, tokens and cost, and the trajectory.
#pragma once

#include <string>

#include "agent/run_record.h"

namespace cutegen {

std::string run_summary_markdown(const RunRecord& run);
// How a step's source was made: the edit's kind, and the expert's parameter point where it has one.
std::string step_edit_label(const StepRecord& r);

}  // namespace cutegen
