#include "profile/worker.h"

#include "core/strings.h"
#include "sys/subprocess.h"

namespace cutegen {

WorkerCommand profile_worker_command(const WorkerArgs& a) {
  WorkerCommand w;
  w.argv = {a.python.empty() ? "python3" : a.python, "-m", "cutegen_bridge", "eval", "--mode", "profile",
            "--task", a.task, "--lib", a.library, "--spec", a.spec, "--out", a.out};
  w.env["PYTHONPATH"] = a.bridge_dir;
  return w;
}

Status profile_worker_available(const WorkerArgs& a) {
  std::string python = find_executable(a.python.empty() ? "python3" : a.python);
  if (python.empty()) return error("no python interpreter '" + (a.python.empty() ? "python3" : a.python) + "'");
  ProcessSpec spec{.argv = {python, "-m", "cutegen_bridge", "eval", "--help"},
                   .env = allowlisted_environment({"PATH", "HOME", "LD_LIBRARY_PATH"}, {{"PYTHONPATH", a.bridge_dir}}),
                   .timeout = std::chrono::seconds(60)};
  auto r = run_process(spec);
  if (!r) return error(r.message());
  if (!r->success())
    return error("the evaluator worker (python3 -m cutegen_bridge eval) is not available yet: " +
                 truncate_middle(trim(r->err), 200));
  return Ok{};
}

}  // namespace cutegen
