// The agent loop for one task: rebuild the state from the store, then until a stop rule fires:
// build the step's context (from the best verified kernel, or the failing one under repair),
// propose, evaluate, judge, record (one transaction), fold. The winner is re-measured at the end.
#pragma once

#include <functional>
#include <string>

#include "agent/interfaces.h"
#include "agent/state.h"
#include "store/run_store.h"

namespace cutegen {

struct Progress {
  std::string task;
  Stage stage = Stage::kGenerate;
  int step = 0;
  double best_speedup = 0;
  long tokens = 0;
  std::string last;  // the latest step's outcome line
};

struct TaskEnv {
  RunStore* store = nullptr;
  KernelEvaluator* evaluator = nullptr;
  KernelProfiler* profiler = nullptr;
  Proposer* proposer = nullptr;
  AgentOptions options;
  std::function<void(const Progress&)> progress;  // may be empty
};

enum class TaskEnd { kDone, kNoKernel, kWaiting };

struct TaskOutcome {
  TaskEnd end = TaskEnd::kDone;
  std::string detail;  // stop reason, or the file a waiting model needs
};

// Errors are setup problems (store, templates, evaluator setup); model and kernel trouble are steps.
Result<TaskOutcome> run_task(const TaskEnv& env, const TaskSpec& spec, TaskRow row);

// A task whose file cannot be loaded (missing, a syntax error, no Model, get_inputs raising) ends
// failed with the loader's error as its stop reason, and the run goes on to the next task.
Status fail_unloadable(RunStore& store, TaskRow row, const std::string& load_error);

}  // namespace cutegen
