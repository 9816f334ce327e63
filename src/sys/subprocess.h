// Runs a child process in its own process group, with captured output, optional stdin,
// a controlled environment and a wall-clock timeout that kills the whole group.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace cutegen {

struct ProcessSpec {
  std::vector<std::string> argv;
  std::string cwd;                                        // empty: inherit
  std::optional<std::map<std::string, std::string>> env;  // nullopt: inherit everything
  std::string stdin_data;
  std::chrono::milliseconds timeout{0};  // 0: none
  size_t max_output_bytes = 64 << 20;    // per stream; beyond this the tail is dropped
  // The child gets SIGKILL when the thread that started it dies (Linux PR_SET_PDEATHSIG): a
  // parent killed outright takes its workers with it, though they run in groups of their own.
  bool die_with_parent = false;
  // Added to the child's niceness: background work (compiles) yields the CPU to timing-sensitive
  // work (the judge's clock) running beside it.
  int nice = 0;
};

struct ProcessResult {
  int exit_code = -1;  // valid when !signaled
  int signal = 0;      // the signal that ended the child, if any
  bool timed_out = false;
  std::string out;
  std::string err;
  double wall_seconds = 0;

  bool success() const { return !timed_out && signal == 0 && exit_code == 0; }
  // "exit 3", "signal 11 (Segmentation fault)", "timed out after 5.0 s".
  std::string describe() const;
};

// Fails only when the process cannot be started (missing executable, fork failure).
Result<ProcessResult> run_process(const ProcessSpec& spec);

// Searches PATH (or takes `name` as is when it has a slash); empty when not found.
std::string find_executable(const std::string& name);

// The current environment restricted to `keep` (exact names) plus `extra`.
std::map<std::string, std::string> allowlisted_environment(const std::vector<std::string>& keep,
                                                           const std::map<std::string, std::string>& extra = {});

}  // namespace cutegen
