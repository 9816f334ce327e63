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

// A compile-time constant of namespace cutegen_abi: a size, or a Python number of the model.
struct AbiConstant {
  std::string c_name;   // unique among the constants: "x_dim0", "multiplier", "leaky_relu_negative_slope"
  std::string c_type;   // "int64_t", "double", "bool"
  std::string value;    // as the spec gives it: "4096", "2.0", "true", "inf"
  std::string literal;  // as C++ spells it: "2.0", "__builtin_huge_val()"
  std::string origin;   // "size", "constructor argument multiplier", "attribute leaky_relu.negative_slope",
                        // "scalar input alpha" (get_inputs() gives it under every seed; also passed by value)
  bool is_size() const { return origin == "size"; }
};

// Turns a spec name into a C identifier: non-identifier characters become '_', a leading digit
// gets '_' in front, C/C++ keywords and the ABI's own names ("stream") get '_' behind.
std::string c_identifier(const std::string& name);

// cutegen_forward's parameters in ABI order, without the trailing stream; names are deduplicated.
std::vector<AbiParam> abi_params(const TaskSpec& spec);

// Every constant in header order: sizes (<param>_numel, <param>_dim<d>), then fixed scalar
// inputs, constructor arguments and module attributes; a name already taken gets _2, _3, ...
std::vector<AbiConstant> abi_constants(const TaskSpec& spec);

// The whole header: guards, includes, the init args in a comment, the annotated declaration.
std::string abi_header(const TaskSpec& spec);

}  // namespace cutegen
