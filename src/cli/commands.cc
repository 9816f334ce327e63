#include "cli/commands.h"

namespace cutegen {

const std::vector<CommandDef>& commands() {
  static const std::vector<CommandDef> table = {
      {"build", "compile a CUDA/CuTe source to a shared library (cached)", define_build},
      {"doctor", "check this machine's toolchain, GPU, profiler and Python", define_doctor},
      {"config", "print every config key with its value and where it came from", define_config},
  };
  return table;
}

}  // namespace cutegen
