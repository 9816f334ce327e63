#include "profile/metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/strings.h"

namespace cutegen {

bool is_reported(double v) { return !std::isnan(v); }

const std::vector<MetricField>& metric_fields() {
  using K = KernelCounters;
  static const std::vector<MetricField> table = {
      {"gpu__time_duration.sum", &K::duration_ns, false},
      {"sm__throughput.avg.pct_of_peak_sustained_elapsed", &K::sm_throughput_pct, false},
      {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", &K::memory_throughput_pct, false},
      {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", &K::dram_throughput_pct, false},
      {"dram__bytes.sum.per_second", &K::dram_bytes_per_s, false},
      {"sm__warps_active.avg.pct_of_peak_sustained_active", &K::achieved_occupancy_pct, false},
      {"sm__maximum_warps_per_active_cycle_pct", &K::theoretical_occupancy_pct, false},
      {"launch__occupancy_limit_registers", &K::limit_registers, false},
      {"launch__occupancy_limit_shared_mem", &K::limit_shared_mem, false},
      {"launch__occupancy_limit_warps", &K::limit_warps, false},
      {"launch__occupancy_limit_blocks", &K::limit_blocks, false},
      {"launch__occupancy_limit_barriers", &K::limit_barriers, false},
      {"launch__registers_per_thread", &K::registers_per_thread, false},
      {"launch__shared_mem_per_block", &K::shared_bytes_per_block, false},
      {"launch__block_size", &K::block_size, false},
      {"launch__grid_size", &K::grid_size, false},
      {"launch__waves_per_multiprocessor", &K::waves_per_sm, false},
      {"launch__sm_count", &K::sm_count, false},
      {"l1tex__t_sector_hit_rate.pct", &K::l1_hit_pct, false},
      {"lts__t_sector_hit_rate.pct", &K::l2_hit_pct, false},
      {"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", &K::tensor_pipe_pct, false},
      {"dram__bytes_read.sum", &K::dram_read_bytes, true},
      {"dram__bytes_write.sum", &K::dram_write_bytes, true},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", &K::shared_ld_conflicts, true},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", &K::shared_st_conflicts, true},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", &K::shared_wavefronts, true},
  };
  return table;
}

const std::vector<std::string>& stall_reasons() {
  // "selected" and "not_selected" are not stalls: they mean the scheduler had work to pick.
  static const std::vector<std::string> reasons = {
      "barrier",        "branch_resolving", "dispatch_stall",     "drain",        "gmma",         "imc_miss",
      "lg_throttle",    "long_scoreboard",  "math_pipe_throttle", "membar",       "mio_throttle", "misc",
      "no_instruction", "short_scoreboard", "sleeping",           "tex_throttle", "wait",
  };
  return reasons;
}

std::string stall_metric(const std::string& reason) {
  return "smsp__average_warps_issue_stalled_" + reason + "_per_issue_active.ratio";
}

std::string curated_metric_list(bool extended) {
  std::vector<std::string> names;
  for (auto& f : metric_fields())
    if (extended || !f.extended) names.push_back(f.metric);
  for (auto& r : stall_reasons())
    names.push_back(stall_metric(r));
  return join(names, ",");
}

double KernelCounters::dram_bytes() const {
  if (is_reported(dram_read_bytes) && is_reported(dram_write_bytes)) return dram_read_bytes + dram_write_bytes;
  if (is_reported(dram_bytes_per_s) && is_reported(duration_ns)) return dram_bytes_per_s * duration_ns * 1e-9;
  return std::numeric_limits<double>::quiet_NaN();
}

namespace {

// ncu prints base units under --print-units base (what the runner asks for); other runs may
// scale them. Durations are kept in ns, byte counts and rates in bytes.
double to_base_unit(const Measure& m) {
  static const std::vector<std::pair<const char*, double>> scales = {
      {"usecond", 1e3}, {"us", 1e3},     {"msecond", 1e6}, {"ms", 1e6}, {"second", 1e9}, {"Kbyte", 1e3}, {"Mbyte", 1e6},
      {"Gbyte", 1e9},   {"Tbyte", 1e12}, {"KB", 1e3},      {"MB", 1e6}, {"GB", 1e9},     {"TB", 1e12},
  };
  for (auto& [unit, factor] : scales)
    if (m.unit == unit || m.unit == std::string(unit) + "/s" || m.unit == std::string(unit) + "/second")
      return m.value * factor;
  return m.value;
}

}  // namespace

KernelCounters counters_from_row(const NcuKernelRow& row) {
  KernelCounters k;
  k.name = row.name;
  auto text = [&](const char* m) {
    auto it = row.metrics.find(m);
    return it == row.metrics.end() ? std::string() : it->second.text;
  };
  auto number = [&](const std::string& m) {
    auto it = row.metrics.find(m);
    return it != row.metrics.end() && it->second.numeric ? to_base_unit(it->second)
                                                         : std::numeric_limits<double>::quiet_NaN();
  };
  k.grid = text("Grid Size");
  k.block = text("Block Size");
  for (auto& f : metric_fields())
    k.*f.field = number(f.metric);
  for (auto& r : stall_reasons())
    if (double v = number(stall_metric(r)); is_reported(v)) k.stalls.push_back({r, v});
  std::stable_sort(k.stalls.begin(), k.stalls.end(),
                   [](const WarpStall& a, const WarpStall& b) { return a.cycles > b.cycles; });
  return k;
}

}  // namespace cutegen
