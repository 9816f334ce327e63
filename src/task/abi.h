// The C ABI a candidate kernel implements for a task:
//   extern "C" void cutegen_forward(<inputs>, <parameters and buffers>, <outputs>, cudaStream_t stream);
// tensors by pointer (const except outputs), scalars by value. The harness force-includes the
// header, so a definition with a different signature does not compile.
#pragma once

#include <string>
#include <vector>

#include "task/task_spec.h"

namespace cutegen {

struct AbiParam {
  std::string c_name;  // a C identifier, unique in the list: "linear_weight"
  std::string c_decl;  // "const float* linear_weight", "double scale"
  const TaskArg* arg;  // what it carries (points into the TaskSpec)
};

// Turns a spec name into a C identifier: non-identifier characters become '_', a leading digit
// gets '_' in front, C/C++ keywords and the ABI's own names ("stream") get '_' behind.
std::string c_identifier(const std::string& name);

// cutegen_forward's parameters in ABI order, without the trailing stream; names are deduplicated.
std::vector<AbiParam> abi_params(const TaskSpec& spec);

// The whole header: guards, includes, the init args in a comment, the annotated declaration.
std::string abi_header(const TaskSpec& spec);

}  // namespace cutegen
