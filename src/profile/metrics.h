// The curated Nsight Compute metrics: the exact list the runtime profile asks for, and the
// per-kernel counters read back from them (with units kept in the raw table).
#pragma once

#include <string>
#include <vector>

#include "profile/ncu_csv.h"

namespace cutegen {

// A value ncu did not report (metric not collected, "n/a", "no data") is NaN; test with is_reported().
bool is_reported(double v);

struct WarpStall {
  std::string reason;  // "long_scoreboard", "barrier", ...
  double cycles = 0;   // warps stalled for this reason per issued instruction
};

struct KernelCounters {
  std::string name;
  std::string grid, block;  // "(2, 66, 1)"
  double duration_ns = 0;
  double sm_throughput_pct = 0;      // compute (SM) throughput, % of peak
  double memory_throughput_pct = 0;  // compute-memory throughput, % of peak (max of L1, L2, DRAM)
  double dram_throughput_pct = 0;
  double dram_bytes_per_s = 0;
  double dram_read_bytes = 0, dram_write_bytes = 0;  // extended metrics only
  double achieved_occupancy_pct = 0, theoretical_occupancy_pct = 0;
  // Blocks per SM each resource allows; the smallest is the occupancy limiter.
  double limit_registers = 0, limit_shared_mem = 0, limit_warps = 0, limit_blocks = 0, limit_barriers = 0;
  double registers_per_thread = 0, shared_bytes_per_block = 0, block_size = 0, grid_size = 0;
  double waves_per_sm = 0, sm_count = 0;
  double l1_hit_pct = 0, l2_hit_pct = 0;
  double tensor_pipe_pct = 0;  // tensor pipe cycles active, % of peak while the SM is active
  double shared_ld_conflicts = 0, shared_st_conflicts = 0, shared_wavefronts = 0;  // extended only
  std::vector<WarpStall> stalls;  // every reported stall, largest first

  double dram_bytes() const;  // read + write when known, else rate x duration
};

struct MetricField {
  const char* metric;
  double KernelCounters::*field;
  bool extended;  // asked for only when profile.extended_metrics is on (the default; names checked on the H200)
};

// The table behind both the --metrics list and the parser.
const std::vector<MetricField>& metric_fields();
// Warp-stall metric for each reason: smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio.
const std::vector<std::string>& stall_reasons();
std::string stall_metric(const std::string& reason);

// The comma-joined --metrics argument: every field, the launch facts and the stall metrics.
std::string curated_metric_list(bool extended);

KernelCounters counters_from_row(const NcuKernelRow& row);

}  // namespace cutegen
