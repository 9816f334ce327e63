// Outcomes and kinds that cross module seams (evaluator -> agent -> store -> expert, cli) as enums, each with one
// table of names: `name` is the identifier JSON, SQLite, prompts and scripts carry; `phrase` is
// what a person reads. Code compares the enums; strings exist only at those edges, written with
// name()/phrase() and read back with parse_name(), which takes either spelling.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace cutegen {

// What compiling one source came to (refused: the build was not attempted, e.g. a source too large).
enum class BuildOutcome { kBuilt, kCompileError, kTimeout, kRefused };

// The evaluator's answer about one candidate.
enum class Verdict { kPass, kWrong, kRejected, kTimeout, kCompileError, kFault, kSetupError };
// The code `cutegen eval` exits with: 0 pass, 1 wrong/compile error/fault, 2 setup error,
// 3 rejected, 4 timeout (cli's exit-code table holds the same numbers).
int exit_code(Verdict v);

// A task of a run, as the run store holds it.
enum class TaskStatus { kPending, kRunning, kWaiting, kDone, kFailed };

// What the agent made of one step: the new best, a pass that did not beat it, or a failure.
enum class StepOutcome { kAccepted, kReverted, kFailed };

// What bounds a kernel, by its runtime profile.
enum class Bound { kMemory, kCompute, kLatency };

// Which term of the roofline sets a task's floor: its bytes at the memory ceiling or its math at
// the compute ceiling.
enum class RooflineLimit { kMemory, kCompute };

// The loop's stage for a step: what the proposer is asked to do.
enum class Stage { kGenerate, kRepairCompile, kRepairWrong, kOptimize, kTune };

// How a step's candidate came to be: the model's search/replace edits matched exactly or only
// ignoring whitespace, the model answered a whole file, the expert emitted it, or no candidate.
enum class EditHow { kExact, kWhitespace, kWholeFile, kExpert, kNone };

// What a run's event records (the run store's events table).
enum class EventKind { kStep, kFinish, kWaiting, kReeval, kDeal, kSlurmSubmit };

// The profile's verdict on a kernel: its bound and how busy the binding unit is.
struct BoundVerdict {
  Bound bound = Bound::kLatency;
  double percent_of_peak = 0;  // throughput of the busier of SM and memory, % of ncu's peak
  bool operator==(const BoundVerdict&) const = default;
};

// A kernel's runtime profile as the agent carries it: the summary for prompts and people, and
// the first kernel's verdict as numbers for the expert's search (absent without counters).
struct ProfileSummary {
  std::string text;
  std::optional<BoundVerdict> verdict;
};

template <class E>
struct NameRow {
  E value;
  const char* name;
  const char* phrase;
};

// The table of E's names, one row per value (defined in outcomes.cc for each enum above).
template <class E>
std::span<const NameRow<E>> name_table();

template <class E>
const NameRow<E>& name_row(E v) {
  for (auto& r : name_table<E>())
    if (r.value == v) return r;
  return name_table<E>().front();  // unreachable: every value has a row (outcomes_test checks)
}
template <class E>
const char* name(E v) {
  return name_row(v).name;
}
template <class E>
const char* phrase(E v) {
  return name_row(v).phrase;
}
// The value spelled `text` by its name or its phrase; nullopt for any other text.
template <class E>
std::optional<E> parse_name(std::string_view text) {
  for (auto& r : name_table<E>())
    if (text == r.name || text == r.phrase) return r.value;
  return std::nullopt;
}
// "pass, wrong, ..." for error messages.
template <class E>
std::string names_list() {
  std::string out;
  for (auto& r : name_table<E>())
    out += (out.empty() ? "" : ", ") + std::string(r.name);
  return out;
}

}  // namespace cutegen
