// TaskSpec: what a task computes, as the bridge's `spec` command describes it (no data, only
// names, dtypes, shapes and strides). The JSON schema is a contract with the evaluator.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "task/dtype.h"

namespace cutegen {

enum class ArgKind { kTensor, kScalar, kParameter, kBuffer, kOutput };
const char* to_string(ArgKind k);  // "tensor", "scalar", "parameter", "buffer", "output"

// One forward input, parameter, buffer or output.
struct TaskArg {
  std::string name;  // as the spec names it: "x", "linear.weight", "out0"
  ArgKind kind = ArgKind::kTensor;
  DType dtype = DType::kFloat32;  // tensors only
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // in elements
  std::string ctype;             // scalars only: "int64_t", "double" or "bool"
  std::string value;             // scalars only: the value as JSON text ("3.5", "true")
  bool fixed = false;            // scalars only: get_inputs() gives this value under every seed tried

  bool is_tensor() const { return kind != ArgKind::kScalar; }
  int64_t numel() const;
  int64_t bytes() const;  // numel * element size; 0 for scalars
};

// A Python number of the model: a constructor argument by parameter name ("multiplier") or a
// scalar attribute of its module tree ("leaky_relu.negative_slope").
struct TaskConstant {
  std::string name;
  std::string source;  // "init" or "attribute"
  std::string ctype;   // "int64_t", "double" or "bool"
  std::string value;   // JSON text ("2.0", "4096", "true"), or "inf", "-inf", "nan"
};

struct TaskSpec {
  std::string name;  // the file's stem: "relu"
  std::string path;  // absolute path of the task file
  int64_t seed = 0;
  std::vector<std::string> init_args;   // repr() of each get_init_inputs() value
  std::vector<TaskArg> inputs;          // forward's arguments, in order
  std::vector<TaskArg> params;          // parameters and buffers, in state_dict order
  std::vector<TaskArg> outputs;         // "out", or "out0", "out1", ...
  std::vector<TaskConstant> constants;  // the model's Python numbers (optional in the schema)
  std::vector<std::string> ops;         // aten ops forward dispatched, in order
  int64_t flops = 0;
  int64_t min_bytes = 0;  // every input, parameter and output byte once
  std::string traced_on;  // "meta" or "cpu" (optional in the schema)
  std::string json;       // the document as parsed
};

// "[4096, 65536]"; "[]" for a 0-dim tensor.
std::string dims_text(const std::vector<int64_t>& dims);

// Parses the bridge's JSON; errors name the field ("inputs[1].shape: ...").
Result<TaskSpec> parse_task_spec(const std::string& json_text);

}  // namespace cutegen
