// Hybrid: the expert first, then a model. While the expert recognizes the task it proposes the
// steps (its default kernel, then its parameter search) until its share of the steps is spent,
// its search is exhausted or stalls; from then on every step is the model's, starting from the
// loop's best verified kernel (the expert's winner). A task the expert declines is the model's
// from scratch. The hand-over is a function of the recorded steps, so resume picks the same side.
#pragma once

#include <memory>

#include "agent/expert_proposer.h"

namespace cutegen {

struct HybridOptions {
  int expert_steps = 0;   // the expert's share of a task's steps; 0: half of max_steps
  int plateau_steps = 4;  // agent.plateau_steps: the expert hands over after half as many idle steps
};

class HybridProposer : public Proposer {
 public:
  HybridProposer(std::unique_ptr<ExpertProposer> expert, std::unique_ptr<Proposer> model, HybridOptions opt)
      : expert_(std::move(expert)), model_(std::move(model)), opt_(opt) {}
  Result<Proposal> propose(const StepContext& ctx) override;
  // Whether this step is still the expert's (before asking it: its exhaustion also hands over).
  bool expert_turn(const StepContext& ctx);

 private:
  std::unique_ptr<ExpertProposer> expert_;
  std::unique_ptr<Proposer> model_;
  HybridOptions opt_;
};

}  // namespace cutegen
