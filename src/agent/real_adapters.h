// The real implementations behind the agent's seams: the hardened GPU evaluator and the
// profiler (static profile always, Nsight Compute counters where the machine allows).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "agent/interfaces.h"
#include "eval/evaluator.h"
#include "profile/profiler.h"

namespace cutegen {

class RealEvaluator : public KernelEvaluator {
 public:
  // `evaluator` must outlive this adapter.
  explicit RealEvaluator(const Evaluator* evaluator) : eval_(evaluator) {}
  // Errors once, up front, when the machine has no NVIDIA GPU: every evaluation would fail alike,
  // so the run stops with that reason instead of recording a failed step per proposal.
  Result<Baseline> baseline(const TaskSpec& task) override;
  Result<KernelEval> evaluate(const TaskSpec& task, const std::string& source, const std::string& name) override;
  void prebuild(const TaskSpec& task, std::vector<std::string> sources) override;

 private:
  const Evaluator* eval_;
  double eager_ms_ = 0;                // from the last timed evaluation: the fallback when baseline timing fails
  std::optional<std::string> no_gpu_;  // checked once: why evaluation cannot run here ("" when it can)
};

// EvalResult -> KernelEval: the report is the condensed diagnostics, the gate's findings or the
// failing trials' lines; statics list each kernel's resources.
KernelEval to_kernel_eval(const EvalResult& r, const std::string& source, const std::string& name);

class RealProfiler : public KernelProfiler {
 public:
  RealProfiler(const Builder* builder, Target target, WorkerOptions worker, std::unique_ptr<Profiler> profiler,
               std::string work_dir)
      : builder_(builder),
        target_(std::move(target)),
        worker_(std::move(worker)),
        profiler_(std::move(profiler)),
        work_dir_(std::move(work_dir)) {}
  Result<ProfileSummary> profile(const TaskSpec& task, const std::string& source) override;

 private:
  const Builder* builder_;
  Target target_;
  WorkerOptions worker_;
  std::unique_ptr<Profiler> profiler_;
  std::string work_dir_;
};

}  // namespace cutegen
