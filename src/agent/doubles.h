// Scripted stand-ins behind the agent's interfaces, for tests and CPU-only demos, selected by
// config (agent.evaluator = scripted:FILE, agent.profiler = scripted). The script is JSON:
//   {"eager_ms": 1.0, "floor_ms": 0.25, "bound": "memory", "delay_ms": 0,
//    "eager_rel_err": 3e-4, "accuracy_limit": 3e-3, "tf32_rel_err": 2.8e-4,  (optional: the precision facts)
//    "rules": [{"match": "TEXT", "verdict": "wrong", "summary": "...", "report": "...",
//               "speedup": 1.3, "roofline_fraction": 0.4, "fingerprint": "f1"}, ...]}
// A source gets the first rule whose `match` occurs in it, so the verdict depends on the source
// only (never on call order) and a resumed run sees what an uninterrupted one saw.
// A rule {"match": ..., "answer": "FILE"} answers with a recorded `cutegen eval --json` document
// instead (verdict, summary, report, speedup, roofline fraction), and a top-level
// "baseline": "FILE" takes eager_ms, floor_ms and bound from one; FILE is relative to base_dir
// (the script's folder when loaded from a file).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>

#include "agent/interfaces.h"

namespace cutegen {

class ScriptedEvaluator : public KernelEvaluator {
 public:
  static Result<std::unique_ptr<ScriptedEvaluator>> load(const std::string& path);
  explicit ScriptedEvaluator(nlohmann::json script, std::string base_dir = ".")
      : script_(std::move(script)), base_dir_(std::move(base_dir)) {}
  Result<Baseline> baseline(const TaskSpec& task) override;
  Result<KernelEval> evaluate(const TaskSpec& task, const std::string& source, const std::string& name) override;
  void prebuild(const TaskSpec&, std::vector<std::string> sources) override { prebuilt.push_back(std::move(sources)); }
  int calls() const { return calls_; }
  std::vector<std::vector<std::string>> prebuilt;  // each prebuild() call's sources, in order

 private:
  Result<nlohmann::json> recorded(const std::string& file) const;
  nlohmann::json script_;
  std::string base_dir_;
  int calls_ = 0;
};

// What the agent sees of a recorded `cutegen eval --json` answer (as to_kernel_eval makes of the
// EvalResult it was written from); the fingerprint is left to the caller. An unknown verdict is an error.
Result<KernelEval> kernel_eval_from_answer(const nlohmann::json& answer);

// Profiles as a deterministic text naming the source's hash: memory-bound at 71% of peak.
class ScriptedProfiler : public KernelProfiler {
 public:
  Result<ProfileSummary> profile(const TaskSpec& task, const std::string& source) override;
  int calls = 0;
};

// A structure fingerprint from the source text: tile shapes (Shape<...>/Int<N>), copy and MMA
// atoms (SM80_/SM90_/UniversalCopy names) and the number of kernels.
std::string structure_fingerprint(const std::string& source, int kernel_count);

}  // namespace cutegen
