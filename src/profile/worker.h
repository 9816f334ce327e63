// The command the runtime profile runs under ncu: the evaluator's worker in profile mode, which
// does its warm-up launches and then exactly one candidate forward inside the NVTX range
// "cutegen_profile". Same program, environment and isolation rules as an evaluation.
#pragma once

#include <string>

#include "eval/worker.h"
#include "profile/ncu_runner.h"

namespace cutegen {

// `python -m cutegen_bridge eval --mode profile --task T --lib L --spec S --out O`.
WorkerCommand profile_worker_command(const WorkerOptions& opt, const std::string& task, const std::string& library,
                                     const std::string& spec, const std::string& out);

}  // namespace cutegen
