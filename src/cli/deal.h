// Dealing a run's tasks over GPUs: each GPU runs one child `cutegen` at a time, on one task, into
// that task's shard of the run folder (store/run_view.h), so each SQLite file has one writer and
// each GPU one evaluation at a time. Compiles share the machine's pool (build/compile_slots.h);
// profiling keeps its per-GPU ncu lock. A task's child resumes its shard when it has one, so a
// run killed at any point (its children die with it) deals again to the same end state.
#pragma once

#include <string>
#include <vector>

#include "cli/context.h"
#include "store/run_store.h"

namespace cutegen {

// The GPUs named by `--gpus`: "all" (CUDA_VISIBLE_DEVICES when set, as inside a Slurm job, else
// what nvidia-smi lists) or a list "0,2". With no GPU and a scripted evaluator, one slot of no GPU.
Result<std::vector<std::string>> parse_gpus(const Context& ctx, const std::string& spec);

// The global flags every child gets: --config, the run's recorded config, then this command's --set.
std::vector<std::string> child_flags(const Context& ctx, const std::string& recorded_config);

struct DealResult {
  int exit_code = 0;  // 0 every task done with a kernel, 1 some without, else the first child's error
  std::string error;  // that child's last words, when it failed
};

// Runs `todo` (rows of the run in `run_dir`) over `gpus`, printing i/N, each GPU's task and an ETA.
DealResult deal_tasks(const std::string& run_dir, const std::vector<TaskRow>& todo,
                      const std::vector<std::string>& gpus, const std::vector<std::string>& flags);

}  // namespace cutegen
