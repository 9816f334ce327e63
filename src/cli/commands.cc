#include "cli/commands.h"

namespace cutegen {

const std::vector<CommandDef>& commands() {
  static const std::vector<CommandDef> table = {
      {"build", "compile a CUDA/CuTe source to a shared library (cached)", define_build},
      {"doctor", "check this machine's toolchain, GPU, profiler and Python", define_doctor},
      {"task", "describe a task file: inputs, parameters, outputs, ops, FLOPs and its C ABI header", define_task},
      {"eval", "verify and time a candidate kernel against a task's reference on the GPU", define_eval},
      {"profile", "profile a candidate: static facts, and Nsight Compute counters where a GPU allows", define_profile},
      {"llm", "send a prompt (stdin or --prompt) to a model spec and print the answer and usage", define_llm},
      {"config", "print every config key with its value and where it came from", define_config},
  };
  return table;
}

}  // namespace cutegen
