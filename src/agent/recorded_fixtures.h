// For the agent's tests: inputs recorded from the real thing rather than written by hand.
//   tests/fixtures/specs/<task>.json  the bridge's spec of each task in tasks/ (scripts/record-fixtures;
//                                     ctest's agent.RecordedSpecsMatchTheBridge keeps them current)
//   tests/fixtures/answers/*.json     evaluator answers (`cutegen eval --json`), sources in its README
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "sys/fs.h"
#include "task/task_spec.h"
#include "cutegen_paths.h"

namespace cutegen {

inline const std::string kRecordedSpecs = std::string(CUTEGEN_SOURCE_DIR) + "/tests/fixtures/specs";
inline const std::string kRecordedAnswers = std::string(CUTEGEN_SOURCE_DIR) + "/tests/fixtures/answers";

// The recorded spec of tasks/<task>.py, its path made absolute (the fixture's is relative to it).
inline Result<TaskSpec> recorded_spec(const std::string& task) {
  std::string file = kRecordedSpecs + "/" + task + ".json";
  auto spec = parse_task_spec(CUTEGEN_TRY(read_file(file)));
  if (!spec) return error(file + ": " + spec.message());
  spec->path = std::filesystem::weakly_canonical(std::filesystem::path(kRecordedSpecs) / spec->path).string();
  return spec;
}

// The stems of tasks/*.py, sorted.
inline std::vector<std::string> task_names() {
  std::vector<std::string> out;
  for (auto& e : std::filesystem::directory_iterator(std::string(CUTEGEN_SOURCE_DIR) + "/tasks"))
    if (e.path().extension() == ".py") out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace cutegen
