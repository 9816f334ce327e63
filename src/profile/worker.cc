#include "profile/worker.h"

namespace cutegen {

WorkerCommand profile_worker_command(const WorkerOptions& opt, const std::string& task, const std::string& library,
                                     const std::string& spec, const std::string& out) {
  return {worker_command(opt, {"--mode", "profile", "--task", task, "--lib", library, "--spec", spec}, out),
          worker_environment(opt)};
}

}  // namespace cutegen
