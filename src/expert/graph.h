// The traced op graph of a task: the bridge's optional "graph" field (each aten op with its
// arguments as references or constants), read into plain data the recognizer can walk.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/result.h"
#include "task/task_spec.h"

namespace cutegen {

struct GraphArg {
  enum Kind { kInput, kParam, kOp, kConst, kString, kNone, kList, kOther };
  Kind kind = kNone;
  std::string name;   // input or parameter name; string value; other text
  int op = -1;        // kOp: the producing node
  int out = -1;       // kOp: which result of a tuple-returning op, -1 for a single tensor
  double number = 0;  // kConst (bools are 0/1)
  std::vector<GraphArg> items;  // kList

  bool is_tensor() const { return kind == kInput || kind == kParam || kind == kOp; }
};

struct GraphNode {
  std::string op;  // "aten.mul.Tensor"
  std::vector<GraphArg> args;
  std::map<std::string, GraphArg> kwargs;
  // Positional argument i, else keyword `name`, else nullptr.
  const GraphArg* arg(size_t i, const std::string& name = "") const;
};

struct OpGraph {
  std::vector<GraphNode> nodes;
  std::vector<GraphArg> outputs;  // what forward returned
};

// Reads spec.json's "graph". A spec without one (older fixtures) becomes a chain over the first
// input when every op is argument-free (relu, sigmoid, ...), and an error otherwise.
Result<OpGraph> import_graph(const TaskSpec& spec);

// Parses one encoded argument: "in:x", "param:w", "op:3", "op:3.1", "const:0.5", "str:tanh", "none".
GraphArg parse_graph_arg(const std::string& text);

}  // namespace cutegen
