// The agent's three seams, all plain data in and out: a KernelEvaluator judges a source for the
// task, a KernelProfiler summarises where a verified kernel spends its time, and a Proposer turns
// the step's context into a candidate source (the LLM proposer; the CuTe expert plugs in here too).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "agent/workload.h"
#include "core/outcomes.h"
#include "core/result.h"
#include "expert/params.h"
#include "task/task_spec.h"

namespace cutegen {

// What the agent reads off an evaluation.
struct KernelEval {
  Verdict verdict = Verdict::kSetupError;
  std::string summary;  // one line
  std::string report;   // condensed compile errors, or which output differs where and its pattern
  double speedup = 0, speedup_low = 0, speedup_high = 0;                          // vs eager (pass only)
  double compile_speedup = 0, compile_speedup_low = 0, compile_speedup_high = 0;  // vs torch.compile; 0: not timed
  double roofline_fraction = 0;
  std::string statics;      // registers, shared memory, spills per kernel
  std::string fingerprint;  // structure: tile shapes, copy/MMA atoms, kernel count
  bool pass() const { return verdict == Verdict::kPass; }
};

// What the first prompt needs before any kernel exists.
struct Baseline {
  double eager_ms = 0;                 // 0: unknown
  double floor_ms = 0;                 // roofline floor; 0: unknown
  std::optional<RooflineLimit> bound;  // which term sets the floor; none: unknown
  double eager_rel_err = 0;            // eager's error vs float64, worst output (the precision contract); 0: unknown
  double accuracy_limit = 0;           // the most error vs float64 the evaluator's rule admits; 0: unknown
  double tf32_rel_err = 0;             // the task's error vs float64 with TF32 operands; 0: unknown
};

class KernelEvaluator {
 public:
  virtual ~KernelEvaluator() = default;
  virtual Result<Baseline> baseline(const TaskSpec& task) = 0;
  // Errors are setup problems only; a broken kernel is a verdict.
  virtual Result<KernelEval> evaluate(const TaskSpec& task, const std::string& source, const std::string& name) = 0;
  // Compiles candidates together, in parallel, into the build cache (default: nothing), so that
  // this and the search's next evaluations find them built. It returns before any evaluation
  // starts: compiles never share the CPU with a timed run.
  virtual void prebuild(const TaskSpec& task, std::vector<std::string> sources) { (void)task, (void)sources; }
};

class KernelProfiler {
 public:
  virtual ~KernelProfiler() = default;
  // The ~25-line runtime profile summary of a verified kernel, and its verdict as numbers.
  virtual Result<ProfileSummary> profile(const TaskSpec& task, const std::string& source) = 0;
};

// What a proposer may know of an earlier step of the task (the expert reads its own parameter
// points back from `point`, so a resumed run continues the same search).
struct PastStep {
  int step = 0;
  Stage stage = Stage::kGenerate;
  std::string edit;
  EditHow edit_how = EditHow::kNone;
  std::optional<Params> point;     // an expert step's parameter point
  std::optional<Verdict> verdict;  // none: the step had no candidate
  StepOutcome outcome = StepOutcome::kFailed;
  double speedup = 0;
};

// Everything a proposer may use for one step.
struct StepContext {
  Stage stage = Stage::kGenerate;
  int step = 0, max_steps = 0;
  const TaskSpec* task = nullptr;
  Workload workload = Workload::kOther;
  Baseline baseline;
  std::string base_source;  // what to edit: the best verified kernel, or the failing one under repair
  int base_step = -1;
  std::string failure;            // repair: the condensed diagnostics or the localized mismatch report
  std::string best;               // "1.42x vs eager, 61% of roofline" or "" before the first pass
  std::string statics;            // static facts of the base kernel
  std::string memory;             // one line per earlier step: what was tried and what became of it
  ProfileSummary profile;         // runtime profile of the best kernel; empty text unless the profiling policy says so
  std::vector<PastStep> history;  // every earlier step of the task, in order
};

struct Proposal {
  enum class Status { kSource, kWaiting, kBudget, kFailed };
  Status status = Status::kFailed;
  std::string source;  // kSource: the complete new kernel
  std::string edit;    // the edit blocks as answered ("" for a whole file)
  EditHow edit_how = EditHow::kNone;
  std::optional<Params> point;  // the expert's parameter point, recorded with the step
  std::string detail;           // kWaiting: the file awaited; kBudget: the limit; kFailed: why
  long tokens = 0;
  // kFailed: nothing more to try for this task (the expert has no template for it, or its search
  // is exhausted); the loop ends the task with `detail` as its stop reason, recording no step.
  bool end_task = false;
  // Sources worth compiling beside this one, before it is evaluated (the expert's next likely points).
  std::vector<std::string> ahead;
};

class Proposer {
 public:
  virtual ~Proposer() = default;
  // Errors are for setup problems (a missing prompt template); model trouble is a Proposal status.
  virtual Result<Proposal> propose(const StepContext& ctx) = 0;
};

}  // namespace cutegen
