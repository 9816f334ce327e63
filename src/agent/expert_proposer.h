// The built-in CuTe expert behind the Proposer seam: the same generate-test-refine loop as a
// model, with the expert's templates as the author. Generate emits the recognized recipe's default
// kernel; every later step (optimize, tune, and repair should an expert kernel ever fail) is the
// next point of the expert's search over the template's parameters, given the points the task's
// earlier steps evaluated. Each proposal carries its point, which the store keeps with the step
// (and the edit names, for people), so the history, and with it the search, is rebuilt exactly
// from the store on resume. The
// expert is deterministic: the same task and the same evaluations give the same trajectory.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "agent/interfaces.h"
#include "build/target.h"
#include "expert/recipe.h"
#include "expert/search.h"

namespace cutegen {

class ExpertProposer : public Proposer {
 public:
  // hw: what the build target's GPU holds (grid, SMs, shared memory), which sizes the kernels.
  explicit ExpertProposer(ArchLimits hw = Target{}.limits()) : hw_(hw) {}
  // A task the expert declines, or whose search is exhausted, is a failed proposal that ends
  // the task (end_task) with the reason as its stop reason.
  Result<Proposal> propose(const StepContext& ctx) override;
  // The task's recipe, or why the expert declines it (recognized once per task).
  const Result<Recipe>& recipe_for(const TaskSpec& task);

 private:
  ArchLimits hw_;
  std::map<std::string, Result<Recipe>> recipes_;  // by task name + spec JSON
};

// The expert's trials from the task's history: every point an expert step evaluated. Only the
// kernel the loop kept counts as verified-and-best material (a pass the loop reverted is tried,
// not a base), so the search climbs from the loop's best; the profile verdict joins that trial.
std::vector<Trial> expert_trials(const StepContext& ctx);

}  // namespace cutegen
