#include "expert/graph.h"

#include <nlohmann/json.hpp>
#include <set>

#include "core/strings.h"

namespace cutegen {
namespace {

using nlohmann::json;

GraphArg parse_json_arg(const json& j) {
  if (j.is_array()) {
    GraphArg a{.kind = GraphArg::kList};
    for (auto& item : j)
      a.items.push_back(parse_json_arg(item));
    return a;
  }
  if (j.is_string()) return parse_graph_arg(j.get<std::string>());
  return GraphArg{.kind = GraphArg::kOther, .name = j.dump()};
}

GraphValue parse_value(const json& j) {
  GraphValue v;
  if (!j.is_object()) return v;
  auto dtype = parse_dtype(j.value("dtype", ""));
  if (!dtype.ok()) return v;
  v.dtype = *dtype;
  v.shape = j.value("shape", std::vector<int64_t>{});
  v.strides = j.value("strides", std::vector<int64_t>{});
  v.offset = j.value("offset", int64_t{0});
  v.known = v.shape.size() == v.strides.size();
  return v;
}

// Ops that take only a tensor; a spec without a graph can still be read for these.
const std::set<std::string>& argument_free_ops() {
  static const std::set<std::string> ops = {
      "aten.relu.default",      "aten.sigmoid.default",   "aten.tanh.default",        "aten.silu.default",
      "aten.mish.default",      "aten.hardswish.default", "aten.hardsigmoid.default", "aten.abs.default",
      "aten.neg.default",       "aten.exp.default",       "aten.log.default",         "aten.sqrt.default",
      "aten.rsqrt.default",     "aten.erf.default",       "aten.sin.default",         "aten.cos.default",
      "aten.reciprocal.default"};
  return ops;
}

}  // namespace

const GraphArg* GraphNode::arg(size_t i, const std::string& name) const {
  if (i < args.size()) return &args[i];
  auto it = name.empty() ? kwargs.end() : kwargs.find(name);
  return it == kwargs.end() ? nullptr : &it->second;
}

const GraphValue* OpGraph::value(const GraphArg& ref) const {
  if (ref.kind != GraphArg::kOp || ref.op < 0 || ref.op >= static_cast<int>(nodes.size())) return nullptr;
  auto& results = nodes[ref.op].results;
  size_t i = ref.out < 0 ? 0 : static_cast<size_t>(ref.out);
  return i < results.size() && results[i].known ? &results[i] : nullptr;
}

GraphArg parse_graph_arg(const std::string& text) {
  auto colon = text.find(':');
  std::string head = text.substr(0, colon), rest = colon == std::string::npos ? "" : text.substr(colon + 1);
  if (head == "in") return GraphArg{.kind = GraphArg::kInput, .name = rest};
  if (head == "param") return GraphArg{.kind = GraphArg::kParam, .name = rest};
  if (head == "str") return GraphArg{.kind = GraphArg::kString, .name = rest};
  if (head == "none") return GraphArg{.kind = GraphArg::kNone};
  if (head == "op") {
    auto dot = rest.find('.');
    GraphArg a{.kind = GraphArg::kOp};
    a.op = std::atoi(rest.substr(0, dot).c_str());
    if (dot != std::string::npos) a.out = std::atoi(rest.substr(dot + 1).c_str());
    return a;
  }
  if (head == "const") {
    if (rest == "true" || rest == "false")
      return GraphArg{.kind = GraphArg::kConst, .number = rest == "true" ? 1.0 : 0.0};
    char* end = nullptr;
    double v = std::strtod(rest.c_str(), &end);
    if (end && *end == '\0' && !rest.empty()) return GraphArg{.kind = GraphArg::kConst, .number = v};
  }
  return GraphArg{.kind = GraphArg::kOther, .name = text};
}

Result<OpGraph> import_graph(const TaskSpec& spec) {
  json doc = json::parse(spec.json, nullptr, false);
  OpGraph g;
  if (!doc.is_discarded() && doc.contains("graph") && doc["graph"].is_array()) {
    for (auto& entry : doc["graph"]) {
      if (!entry.is_object() || !entry.contains("op") || !entry["op"].is_string())
        return error("graph: an entry has no \"op\"");
      // Bound to locals: iterating a temporary's items() would dangle.
      const json raw_args = entry.value("args", json::array()), raw_kwargs = entry.value("kwargs", json::object());
      std::vector<GraphArg> args;
      for (auto& a : raw_args)
        args.push_back(parse_json_arg(a));
      if (entry["op"] == "output") {
        g.outputs = std::move(args);
        continue;
      }
      GraphNode node{.op = entry["op"].get<std::string>(), .args = std::move(args)};
      for (auto& [k, v] : raw_kwargs.items())
        node.kwargs[k] = parse_json_arg(v);
      if (auto it = entry.find("results"); it != entry.end() && it->is_array())
        for (auto& r : *it)
          node.results.push_back(parse_value(r));
      g.nodes.push_back(std::move(node));
    }
    if (g.outputs.empty()) return error("graph: no \"output\" entry");
    return g;
  }
  // No graph: only a chain of argument-free ops over the first input can be read unambiguously.
  if (spec.inputs.empty() || spec.ops.empty()) return error("the spec has no op graph and no ops");
  for (size_t i = 0; i < spec.ops.size(); ++i) {
    if (!argument_free_ops().count(spec.ops[i]))
      return error("the spec has no \"graph\" field and " + spec.ops[i] +
                   " takes arguments; re-describe the task with the current bridge");
    GraphArg prev = i == 0 ? GraphArg{.kind = GraphArg::kInput, .name = spec.inputs[0].name}
                           : GraphArg{.kind = GraphArg::kOp, .op = static_cast<int>(i) - 1};
    g.nodes.push_back(GraphNode{.op = spec.ops[i], .args = {prev}});
  }
  g.outputs = {GraphArg{.kind = GraphArg::kOp, .op = static_cast<int>(spec.ops.size()) - 1}};
  return g;
}

}  // namespace cutegen
