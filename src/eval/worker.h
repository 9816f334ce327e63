// Runs the bridge's `eval` worker in its own process: an allowlisted environment (no API keys),
// a fresh network namespace where the OS allows one, and a wall-clock timeout.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "sys/subprocess.h"

namespace cutegen {

struct WorkerOptions {
  std::string python;      // interpreter with torch
  std::string bridge_dir;  // folder holding the cutegen_bridge package
  std::chrono::seconds timeout{600};
  std::string isolate_network = "auto";  // auto | on | off
  std::string gpu;                       // nvidia-smi index the worker may see; "" = all
  std::string runner;                    // cutegen-runner, the candidate's own process
  bool require_sandbox = false;          // eval.sandbox = on: no candidate runs unsandboxed
};

struct WorkerRun {
  ProcessResult process;
  nlohmann::json doc;     // the worker's answer; null when it died before writing one
  std::string isolation;  // how the network was isolated, or why not
};

// The command line that runs `eval` with `args` (also what the profiler wraps).
std::vector<std::string> worker_command(const WorkerOptions& opt, const std::vector<std::string>& args,
                                        const std::string& out_path);
// The environment the worker gets: a short allowlist, PYTHONPATH set to the bridge.
std::map<std::string, std::string> worker_environment(const WorkerOptions& opt);

// Errors only when the worker cannot be started; timeouts and crashes are in the WorkerRun.
Result<WorkerRun> run_worker(const WorkerOptions& opt, const std::vector<std::string>& args,
                             const std::string& out_path);

// The argv prefix that puts a command in a new network namespace, and a note saying which was used.
struct Isolation {
  std::vector<std::string> prefix;
  std::string note;
};
Isolation network_isolation(const std::string& mode);

}  // namespace cutegen
