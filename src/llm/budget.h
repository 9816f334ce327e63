// Budgets per run and per task, in tokens, dollars and calls. Checked before every call; a
// spent budget is a value (ResponseStatus::budget_exhausted) that stops the work cleanly.
#pragma once

#include <optional>
#include <string>

#include "llm/ledger.h"

namespace cutegen {

struct Limits {  // 0: no limit
  long tokens = 0;
  double dollars = 0;
  long calls = 0;
};

class Budget {
 public:
  Budget(Limits run, Limits task) : run_limits_(run), task_limits_(task) {}
  // What was spent before this process (from the ledger, when resuming).
  void seed_run(Spend already) { run_ = already; }
  // A new task starts with its own allowance (or what it had spent before a resume).
  void start_task(Spend already = {}) { task_ = already; }
  // "run tokens: 1200 spent of 1000", or nullopt while every limit has room.
  std::optional<std::string> exhausted() const;
  void charge(const Usage& u, double dollars);

 private:
  Limits run_limits_, task_limits_;
  Spend run_, task_;
};

}  // namespace cutegen
