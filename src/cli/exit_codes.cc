#include "cli/exit_codes.h"

#include "core/strings.h"

namespace cutegen {

const std::vector<ExitCodeRow>& exit_code_table() {
  static const std::vector<ExitCodeRow> table = {
      {kExitOk, "success"},
      {kExitNegative,
       "ran, and the answer is no: a wrong kernel or compile error, a task without a verified kernel, "
       "a re-measurement that did not pass, a task the expert declines"},
      {kExitInput,
       "usage or input error: unknown command or flag, missing or broken file, bad config value, run in "
       "use; eval's setup error"},
      {kExitRejected,
       "the evaluator rejected the kernel (static gate, input mutation, hidden work, faster than physics)"},
      {kExitTimeout, "timeout"},
      {kExitEnvironment, "this machine lacks what the command needs: a GPU, nvcc, CUTLASS, Python with torch"},
      {kExitWaiting, "waiting for a model's answer file (file backend): write it, then `cutegen resume RUN`"},
  };
  return table;
}

ExitCode code_for_error(const std::string& message) {
  // Errors are plain messages; these phrases are how sys, build and task say a piece of the
  // machine is missing (they may follow a task or file name, so they are searched, not prefixed).
  static const char* environment[] = {"nvcc not found",
                                      "--version gave no version",
                                      "CUTLASS/CuTe headers not found",
                                      "holds no cute/tensor.hpp",
                                      "no Python interpreter",
                                      "cannot run Python",
                                      "cannot import torch",
                                      "the task bridge failed",
                                      "cannot find the Python bridge",
                                      "cutegen_bridge package was not found",
                                      "no NVIDIA GPU",
                                      "nvidia-smi failed"};
  for (auto* phrase : environment)
    if (contains(message, phrase)) return kExitEnvironment;
  return kExitInput;
}

ExitCode code_for_verdict(Verdict v) { return static_cast<ExitCode>(exit_code(v)); }

}  // namespace cutegen
