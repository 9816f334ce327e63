// The one table of exit codes every command uses (README.md "Exit codes" holds the same table).
// `cutegen eval`'s verdicts keep the codes exit_code(Verdict) gives them: pass 0, wrong 1, setup
// error 2, rejected 3, timeout 4 (cli_test checks that the two agree).
#pragma once

#include <string>
#include <vector>

#include "core/outcomes.h"

namespace cutegen {

enum ExitCode : int {
  kExitOk = 0,
  // The command ran and the answer is no: a wrong kernel, a compile error, a task left without a
  // verified kernel, a re-measurement that did not pass, a task the expert has no template for.
  kExitNegative = 1,
  // Usage or input: unknown command or flag, a missing or broken file, a bad config value, a run
  // in use by another process; the evaluator's setup_error (it could not pair task and kernel).
  kExitInput = 2,
  kExitRejected = 3,     // the evaluator rejected the kernel (static gate, mutation, faster than physics)
  kExitTimeout = 4,      // the kernel or the reference ran past its time limit
  kExitEnvironment = 5,  // this machine lacks what the command needs: a GPU, nvcc, CUTLASS, Python with torch
  kExitWaiting = 6,      // waiting for a model's answer file (file backend): write it, then resume
};

struct ExitCodeRow {
  ExitCode code;
  const char* meaning;
};

// Code, then its one-line meaning, for help text and tests.
const std::vector<ExitCodeRow>& exit_code_table();

// The code for an error message from below cli: kExitEnvironment when it says a tool, GPU or
// Python is missing (the messages of sys, build and task that mean so), else kExitInput.
ExitCode code_for_error(const std::string& message);
// The code for a verdict, as `cutegen eval` exits (core's exit_code(Verdict)).
ExitCode code_for_verdict(Verdict v);

}  // namespace cutegen
