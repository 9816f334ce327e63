// KernelBench's aggregates over a run's tasks: fast_p, the share of all tasks whose kernel is
// verified and faster than the baseline by more than p (fast_0 is the share verified), and the
// geometric mean speedup of the verified kernels.
#pragma once

#include <vector>

namespace cutegen {

struct TaskSpeedup {
  bool verified = false;
  double speedup = 0;  // the re-measured speedup of the task's kernel; 0: not measured
};

double fast_p(const std::vector<TaskSpeedup>& tasks, double p);
// 0 when no verified kernel has a measured speedup.
double geomean_speedup(const std::vector<TaskSpeedup>& tasks);

}  // namespace cutegen
