// A run as its summaries read it (summary.md, the HTML report): the run, its tasks in order, each
// task's steps, what the model calls cost per task, and the profiles the prompts carried.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "llm/ledger.h"
#include "store/run_view.h"

namespace cutegen {

// The runtime profile a step's prompt carried: that of the kernel it started from (its parent).
struct ProfileSeen {
  int step = 0;    // the step whose prompt carried it
  int parent = 0;  // the kernel profiled
  std::string summary;
};

struct RunRecord {
  RunMeta meta;
  std::vector<TaskRow> tasks;
  std::map<std::string, std::vector<StepRecord>> steps;      // by task, in step order
  std::map<std::string, Spend> spend;                        // by task; empty without a ledger
  std::map<std::string, std::vector<ProfileSeen>> profiles;  // by task, in step order
};

// Reads everything from the run, all its shards as one; each task's spend from the ledger (the
// llm_calls table) of the store that holds the task, under that store's run id.
Result<RunRecord> read_run(const RunView& run);

}  // namespace cutegen
