// Test helpers shared by the expert's tests: task specs from the real bridge (loaded once per
// test process) and hand-written specs with an op graph.
#pragma once

#include <map>
#include <string>

#include "sys/fs.h"
#include "sys/python.h"
#include "task/loader.h"
#include "task/task_spec.h"
#include "cutegen_paths.h"

namespace cutegen::testing_support {

inline Result<TaskSpec> task_spec(const std::string& name) {
  static std::map<std::string, Result<TaskSpec>> cache;
  auto it = cache.find(name);
  if (it == cache.end()) {
    auto path = std::string(CUTEGEN_SOURCE_DIR) + "/tasks/" + name + ".py";
    it = cache.emplace(name, load_task_spec(path, python_executable(""), 0, std::chrono::seconds(300))).first;
  }
  return it->second;
}

// A spec the real bridge recorded under tests/fixtures/ ("kernelbench/level2/1_Conv2D_ReLU_BiasAdd").
inline TaskSpec recorded_spec(const std::string& relative) {
  auto text = read_file(std::string(CUTEGEN_SOURCE_DIR) + "/tests/fixtures/" + relative + ".json");
  if (!text.ok()) throw std::runtime_error(text.message() + " (run scripts/record-fixtures)");
  auto spec = parse_task_spec(*text);
  if (!spec.ok()) throw std::runtime_error(spec.message());
  return *spec;
}

// A spec with one fp32 input per entry of `inputs` ("x:[4,8]"), one output, and `graph` as JSON.
inline TaskSpec hand_spec(const std::string& inputs_json, const std::string& output_json, const std::string& ops_json,
                          const std::string& graph_json, const std::string& params_json = "[]") {
  std::string doc = R"({"name": "hand", "path": "/hand.py", "seed": 0, "init_args": [], "inputs": )" + inputs_json +
                    R"(, "params": )" + params_json + R"(, "outputs": [)" + output_json + R"(], "ops": )" + ops_json +
                    R"(, "flops": 0, "min_bytes": 0, "graph": )" + graph_json + "}";
  auto s = parse_task_spec(doc);
  if (!s.ok()) throw std::runtime_error(s.message() + "\n" + doc);
  return *s;
}

inline std::string tensor_json(const std::string& name, const std::string& shape, const std::string& strides,
                               const std::string& dtype = "float32", const std::string& kind = "tensor") {
  return R"({"name": ")" + name + R"(", "kind": ")" + kind + R"(", "dtype": ")" + dtype + R"(", "shape": )" + shape +
         R"(, "strides": )" + strides + "}";
}

}  // namespace cutegen::testing_support
