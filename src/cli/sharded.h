// Runs whose tasks run in shards (store/run_view.h): dealt over this machine's GPUs (`--gpus`,
// cli/deal.h) or submitted as a Slurm job array (`--slurm`, cli/slurm.h). The run's own run.db
// records which, as events, so `resume` continues the same way.
#pragma once

#include <string>

#include "cli/context.h"
#include "cli/slurm.h"
#include "store/run_store.h"

namespace cutegen {

enum class Execution { kInProcess, kDealt, kSlurm };
// How the run's tasks were run; `gpus` gets the latest `--gpus` of a dealt run.
Execution recorded_execution(const RunStore& run, std::string* gpus = nullptr);

// Deals every unfinished task over `gpus` ("all" or "0,2"), then writes the summary and prints
// the table; the exit code is the run's.
void drive_dealt(Context& ctx, RunStore& run, const std::string& gpus);
// Submits every task that is neither finished nor queued or running in an earlier submission.
void submit_slurm(Context& ctx, RunStore& run, const SlurmOptions& opt);

}  // namespace cutegen
