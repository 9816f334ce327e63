// What bounds a kernel and how close a forward comes to the machine's achievable ceiling.
// RooflineCeilings are measured per GPU by the evaluator and handed in; nothing here knows a card.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/outcomes.h"
#include "core/result.h"
#include "profile/metrics.h"

namespace cutegen {

struct RooflineCeilings {
  double dram_bytes_per_s = 0;                // achievable copy bandwidth, read + write
  std::map<std::string, double> flops_per_s;  // by dtype: "bf16", "fp16", "fp32", "tf32"
  std::string source;                         // where the numbers came from
  bool known() const { return dram_bytes_per_s > 0; }
};

// Reads {"copy_TBps": 4.2, "mm_bf16_8192_TFLOPs": 798, ...}; per dtype the best size counts.
Result<RooflineCeilings> load_ceilings(const std::string& path);
RooflineCeilings ceilings_from_json_text(const std::string& text, const std::string& source);

// The task's own minimum cost (from its spec): every input read once, every output written once.
struct TaskCost {
  double min_bytes = 0;
  double flops = 0;
  std::string dtype;  // selects the compute ceiling; "" when the task has no matmul-like work
};

struct KernelVerdict {
  Bound bound = Bound::kLatency;
  double bound_pct = 0;       // throughput % of peak of the binding unit (ncu's peak)
  double dram_fraction = -1;  // achieved DRAM bandwidth / measured ceiling; -1 when unknown
  std::string why;            // one line
};

// Memory- or compute-bound when that unit runs at >= 60% of peak; below that on both,
// the kernel is waiting (latency), or too small to fill the GPU (launch-bound, said in `why`).
KernelVerdict classify(const KernelCounters& k, const RooflineCeilings& c);

struct ForwardVerdict {
  double total_ns = 0;
  double dram_bytes = 0;
  double excess_traffic = -1;                // measured DRAM bytes / the task's minimum; -1 when unknown
  double ideal_ns = -1;                      // max(min_bytes / bandwidth, flops / compute ceiling)
  double ceiling_fraction = -1;              // ideal_ns / total_ns: 1.0 is at the achievable roofline
  std::optional<RooflineLimit> ideal_limit;  // which term sets ideal_ns; none when ideal_ns is unknown
  Bound dominant = Bound::kLatency;          // the bound of the kernel that takes the most time
};

ForwardVerdict analyze_forward(const std::vector<KernelCounters>& kernels, const TaskCost& cost,
                               const RooflineCeilings& c);

}  // namespace cutegen
