#include "eval/stats.h"

#include <algorithm>
#include <random>

namespace cutegen {

double percentile(std::vector<double> sorted, double q) {
  if (sorted.empty()) return 0;
  std::sort(sorted.begin(), sorted.end());
  double pos = q * static_cast<double>(sorted.size() - 1);
  size_t lo = static_cast<size_t>(pos);
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

Summary summarize(std::vector<double> samples) {
  Summary s;
  s.n = samples.size();
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.median = percentile(samples, 0.5);
  s.p10 = percentile(samples, 0.1);
  s.p90 = percentile(samples, 0.9);
  s.min = samples.front();
  return s;
}

Interval speedup_interval(const std::vector<double>& baseline, const std::vector<double>& candidate, double level,
                          int resamples, uint64_t seed) {
  Interval iv;
  if (baseline.empty() || candidate.empty()) return iv;
  iv.point = percentile(baseline, 0.5) / percentile(candidate, 0.5);
  std::mt19937_64 rng(seed);
  auto resample_median = [&](const std::vector<double>& xs) {
    std::uniform_int_distribution<size_t> pick(0, xs.size() - 1);
    std::vector<double> r(xs.size());
    for (auto& v : r)
      v = xs[pick(rng)];
    std::nth_element(r.begin(), r.begin() + static_cast<long>(r.size() / 2), r.end());
    return r[r.size() / 2];
  };
  std::vector<double> ratios(static_cast<size_t>(resamples));
  for (auto& r : ratios)
    r = resample_median(baseline) / resample_median(candidate);
  iv.low = percentile(ratios, (1 - level) / 2);
  iv.high = percentile(ratios, 1 - (1 - level) / 2);
  return iv;
}

}  // namespace cutegen
