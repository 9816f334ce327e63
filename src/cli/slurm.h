// A run's tasks as a Slurm job array (sbatch; no scheduler of our own). Each submission writes
// <run>/slurm/submit-<n>.sh, whose element i runs `cutegen work RUN --submission n` on share i
// of the tasks, each task into its own shard (store/run_view.h). The run's own run.db records
// each submission (event "slurm_submit": job id and shares); status asks squeue (and sacct where
// accounting is on) about the run's elements by job name.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "store/run_store.h"

namespace cutegen {

struct SlurmOptions {
  std::string partition, time;  // empty: the cluster's defaults
  int gpus_per_job = 1;         // 0: ask for none (a scripted evaluator)
  int tasks_per_job = 1;        // tasks in one array element's share
};

struct Submission {
  int number = 0;
  std::string job_id;
  std::vector<std::vector<std::string>> shares;  // element index -> its task names
};

// The job name every element of the run's arrays carries.
std::string slurm_job_name(const std::string& run_id);

// Writes the array's script and submits it with sbatch; records nothing (the caller does).
Result<Submission> submit_array(const std::string& run_dir, const std::string& run_id,
                                const std::vector<std::string>& tasks, const SlurmOptions& opt,
                                const std::vector<std::string>& flags, int number);

Status record_submission(RunStore& run, const Submission& s, const SlurmOptions& opt);
// Every submission of the run in order, and the options of the latest.
Result<std::vector<Submission>> submissions(const RunStore& run);
Result<SlurmOptions> recorded_slurm_options(const RunStore& run);

// What Slurm says of each element it still knows ("12_3" -> "RUNNING", "PENDING", "CANCELLED", ...).
Result<std::map<std::string, std::string>> element_states(const std::string& run_id);
// PENDING, RUNNING and the like: the element may still write its shards.
bool slurm_state_live(const std::string& state);

}  // namespace cutegen
