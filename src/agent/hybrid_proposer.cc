#include "agent/hybrid_proposer.h"

#include <algorithm>

namespace cutegen {

bool HybridProposer::expert_turn(const StepContext& ctx) {
  if (!expert_->recipe_for(*ctx.task)) return false;
  int share = opt_.expert_steps > 0 ? opt_.expert_steps : std::max(1, ctx.max_steps / 2);
  int mine = 0, idle = 0;
  bool verified = false;
  for (auto& h : ctx.history) {
    if (h.edit_how != EditHow::kExpert) return false;  // the model has taken over: it keeps the task
    ++mine;
    if (h.outcome == StepOutcome::kAccepted)
      verified = true, idle = 0;
    else if (verified)
      ++idle;
  }
  return mine < share && !(verified && idle >= std::max(1, opt_.plateau_steps / 2));
}

Result<Proposal> HybridProposer::propose(const StepContext& ctx) {
  if (expert_turn(ctx)) {
    auto p = CUTEGEN_TRY(expert_->propose(ctx));
    if (!(p.status == Proposal::Status::kFailed && p.end_task)) return p;
  }
  return model_->propose(ctx);
}

}  // namespace cutegen
