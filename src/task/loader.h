// Describes a task file by running the Python bridge (`python -m cutegen_bridge spec`) in a
// child process; no task code ever runs inside cutegen itself.
#pragma once

#include <chrono>
#include <string>

#include "core/result.h"
#include "task/task_spec.h"

namespace cutegen {

// The folder holding the cutegen_bridge package: the installed one, else the checkout's
// (sys/layout.h); "" when neither has it.
std::string bridge_dir();

// Runs `python -m cutegen_bridge spec --task ... --seed ...` with PYTHONPATH=<bridge_dir()>.
// On failure the error is the bridge's one-line message, then its condensed Python detail
// (so only the first line is guaranteed; import errors add the traceback's last frames).
// cache_dir non-empty: the answer is kept there and reused while the task file, the seed, the
// Python executable and the bridge's sources are unchanged (config task.spec_cache).
Result<TaskSpec> load_task_spec(const std::string& task_path, const std::string& python, int64_t seed,
                                std::chrono::seconds timeout, const std::string& cache_dir = "");

}  // namespace cutegen
