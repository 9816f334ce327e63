#include "agent/expert_proposer.h"

#include <algorithm>

#include "core/strings.h"
#include "expert/conv_precision.h"
#include "expert/params.h"
#include "expert/recognize.h"
#include "expert/templates.h"

namespace cutegen {
namespace {

constexpr std::string_view kPointPrefix = "expert point: ";
constexpr int kCompileAhead = 3;  // likely next points compiled beside the one proposed

bool tried(const std::vector<Trial>& trials, const Params& p) {
  return std::any_of(trials.begin(), trials.end(), [&](const Trial& t) { return t.params == p; });
}

Proposal ending(std::string why) {
  return Proposal{.status = Proposal::Status::kFailed, .detail = std::move(why), .end_task = true};
}

// Why this point, for the record: the default, a neighbour of the best, or moving past a failure.
std::string reason(const StepContext& ctx, const std::vector<Trial>& trials, bool is_default) {
  if (ctx.stage == Stage::kRepairCompile || ctx.stage == Stage::kRepairWrong) {
    for (auto it = ctx.history.rbegin(); it != ctx.history.rend(); ++it) {
      if (!it->verdict) continue;
      auto& p = it->point;
      return "step " + std::to_string(it->step + 1) + (p ? " (" + to_string(*p) + ")" : "") + " ended " +
             name(*it->verdict) +
             ": an expert kernel should not; the expert moves to the next point rather than repair it";
    }
  }
  if (is_default) return "the template's default point";
  auto best = best_trial(trials);
  if (!best) return "the next untried point of the space (no verified point yet)";
  std::string why = "a neighbour of the best point " + to_string(best->params);
  if (auto& v = best->profile)
    why += " (profile: " + std::string(name(v->bound)) + " at " + std::to_string(static_cast<int>(v->percent_of_peak)) +
           "% of peak)";
  return why;
}

}  // namespace

const Result<Recipe>& ExpertProposer::recipe_for(const TaskSpec& task) {
  std::string key = task.name + "\n" + task.json;
  auto it = recipes_.find(key);
  if (it == recipes_.end()) it = recipes_.emplace(key, recognize(task)).first;
  return it->second;
}

Result<Proposal> ExpertProposer::propose(const StepContext& ctx) {
  const auto& recipe = recipe_for(*ctx.task);
  if (!recipe) {  // recognize() says "no template for this task; configure an LLM (...why...)"
    std::string why = truncate_middle(recipe.message(), 400);
    return ending(contains(why, "configure an LLM") ? why : why + "; configure an LLM (--llm SPEC) for this task");
  }
  auto trials = expert_trials(ctx);
  auto space = search_space(*recipe, hw_);
  auto seeds = strategy_seeds(*recipe);
  // The default at the precision eager's own measurement admits (expert/conv_precision.h).
  Params point = conv_precision_point(*recipe, default_params(*recipe, hw_),
                                      {ctx.baseline.tf32_rel_err, ctx.baseline.accuracy_limit}, hw_);
  bool is_default = !tried(trials, point);
  if (!is_default) {
    auto next = next_candidates(trials, space, 1, seeds);
    if (next.empty())
      return ending("expert search exhausted: every neighbour of the best point tried (" +
                    std::to_string(trials.size()) + " points)");
    point = next.front();
  }
  Proposal p{.edit = std::string(kPointPrefix) + to_string(point) + "\n" + reason(ctx, trials, is_default),
             .edit_how = EditHow::kExpert,
             .point = point};
  auto source = generate_kernel(*recipe, *ctx.task, point, hw_);
  if (!source) {  // recorded as a tried point, so the next step moves on
    p.detail = "the template cannot take this point: " + source.message();
    return p;
  }
  p.status = Proposal::Status::kSource;
  p.source = std::move(source).value();
  // The next points the search would try if this one does not win, compiled beside it.
  trials.push_back({.params = point});
  for (auto& q : next_candidates(trials, space, kCompileAhead, seeds))
    if (auto s = generate_kernel(*recipe, *ctx.task, q)) p.ahead.push_back(std::move(s).value());
  return p;
}

std::vector<Trial> expert_trials(const StepContext& ctx) {
  std::vector<Trial> out;
  for (auto& h : ctx.history) {
    if (h.edit_how != EditHow::kExpert || !h.point) continue;
    bool kept = h.outcome == StepOutcome::kAccepted && h.speedup > 0;
    out.push_back({.params = *h.point, .ok = kept, .ms = kept ? 1.0 / h.speedup : 0});
  }
  // The profile describes the loop's best kernel: the verdict belongs to that trial.
  Trial* best = nullptr;
  for (auto& t : out)
    if (t.ok && (!best || t.ms < best->ms)) best = &t;
  if (best) best->profile = ctx.profile.verdict;
  return out;
}

}  // namespace cutegen
