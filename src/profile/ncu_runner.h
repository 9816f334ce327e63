// Runs one candidate forward under Nsight Compute and reads its counters back. One ncu run at
// a time per GPU (an flock in the cache folder), a wall-clock limit, and results cached by
// the binary's hash. Every way it can fail is an outcome with a one-line message, not an error.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "profile/metrics.h"

namespace cutegen {

// The program whose launches are profiled: the evaluator worker in profile mode
// (see worker.h). `env` is added to this process's environment.
struct WorkerCommand {
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;
};

struct NcuOptions {
  std::string ncu;                             // executable; "" finds one (find_ncu)
  std::string clock_control = "none";          // --clock-control: none leaves the card's clocks alone
  std::string nvtx_range = "cutegen_profile";  // "" profiles every launch (then use skip/count)
  std::string kernel_filter;                   // --kernel-name regex:<filter>, "" for all
  int launch_skip = 0;
  int launch_count = 0;          // 0: every launch that passes the filters
  bool extended_metrics = true;  // also ask for the read/write split and bank conflicts (metrics.h)
  std::chrono::seconds timeout{300};
  std::string cache_dir;  // raw tables, cached results and the per-GPU lock files
  int gpu = 0;
};

enum class NcuOutcome { kProfiled, kNoNcu, kCountersDenied, kTargetFailed, kNoKernels, kTimeout, kBadOutput };
const char* to_string(NcuOutcome o);
// Whether the failure will repeat for every later candidate on this machine.
bool is_permanent(NcuOutcome o);

struct NcuRun {
  NcuOutcome outcome = NcuOutcome::kBadOutput;
  std::string message;  // one line: what happened and, when it failed, what to do
  std::vector<KernelCounters> kernels;
  std::string raw_path;  // ncu's CSV on disk (kept for every run that produced one)
  bool cache_hit = false;
  double wall_seconds = 0;

  bool ok() const { return outcome == NcuOutcome::kProfiled; }
};

// PATH, then /usr/local/cuda/bin and the standalone install; "" when none.
std::string find_ncu();
std::vector<std::string> ncu_argv(const std::string& ncu, const NcuOptions& opt, const WorkerCommand& worker);
// Classifies ncu's output and exit (the table in the .cc); kProfiled when it carries kernels.
NcuRun interpret_ncu_output(const std::string& output, int exit_code, bool timed_out);

// `binary` is the kernel library; `salt` distinguishes inputs the binary hash cannot see
// (the task and its shapes). Errors only for setup problems (unwritable cache folder).
Result<NcuRun> run_ncu(const NcuOptions& opt, const WorkerCommand& worker, const std::string& binary,
                       const std::string& salt);

}  // namespace cutegen
