// A run read as one, whether one process wrote it or its tasks ran in shards. A run dealt over
// GPUs or a Slurm job array keeps its own run.db (the run, its task list, the dealing events,
// written by the one process that owns the run) and one shard per task started, shards/<task>/run.db,
// written by the one process running that task: SQLite keeps one writer per file, also on a
// network filesystem. A task's shard, when it has one, is the truth about it.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "store/run_store.h"

namespace cutegen {

// The folder of `task`'s shard in the run folder `run_dir`.
std::string shard_dir(const std::string& run_dir, const std::string& task);

class RunView {
 public:
  // Opens the run and every shard that exists, all read-only (no locks: a run may be going).
  static Result<RunView> open(const std::string& run_dir);

  const RunStore& run() const { return run_; }
  Result<RunMeta> meta() const { return run_.meta(); }
  // The run's tasks in order, each as its shard records it when it has one.
  Result<std::vector<TaskRow>> tasks() const;
  Result<std::vector<StepRecord>> steps(const std::string& task) const;
  // The store holding `task`'s steps: its shard, else the run's own.
  const RunStore& store_for(const std::string& task) const;
  bool sharded(const std::string& task) const { return shards_.count(task) > 0; }

 private:
  explicit RunView(RunStore run) : run_(std::move(run)) {}
  RunStore run_;
  std::map<std::string, RunStore> shards_;
};

}  // namespace cutegen
