#include "eval/batch_accounting.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace cutegen {
namespace {

double sum(const nlohmann::json& a) {
  double s = 0;
  for (auto& v : a)
    s += v.get<double>();
  return s;
}

// What a batch took beyond the intervals reported for it.
double unreported(const nlohmann::json& b) {
  return b.at("host_ms").get<double>() - sum(b.at("flush_ms")) - sum(b.at("call_ms"));
}

// How long the judge's thread and the runner's issuing thread sat runnable without a CPU during the
// batch (the kernel's run-queue delay): time the batch's host clock holds that neither side spent
// on it. A batch is checked against the interval [host - waited, host].
double waited(const nlohmann::json& b) { return b.value("wait_ms", 0.0); }

std::string format(const char* fmt, double a, double b, double c = 0) {
  char buf[300];
  std::snprintf(buf, sizeof buf, fmt, a, b, c);
  return buf;
}

}  // namespace

BatchAccounting account_batches(const nlohmann::json& batches, const nlohmann::json& calibration,
                                const nlohmann::json& runner_cpu) {
  BatchAccounting acc;
  std::vector<double> overheads;
  double flush_lo = INFINITY, flush_hi = 0, probe_hi = 0;
  for (auto& b : calibration.at("batches")) {
    overheads.push_back(unreported(b) - waited(b));
    for (auto& f : b.at("flush_ms")) {
      flush_lo = std::min(flush_lo, f.get<double>());
      flush_hi = std::max(flush_hi, f.get<double>());
    }
    probe_hi = std::max(probe_hi, b.at("probe_ms").get<double>());
  }
  if (overheads.empty()) {
    acc.finding = "no calibration of the timing handshake";
    return acc;
  }
  std::sort(overheads.begin(), overheads.end());
  acc.overhead_ms = overheads[overheads.size() / 2];
  double spread = overheads.back() - overheads.front();
  // A flush after a call writes back what the call left dirty in L2: at most a full L2's worth, which
  // the judge timed itself. Shorter than a clean flush means the flush was skipped.
  acc.flush_min_ms = 0.9 * flush_lo;
  acc.flush_max_ms = 1.1 * std::max(flush_hi, calibration.value("flush_after_write_ms", 0.0)) + 0.005;
  acc.probe_limit_ms = 4 * probe_hi + 0.5;
  for (auto& b : batches) {
    ++acc.batches;
    double host = b.at("host_ms").get<double>();
    double tol = 0.02 + 3 * spread + 0.005 * host;
    double u = unreported(b) - acc.overhead_ms;  // at most; at least u - waited(b)
    double u_least = u - waited(b);
    acc.tolerance_ms = std::max(acc.tolerance_ms, tol);
    acc.waited_ms = std::max(acc.waited_ms, waited(b));
    double worst = u_least > 0 ? u_least : std::min(u, 0.0);
    if (std::fabs(worst) > std::fabs(acc.worst_unaccounted_ms)) acc.worst_unaccounted_ms = worst;
    acc.worst_probe_ms = std::max(acc.worst_probe_ms, b.at("probe_ms").get<double>());
    if (acc.finding.empty() && u_least > tol) {
      acc.finding = format(
          "timing not accounted for: %.3f ms of a %.3f ms batch lie outside the calls' reported "
          "intervals (work off the passed stream, or altered reports)",
          u_least, host);
      // The judge reruns a batch during which it was preempted; this one was, every time it ran.
      if (int n = b.value("preempted", 0); n > 0)
        acc.finding += format(
            "; the judge lost the CPU %.0f times during it, so the machine was busy: evaluate "
            "with fewer compiles or runs beside it",
            n, 0);
    }
    if (acc.finding.empty() && u < -tol)
      acc.finding = format("the calls report %.3f ms more than their %.3f ms batch took (altered reports)", -u, host);
    for (auto& f : b.at("flush_ms")) {
      double v = f.get<double>();
      if (acc.finding.empty() && (v < acc.flush_min_ms || v > acc.flush_max_ms))
        acc.finding = format(
            "a flush before a call took %.4f ms, outside the calibrated %.4f-%.4f ms (time moved "
            "between flush and call, or the flush skipped)",
            v, acc.flush_min_ms, acc.flush_max_ms);
    }
  }
  if (runner_cpu.is_object()) {
    acc.runner_cpu_ms = runner_cpu.at("cpu_ms").get<double>();
    acc.runner_batch_ms = runner_cpu.at("batch_ms").get<double>();
    // One thread spins through each batch; the process's CPU time comes in 10 ms clock ticks.
    if (acc.finding.empty() && acc.runner_cpu_ms > 1.5 * acc.runner_batch_ms + 30)
      acc.finding = format(
          "the candidate's process used %.0f ms of CPU during %.0f ms of timed batches: threads "
          "beside its calls, which take CPUs from the judge's clock",
          acc.runner_cpu_ms, acc.runner_batch_ms);
  }
  if (acc.finding.empty() && acc.worst_probe_ms > acc.probe_limit_ms)
    acc.finding = format(
        "the GPU was busy for %.3f ms after the candidate's calls were done (limit %.3f ms): work "
        "left running outside the timed calls",
        acc.worst_probe_ms, acc.probe_limit_ms);
  return acc;
}

}  // namespace cutegen
