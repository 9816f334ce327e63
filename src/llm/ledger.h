// The ledger: one row per model call in an SQLite table (llm_calls) inside a database file the
// caller names, so the run store can keep it beside its own tables. WAL mode: readers (a status
// command) never block the run. Every text field is redacted before it is stored.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "llm/request.h"

struct sqlite3;

namespace cutegen {

struct CallRecord {
  std::string run_id;
  std::string task_id;
  std::string role;   // generator, repairer, optimizer, ...
  std::string model;  // the spec, e.g. "openai:gpt-5"
  Usage usage;
  double latency_s = 0;
  double cost_usd = 0;
  std::string outcome;  // ok, truncated, waiting, budget_exhausted, error
  std::string request_id;
  std::string prompt_key;
  std::string error;
};

struct Spend {
  long calls = 0;
  long tokens = 0;  // input + output
  double dollars = 0;
};

class Ledger {
 public:
  static Result<Ledger> open(const std::string& db_path);
  Status record(const CallRecord& c);
  // What calls that reached a model have spent so far; task_id "" sums the whole run.
  Result<Spend> spent(const std::string& run_id, const std::string& task_id = "") const;
  Result<std::vector<CallRecord>> calls(const std::string& run_id) const;

 private:
  explicit Ledger(std::shared_ptr<sqlite3> db, std::string path) : db_(std::move(db)), path_(std::move(path)) {}
  std::shared_ptr<sqlite3> db_;
  std::string path_;
};

}  // namespace cutegen
