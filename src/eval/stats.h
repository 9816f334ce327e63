// Robust summaries of timing samples and a bootstrap interval for a speedup.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cutegen {

struct Summary {
  double median = 0, p10 = 0, p90 = 0, min = 0;
  size_t n = 0;
};
Summary summarize(std::vector<double> samples);
double percentile(std::vector<double> sorted, double q);

struct Interval {
  double point = 0, low = 0, high = 0;
};
// Speedup = median(baseline) / median(candidate), with a percentile bootstrap interval
// (`level` e.g. 0.95), deterministic for a given seed.
Interval speedup_interval(const std::vector<double>& baseline, const std::vector<double>& candidate,
                          double level = 0.95, int resamples = 2000, uint64_t seed = 1);

}  // namespace cutegen
