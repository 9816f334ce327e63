#include "core/outcomes.h"

namespace cutegen {

// The names are stored in run.db and read by scripts: a new value gets a new row, an old name
// never changes. `cutegen eval` shows the phrase (its --json "verdict" too, as it always has);
// the agent, the run store, `cutegen run/reeval --json` and prompts carry the name.
template <>
std::span<const NameRow<Verdict>> name_table() {
  static const NameRow<Verdict> t[] = {
      {Verdict::kPass, "pass", "pass"},
      {Verdict::kWrong, "wrong", "wrong"},
      {Verdict::kRejected, "rejected", "rejected"},
      {Verdict::kTimeout, "timeout", "timeout"},
      {Verdict::kCompileError, "compile_error", "compile error"},
      {Verdict::kFault, "fault", "CUDA fault"},
      {Verdict::kSetupError, "setup_error", "setup error"},
  };
  return t;
}

// The build cache's build.json, `cutegen build --json` and eval's "build" carry the phrase.
template <>
std::span<const NameRow<BuildOutcome>> name_table() {
  static const NameRow<BuildOutcome> t[] = {
      {BuildOutcome::kBuilt, "built", "built"},
      {BuildOutcome::kCompileError, "compile_error", "compile error"},
      {BuildOutcome::kTimeout, "compile_timeout", "compile timeout"},
      {BuildOutcome::kRefused, "refused", "refused"},
  };
  return t;
}

template <>
std::span<const NameRow<TaskStatus>> name_table() {
  static const NameRow<TaskStatus> t[] = {
      {TaskStatus::kPending, "pending", "pending"}, {TaskStatus::kRunning, "running", "running"},
      {TaskStatus::kWaiting, "waiting", "waiting"}, {TaskStatus::kDone, "done", "done"},
      {TaskStatus::kFailed, "failed", "failed"},
  };
  return t;
}

template <>
std::span<const NameRow<StepOutcome>> name_table() {
  static const NameRow<StepOutcome> t[] = {
      {StepOutcome::kAccepted, "accepted", "accepted"},
      {StepOutcome::kReverted, "reverted", "reverted"},
      {StepOutcome::kFailed, "failed", "failed"},
  };
  return t;
}

template <>
std::span<const NameRow<Stage>> name_table() {
  static const NameRow<Stage> t[] = {
      {Stage::kGenerate, "generate", "generate"},
      {Stage::kRepairCompile, "repair_compile", "repair compile"},
      {Stage::kRepairWrong, "repair_wrong", "repair wrong"},
      {Stage::kOptimize, "optimize", "optimize"},
      {Stage::kTune, "tune", "tune"},
  };
  return t;
}

template <>
std::span<const NameRow<EditHow>> name_table() {
  static const NameRow<EditHow> t[] = {
      {EditHow::kExact, "exact", "exact"},
      {EditHow::kWhitespace, "whitespace", "whitespace"},
      {EditHow::kWholeFile, "whole_file", "whole file"},
      {EditHow::kExpert, "expert", "expert"},
      {EditHow::kNone, "none", "no candidate"},
  };
  return t;
}

template <>
std::span<const NameRow<EventKind>> name_table() {
  static const NameRow<EventKind> t[] = {
      {EventKind::kStep, "step", "step"},
      {EventKind::kFinish, "finish", "finish"},
      {EventKind::kWaiting, "waiting", "waiting"},
      {EventKind::kReeval, "reeval", "re-evaluation"},
      {EventKind::kDeal, "deal", "dealt over GPUs"},
      {EventKind::kSlurmSubmit, "slurm_submit", "Slurm submission"},
  };
  return t;
}

// The profile's names (`cutegen profile --json` "bound", and the keys of the levers' table).
template <>
std::span<const NameRow<Bound>> name_table() {
  static const NameRow<Bound> t[] = {
      {Bound::kMemory, "memory-bound", "memory-bound"},
      {Bound::kCompute, "compute-bound", "compute-bound"},
      {Bound::kLatency, "latency-bound", "latency-bound"},
  };
  return t;
}

// `cutegen eval --json` "roofline.bound", `cutegen profile --json` "ideal_limit", evaluator scripts' "bound".
template <>
std::span<const NameRow<RooflineLimit>> name_table() {
  static const NameRow<RooflineLimit> t[] = {
      {RooflineLimit::kMemory, "memory", "memory"},
      {RooflineLimit::kCompute, "compute", "compute"},
  };
  return t;
}

int exit_code(Verdict v) {
  switch (v) {
    case Verdict::kPass: return 0;
    case Verdict::kSetupError: return 2;
    case Verdict::kRejected: return 3;
    case Verdict::kTimeout: return 4;
    default: return 1;
  }
}

}  // namespace cutegen
