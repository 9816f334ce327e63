#include "agent/kernelbench_metrics.h"

#include <cmath>

namespace cutegen {

double fast_p(const std::vector<TaskSpeedup>& tasks, double p) {
  if (tasks.empty()) return 0;
  int fast = 0;
  for (auto& t : tasks)
    fast += t.verified && (p <= 0 || t.speedup > p);
  return static_cast<double>(fast) / static_cast<double>(tasks.size());
}

double geomean_speedup(const std::vector<TaskSpeedup>& tasks) {
  double log_sum = 0;
  int n = 0;
  for (auto& t : tasks)
    if (t.verified && t.speedup > 0) log_sum += std::log(t.speedup), ++n;
  return n ? std::exp(log_sum / n) : 0;
}

}  // namespace cutegen
