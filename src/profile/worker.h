// The command the runtime profile runs under ncu: the evaluator worker in profile mode, which
// does its warm-up launches and then exactly one candidate forward inside the NVTX range
// "cutegen_profile". The evaluator owns that program; this is the one place that names it.
#pragma once

#include <string>

#include "core/result.h"
#include "profile/ncu_runner.h"

namespace cutegen {

struct WorkerArgs {
  std::string python;     // interpreter with torch (eval.python), "" for python3
  std::string bridge_dir;  // <repo>/bridge, put on PYTHONPATH
  std::string task;       // TASK.py
  std::string library;    // the candidate's kernel.so
  std::string spec;       // SPEC.json: the task's spec as written by `cutegen_bridge spec`
  std::string out;        // where the worker writes its JSON answer
};

// `python3 -m cutegen_bridge eval --mode profile --task T --lib L --spec S --out O`, with
// PYTHONPATH=<bridge_dir>. The evaluator engineer keeps this in step with the worker.
WorkerCommand profile_worker_command(const WorkerArgs& args);

// Ok when the bridge answers `eval --help`; otherwise why the runtime profile cannot run.
Status profile_worker_available(const WorkerArgs& args);

}  // namespace cutegen
