// The run store: one SQLite file (run.db, WAL) per run folder holding the run, its tasks, every
// step (candidate source, parent, stage, edit, evaluation), profiles and events; the llm ledger
// writes its llm_calls table into the same file. Every transition is one transaction, so a killed
// process loses at most the step in flight. A flock on run.lock refuses a second process; the
// file's application_id and user_version recognise foreign, corrupt and newer files; an older
// schema is migrated when the run is opened for writing (a read-only open reads it as it is).
// Outcomes are typed here and spelled by core/outcomes.h's names in the file.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/outcomes.h"
#include "core/result.h"

struct sqlite3;

namespace cutegen {

constexpr int kRunStoreApplicationId = 0x43754747;  // "CuGG"
// 2: candidates.point (the expert's parameter point), profiles.bound and percent_of_peak.
constexpr int kRunStoreSchemaVersion = 2;

struct RunMeta {
  std::string id;
  std::string config;  // the resolved config as TOML-ish "key = value" lines: what replay reuses
  std::string llm;     // the model spec(s) the run started with
  std::string created;
};

struct TaskRow {
  std::string name;  // unique within the run
  std::string path;  // the task file
  int position = 0;
  TaskStatus status = TaskStatus::kPending;
  std::string spec_json;  // the TaskSpec as the bridge described it (saved once)
  std::string stop_reason;
  int best_step = -1;
  std::string final_json;  // the winner re-measured in a fresh process
};

// One step of the loop: what was proposed and what the evaluator said.
struct StepRecord {
  std::string task;
  int step = 0;
  Stage stage = Stage::kGenerate;
  int parent = -1;  // the step whose source this one edited (-1: none)
  std::string source;
  std::string edit;  // the model's edit text (blocks) or "" for a whole file
  EditHow edit_how = EditHow::kNone;
  std::string point;  // an expert step's parameter point as params.h writes it ("threads=256,..."); "" otherwise
  std::optional<Verdict> verdict;  // none: no candidate to evaluate (stored as "no_candidate")
  std::string summary;             // one line
  std::string report;              // failure report (diagnostics or localized mismatch)
  double speedup = 0, speedup_low = 0, speedup_high = 0;
  double roofline_fraction = 0;
  std::string fingerprint;
  std::string statics;  // static facts for the prompt
  StepOutcome outcome = StepOutcome::kFailed;
  std::string note;       // why (for the memory)
  bool profiled = false;  // the prompt for this step carried the profile summary
  long tokens = 0;
};

struct EventRow {
  long id = 0;
  std::string at, task;
  int step = -1;
  EventKind kind = EventKind::kStep;
  std::string detail;
};

class RunStore {
 public:
  // Creates <dir>/run.db holding the run and its tasks, all or nothing; fails when the folder
  // already holds a run. Returns the store opened with the lock.
  static Result<RunStore> create(const std::string& dir, const RunMeta& meta, const std::vector<TaskRow>& tasks = {});
  // Opens an existing run for writing (takes the lock).
  static Result<RunStore> open(const std::string& dir);
  // Opens without the lock, read-only use (export, summary while a run is going).
  static Result<RunStore> open_readonly(const std::string& dir);

  const std::string& dir() const { return dir_; }
  std::string db_path() const { return dir_ + "/run.db"; }
  Result<RunMeta> meta() const;

  Status add_task(const TaskRow& t);  // ignored when the name exists (idempotent)
  Result<std::vector<TaskRow>> tasks() const;
  Status update_task(const TaskRow& t);  // status, spec, stop reason, best step, final

  // Idempotent by (task, step): a step recorded twice keeps the first record.
  Status commit_step(const StepRecord& s);
  Result<std::vector<StepRecord>> steps(const std::string& task) const;
  Status save_profile(const std::string& task, int step, const ProfileSummary& profile);
  // The profile saved for a step; none when there is none, or when it was saved under schema 1,
  // which kept no verdict (the loop profiles that step again).
  Result<std::optional<ProfileSummary>> profile(const std::string& task, int step) const;
  Status event(const std::string& task, int step, EventKind kind, const std::string& detail);
  Result<std::vector<EventRow>> events() const;

 private:
  RunStore() = default;
  static Result<RunStore> open_db(const std::string& dir, bool create, bool lock);
  Status exec(const std::string& sql) const;
  Status migrate_from_1() const;
  std::string dir_;
  int version_ = kRunStoreSchemaVersion;  // of the file as opened
  std::shared_ptr<sqlite3> db_;
  std::shared_ptr<int> lock_fd_;
};

// A step's verdict as the file and the run summary spell it: its name, or "no_candidate".
const char* step_verdict_name(const StepRecord& s);

// A new run id: "<yyyymmdd-hhmmss>-<4 hex>".
std::string new_run_id();

}  // namespace cutegen
