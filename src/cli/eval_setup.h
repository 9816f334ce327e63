// Builds an Evaluator from the config: toolchain, target, tolerances, worker and folders.
#pragma once

#include <memory>
#include <string>

#include "cli/context.h"
#include "eval/evaluator.h"

namespace cutegen {

// The tolerances the evaluator judges by (eval.tolerance, atol, rtol, accuracy_factor).
Result<Tolerance> configured_tolerance(const Config& c);

class EvalSetup {
 public:
  static Result<EvalSetup> create(Context& ctx);
  Result<TaskSpec> load_spec(const std::string& task_path) const;
  Evaluator evaluator(bool time) const;
  const Builder& builder() const { return *builder_; }
  const Target& target() const { return target_; }
  const EvalOptions& options() const { return options_; }

 private:
  std::shared_ptr<Builder> builder_;
  Target target_;
  EvalOptions options_;
  std::string python_;
  long spec_timeout_s_ = 0;
  std::string spec_cache_dir_;  // "" without task.spec_cache
};

}  // namespace cutegen
