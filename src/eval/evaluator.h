// The hardened evaluator: build with the task's ABI force-included, gate statically, then run
// the candidate beside the reference in a separate worker process and judge the numbers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "build/builder.h"
#include "core/outcomes.h"
#include "eval/batch_accounting.h"
#include "eval/roofline.h"
#include "eval/static_gate.h"
#include "eval/stats.h"
#include "eval/verdict.h"
#include "eval/worker.h"
#include "task/task_spec.h"

namespace cutegen {

struct EvalOptions {
  Tolerance tolerance;
  int trials = 5;
  int timed_runs = 100;
  int warmup_runs = 10;
  long seed = 0;
  bool require_cute = true;
  bool compare_compile = false;
  bool time = true;  // false: correctness only
  WorkerOptions worker;
  std::string work_dir;  // where specs and worker answers are written
  std::string ceilings_dir;
};

struct TrialResult {
  long seed = 0;
  bool pass = false;
  std::vector<std::string> failures;  // one line per failed output or mutated input
};

struct Timing {
  Summary candidate, eager;
  std::optional<Summary> compiled;
  Interval speedup;  // eager / candidate
  std::optional<Interval> speedup_vs_compile;
  double event_overhead_ms = 0;
  BatchAccounting accounting;  // the candidate's reported call times against the judge's clock
  int input_sets = 0;
};

struct EvalResult {
  Verdict verdict = Verdict::kSetupError;
  std::string summary;  // one line
  BuildResult build;
  CuteUsage cute;
  std::vector<GateFinding> gate;
  std::vector<TrialResult> trials;
  std::optional<Timing> timing;
  std::optional<Roofline> roofline;
  double roofline_fraction = 0;
  std::string isolation;
  double eval_seconds = 0;  // worker wall time, compile excluded
  // The timing-accounting finding of a first run, where a second run with fresh inputs was judged
  // in its place (Evaluator::evaluate); "" when one run was judged.
  std::string refused_first;
  nlohmann::json worker_doc;
};

// The task before any kernel exists: eager's time (timed like a candidate) and the roofline floor.
struct EagerBaseline {
  Summary eager;
  std::optional<Roofline> roofline;  // absent when the GPU's ceilings could not be measured
  double eager_rel_err = 0;          // eager's worst relative error against float64; 0: unknown
  double tf32_rel_err = 0;           // the same with the inputs and conv/linear weights rounded to tf32; 0: unknown
};

// Where Evaluator::baseline leaves the judge's answer for a spec, under EvalOptions::work_dir.
std::string baseline_answer_path(const std::string& work_dir, const TaskSpec& spec);
// Eager's error against float64 as a baseline answer states it; 0 when it does not.
double eager_rel_err_of(const nlohmann::json& baseline_doc);
// The error TF32 operands cause (bridge/cutegen_bridge/precision.py) as a baseline answer states it; 0 when it does
// not.
double tf32_rel_err_of(const nlohmann::json& baseline_doc);

class Evaluator {
 public:
  Evaluator(const Builder& builder, Target target, EvalOptions options);
  // Errors are setup problems only (e.g. cannot write the work dir); verdicts are results.
  Result<EvalResult> evaluate(const TaskSpec& spec, const std::string& source, const std::string& display_name) const;
  // Compiles candidates into the build cache, in parallel (results dropped: each candidate's
  // evaluate() reports its own build, then from the cache).
  void prebuild(const TaskSpec& spec, const std::vector<std::string>& sources) const;
  // Times eager alone in the worker (no candidate); errors are setup problems or a worker failure.
  Result<EagerBaseline> baseline(const TaskSpec& spec) const;
  // The GPU's ceilings, measured once and cached per device name.
  Result<Ceilings> ceilings(const std::string& device) const;
  const EvalOptions& options() const { return opt_; }

 private:
  BuildRequest build_request(const TaskSpec& spec, const std::string& source, const std::string& name) const;
  // The judge's one-pass check of timed calls (bridge/cutegen_bridge/fast_compare.cu), built and
  // cached like a candidate; "" when it cannot be built here.
  std::string compare_library() const;
  // The spec as the worker reads it, in the work dir, named by its hash.
  Result<std::string> write_spec(const TaskSpec& spec) const;
  // One worker run of the built candidate from `seed`, judged into r (its verdict and summary set).
  Status judge_run(const TaskSpec& spec, const std::string& spec_path, const BuildResult& build, long seed,
                   EvalResult& r) const;
  TrialResult judge_call(const nlohmann::json& call) const;
  void judge_trials(const nlohmann::json& doc, EvalResult& r) const;
  void judge_timing(const TaskSpec& spec, const nlohmann::json& doc, EvalResult& r) const;
  const Builder& builder_;
  Target target_;
  EvalOptions opt_;
};

// The dtype whose math rate bounds the task: the lowest-precision floating dtype among its tensors.
std::string math_dtype(const TaskSpec& spec);

}  // namespace cutegen
