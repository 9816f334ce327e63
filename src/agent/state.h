// The loop's state is a fold over the task's recorded steps, so resuming a killed run rebuilds
// exactly the state an uninterrupted run had; the policies are pure functions of that state.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "agent/interfaces.h"
#include "agent/workload.h"
#include "core/config.h"
#include "store/run_store.h"

namespace cutegen {

// When the runtime profile joins the prompt (agent.profile_policy): auto is after_n or stable.
enum class ProfilePolicy { kAuto, kAfterN, kStable, kAlways, kNever };

struct AgentOptions {
  int max_steps = 12;
  int repair_rounds = 3;   // consecutive repairs of one failing lineage
  int optimize_steps = 6;  // structural steps before parameter-only tuning
  int plateau_steps = 4;   // stop after this many steps without an improvement
  double min_gain = 0.02;  // a pass must beat the best by this fraction to be kept
  double target_roofline = 0.9;
  ProfilePolicy profile_policy = ProfilePolicy::kAuto;
  std::map<Workload, int> profile_after;  // per workload class, overriding the defaults
};

template <>
std::span<const NameRow<ProfilePolicy>> name_table();

Result<AgentOptions> agent_options(const Config& c);

struct TaskState {
  std::vector<StepRecord> steps;
  int best = -1;            // index into steps of the best verified kernel
  int last_candidate = -1;  // index of the latest step that produced a source
  int failing_streak = 0;   // consecutive failed candidates since the last pass
  bool abandoned = false;   // the failing lineage used up its repair rounds
  int accepted = 0;
  int optimize_steps = 0;     // model optimize steps taken (tune starts after agent.optimize_steps)
  int since_improvement = 0;  // steps since the last accepted one (once a kernel verified)
  bool profiling = false;     // a step's prompt carried the profile: it stays on
  int next_step() const { return static_cast<int>(steps.size()); }
  const StepRecord* best_step() const { return best < 0 ? nullptr : &steps[best]; }
};

// What a new evaluation means against the state: accepted, reverted (a regression or no gain)
// or failed; with the note remembered for the prompt's memory.
void judge(const TaskState& s, const AgentOptions& o, StepRecord& r);
void apply(TaskState& s, const AgentOptions& o, const StepRecord& r);
TaskState fold(const std::vector<StepRecord>& steps, const AgentOptions& o);

Stage next_stage(const TaskState& s, const AgentOptions& o);
// Whether the runtime profile joins this step's prompt.
bool profile_due(const TaskState& s, const AgentOptions& o, Workload workload, Stage stage);
// Why to stop before the next step, or nullopt (budget stops come from the proposer).
std::optional<std::string> stop_reason(const TaskState& s, const AgentOptions& o);
// The prompt's memory: one line per step.
std::string render_memory(const TaskState& s);

}  // namespace cutegen
