#include "agent/state.h"

#include <cstdio>

#include "agent/workload.h"
#include "core/strings.h"

namespace cutegen {
namespace {

std::string fmt_x(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2fx", v);
  return b;
}

bool is_candidate(const StepRecord& r) { return r.verdict.has_value(); }
bool passed(const StepRecord& r) { return r.verdict == Verdict::kPass; }

}  // namespace

template <>
std::span<const NameRow<ProfilePolicy>> name_table() {
  static const NameRow<ProfilePolicy> t[] = {
      {ProfilePolicy::kAuto, "auto", "auto"},
      {ProfilePolicy::kAfterN, "after_n", "after n accepted steps"},
      {ProfilePolicy::kStable, "stable", "once the structure is stable"},
      {ProfilePolicy::kAlways, "always", "always"},
      {ProfilePolicy::kNever, "never", "never"},
  };
  return t;
}

Result<AgentOptions> agent_options(const Config& c) {
  AgentOptions o;
  o.max_steps = static_cast<int>(c.integer("agent.max_steps"));
  o.repair_rounds = static_cast<int>(c.integer("agent.repair_rounds"));
  o.optimize_steps = static_cast<int>(c.integer("agent.optimize_steps"));
  o.plateau_steps = static_cast<int>(c.integer("agent.plateau_steps"));
  o.min_gain = c.number("agent.min_gain");
  o.target_roofline = c.number("agent.target_roofline");
  std::string policy = c.str("agent.profile_policy");
  auto parsed = parse_name<ProfilePolicy>(policy);
  if (!parsed)
    return error("agent.profile_policy: expected one of " + names_list<ProfilePolicy>() + ", got '" + policy + "'");
  o.profile_policy = *parsed;
  for (auto& item : split(c.str("agent.profile_after"), ',')) {
    if (trim(item).empty()) continue;
    auto eq = item.find('=');
    if (eq == std::string::npos) return error("agent.profile_after: expected class=N, got '" + trim(item) + "'");
    std::string cls = trim(item.substr(0, eq));
    auto workload = parse_name<Workload>(cls);
    if (!workload) return error("agent.profile_after: unknown class '" + cls + "' (" + names_list<Workload>() + ")");
    try {
      o.profile_after[*workload] = std::stoi(item.substr(eq + 1));
    } catch (const std::exception&) {
      return error("agent.profile_after: '" + trim(item) + "' is not class=N");
    }
  }
  if (o.max_steps < 1 || o.repair_rounds < 0) return error("agent.max_steps must be >= 1 and agent.repair_rounds >= 0");
  return o;
}

void judge(const TaskState& s, const AgentOptions& o, StepRecord& r) {
  if (!is_candidate(r)) {
    r.outcome = StepOutcome::kFailed;
    return;
  }
  if (!passed(r)) {
    r.outcome = StepOutcome::kFailed;
    r.note = name(*r.verdict) + (r.summary.empty() ? "" : ": " + r.summary);
    if (s.failing_streak + 1 > o.repair_rounds) r.note += " (repair rounds used up; back to the best kernel)";
    return;
  }
  const StepRecord* best = s.best_step();
  if (!best || r.speedup > best->speedup * (1 + o.min_gain)) {
    r.outcome = StepOutcome::kAccepted;
    r.note = fmt_x(r.speedup) + (best ? " beats " + fmt_x(best->speedup) : " first verified kernel");
    return;
  }
  r.outcome = StepOutcome::kReverted;
  r.note = (r.speedup < best->speedup ? "regression: " : "no gain: ") + fmt_x(r.speedup) + " vs best " +
           fmt_x(best->speedup) + "; reverted to step " + std::to_string(best->step + 1);  // steps show 1-based
}

void apply(TaskState& s, const AgentOptions& o, const StepRecord& r) {
  s.steps.push_back(r);
  int idx = static_cast<int>(s.steps.size()) - 1;
  if (r.profiled) s.profiling = true;
  // Expert steps move parameters only: the structural optimize steps stay for a model.
  if (r.stage == Stage::kOptimize && r.edit_how != EditHow::kExpert) ++s.optimize_steps;
  s.abandoned = false;
  if (is_candidate(r)) {
    s.last_candidate = idx;
    if (passed(r))
      s.failing_streak = 0;
    else if (++s.failing_streak > o.repair_rounds)
      s.failing_streak = 0, s.abandoned = true;
  }
  if (r.outcome == StepOutcome::kAccepted) {
    s.best = idx, ++s.accepted, s.since_improvement = 0;
  } else if (s.best >= 0) {
    ++s.since_improvement;
  }
}

TaskState fold(const std::vector<StepRecord>& steps, const AgentOptions& o) {
  TaskState s;
  for (auto& r : steps)
    apply(s, o, r);
  return s;
}

Stage next_stage(const TaskState& s, const AgentOptions& o) {
  if (s.last_candidate >= 0 && !s.abandoned) {
    const auto& last = s.steps[s.last_candidate];
    if (last.verdict == Verdict::kCompileError) return Stage::kRepairCompile;
    if (last.verdict != Verdict::kPass && last.verdict != Verdict::kSetupError) return Stage::kRepairWrong;
  }
  if (s.best < 0) return Stage::kGenerate;
  return s.optimize_steps < o.optimize_steps ? Stage::kOptimize : Stage::kTune;
}

bool profile_due(const TaskState& s, const AgentOptions& o, Workload workload, Stage stage) {
  if (stage != Stage::kOptimize && stage != Stage::kTune) return false;
  auto p = o.profile_policy;
  if (p == ProfilePolicy::kNever) return false;
  if (p == ProfilePolicy::kAlways || s.profiling) return true;
  auto it = o.profile_after.find(workload);
  int n = it != o.profile_after.end() ? it->second : default_profile_after(workload);
  bool after_n = s.accepted >= n;
  // Stable: the last two accepted steps kept the structure, or the speedup has plateaued.
  std::vector<const StepRecord*> acc;
  for (auto& r : s.steps)
    if (r.outcome == StepOutcome::kAccepted) acc.push_back(&r);
  bool same_structure = acc.size() >= 2 && !acc.back()->fingerprint.empty() &&
                        acc[acc.size() - 1]->fingerprint == acc[acc.size() - 2]->fingerprint;
  bool plateau = s.best >= 0 && s.since_improvement >= 2;
  bool stable = same_structure || plateau;
  if (p == ProfilePolicy::kAfterN) return after_n;
  if (p == ProfilePolicy::kStable) return stable;
  return after_n || stable;
}

std::optional<std::string> stop_reason(const TaskState& s, const AgentOptions& o) {
  if (s.next_step() >= o.max_steps) return "max steps (" + std::to_string(o.max_steps) + ")";
  if (auto b = s.best_step(); b && o.target_roofline > 0 && b->roofline_fraction >= o.target_roofline)
    return "reached " + std::to_string(static_cast<int>(100 * b->roofline_fraction)) + "% of the roofline";
  if (s.best >= 0 && s.since_improvement >= o.plateau_steps)
    return "plateau (" + std::to_string(s.since_improvement) + " steps without a gain)";
  return std::nullopt;
}

std::string render_memory(const TaskState& s) {
  std::string out;
  for (auto& r : s.steps) {
    std::string line = "- step " + std::to_string(r.step + 1) + " (" + name(r.stage) + "): " + name(r.outcome);
    if (!r.note.empty()) line += " — " + r.note;
    out += truncate_middle(line, 300) + "\n";
  }
  return out;
}

}  // namespace cutegen
