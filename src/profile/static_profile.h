// Structural facts about a built kernel, no GPU needed: ptxas resources from the build, and
// the instruction mix that matters from the machine code (cuobjdump -sass), where it exists.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "build/builder.h"
#include "core/result.h"

namespace cutegen {

// Counts per instruction class, by label: "HGMMA", "HMMA", "LDGSTS", "UTMALDG", "LDG.128",
// "STG.128", "LDL", "STL"; `total` counts every instruction.
struct SassMix {
  std::map<std::string, int> counts;
  int total = 0;
  int count(const std::string& label) const;
};

struct InstructionClass {
  const char* label;
  const char* opcode;    // the opcode's first dotted part, e.g. "LDG" of "LDG.E.128.CONSTANT"
  const char* modifier;  // a required ".128"-style modifier, or ""
  const char* meaning;   // one line for the summary
};
const std::vector<InstructionClass>& instruction_classes();

// Parses `cuobjdump -sass` output: one mix per "Function : <mangled>" section.
std::map<std::string, SassMix> parse_sass(const std::string& dump);

struct StaticKernel {
  KernelResources resources;   // ptxas: registers, shared memory, spills, stack
  std::optional<SassMix> mix;  // absent when no disassembler was found or it failed
};

struct StaticProfile {
  std::vector<StaticKernel> kernels;
  std::string sass_note;  // why there is no instruction mix, or ""
};

// cuobjdump on PATH, beside nvcc, in /usr/local/cuda/bin, or bundled with Triton in the
// bootstrap's .deps/venv; "" when none.
std::string find_cuobjdump(const std::string& nvcc);

// `cuobjdump` may be "" (then only the ptxas facts are reported, and sass_note says why).
StaticProfile static_profile(const BuildResult& build, const std::string& cuobjdump);

}  // namespace cutegen
