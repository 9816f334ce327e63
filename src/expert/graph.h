// The traced op graph of a task: the bridge's optional "graph" field (each aten op with its
// arguments as references or constants), read into plain data the recognizer can walk.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "task/dtype.h"
#include "task/task_spec.h"

namespace cutegen {

struct GraphArg {
  enum Kind { kInput, kParam, kOp, kConst, kString, kNone, kList, kOther };
  Kind kind = kNone;
  std::string name;             // input or parameter name; string value; other text
  int op = -1;                  // kOp: the producing node
  int out = -1;                 // kOp: which result of a tuple-returning op, -1 for a single tensor
  double number = 0;            // kConst (bools are 0/1)
  std::vector<GraphArg> items;  // kList

  bool is_tensor() const { return kind == kInput || kind == kParam || kind == kOp; }
};

// What an op made, as the bridge saw it ("results"): a view's strides and offset address its
// base's storage, a fresh tensor's its own.
struct GraphValue {
  bool known = false;  // false for non-tensor results and for graphs recorded without results
  DType dtype = DType::kFloat32;
  std::vector<int64_t> shape, strides;
  int64_t offset = 0;
};

struct GraphNode {
  std::string op;  // "aten.mul.Tensor"
  std::vector<GraphArg> args;
  std::map<std::string, GraphArg> kwargs;
  std::vector<GraphValue> results;  // one per result, a tuple's in order
  // Positional argument i, else keyword `name`, else nullptr.
  const GraphArg* arg(size_t i, const std::string& name = "") const;
};

struct OpGraph {
  std::vector<GraphNode> nodes;
  std::vector<GraphArg> outputs;  // what forward returned

  // The value an op reference names ("op:3", "op:3.1"); nullptr when unknown or not an op.
  const GraphValue* value(const GraphArg& ref) const;
};

// Reads spec.json's "graph". A spec without one (older fixtures) becomes a chain over the first
// input when every op is argument-free (relu, sigmoid, ...), and an error otherwise.
Result<OpGraph> import_graph(const TaskSpec& spec);

// Parses one encoded argument: "in:x", "param:w", "op:3", "op:3.1", "const:0.5", "str:tanh", "none".
GraphArg parse_graph_arg(const std::string& text);

}  // namespace cutegen
