// The run's Markdown summary (summary.md in the run folder): per task the verdict, speedup vs
// eager (re-measured), fraction of the roofline, steps, tokens and cost, and the trajectory.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "llm/ledger.h"
#include "store/run_store.h"

namespace cutegen {

std::string run_summary_markdown(const RunMeta& run, const std::vector<TaskRow>& tasks,
                                 const std::map<std::string, std::vector<StepRecord>>& steps,
                                 const std::map<std::string, Spend>& spend);

}  // namespace cutegen
