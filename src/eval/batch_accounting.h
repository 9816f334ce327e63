// Checks the candidate's own account of its timed calls against the judge's clock.
//
// The runner (the candidate's process) reports, per call, the flush before it and the call itself,
// from events it records; the judge timed each batch of calls from writing `go` to seeing `done`.
// A runner with no candidate calibrated what a batch costs beyond its intervals (the handshake) and
// how long a flush takes. Reported intervals are accepted only when they account for each batch
// within a tolerance and every flush looks like a flush; and the GPU must be free again when the
// batch's `done` is seen (work left on another stream delays the judge's own probe kernel).
// On a busy machine a batch's clock also holds time slices given to other processes; the kernel's
// run-queue delay of both threads bounds that, and the candidate's process must not be what made
// the machine busy (its CPU time over the timed batches stays near one thread's).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace cutegen {

struct BatchAccounting {
  int batches = 0;
  double overhead_ms = 0;                     // calibrated handshake cost per batch
  double tolerance_ms = 0;                    // the largest tolerance any batch was held to
  double worst_unaccounted_ms = 0;            // signed: batch time not covered by reported intervals
  double waited_ms = 0;                       // the longest run-queue delay in a batch (a busy machine)
  double flush_min_ms = 0, flush_max_ms = 0;  // bounds a candidate's flush must keep
  double probe_limit_ms = 0, worst_probe_ms = 0;
  double runner_cpu_ms = 0, runner_batch_ms = 0;  // the candidate's process: CPU time, batches' time
  std::string finding;                            // empty when every check holds; else why the timing is rejected
};

// batches: [{calls, host_ms, flush_ms[], call_ms[], probe_ms, wait_ms}]; calibration: {batches: [...] from the
// no-op runner, flush_after_write_ms}; runner_cpu: {cpu_ms, batch_ms} of the timed phase, or null.
BatchAccounting account_batches(const nlohmann::json& batches, const nlohmann::json& calibration,
                                const nlohmann::json& runner_cpu);

}  // namespace cutegen
