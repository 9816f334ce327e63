#include "profile/roofline.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "sys/fs.h"

namespace cutegen {

namespace {

constexpr double kBoundPct = 60;         // ncu's own rule of thumb for "this unit is the limit"
constexpr double kLaunchBoundNs = 5000;  // a kernel this short is mostly launch overhead
constexpr double kFewWaves = 0.5;        // a grid this small leaves most SMs idle

std::string fmt(const char* f, double a, double b = 0) {
  char buf[160];
  std::snprintf(buf, sizeof buf, f, a, b);
  return buf;
}

}  // namespace

RooflineCeilings ceilings_from_json_text(const std::string& text, const std::string& source) {
  RooflineCeilings c;
  c.source = source;
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object()) return c;
  for (auto& [key, value] : j.items()) {
    if (!value.is_number()) continue;
    double v = value.get<double>();
    if (key == "copy_TBps") c.dram_bytes_per_s = v * 1e12;
    // The evaluator's measured ceilings (cutegen's cache): copy_bytes_per_s, <dtype>_flops_per_s.
    if (key == "copy_bytes_per_s") c.dram_bytes_per_s = v;
    if (auto at = key.rfind("_flops_per_s"); at != std::string::npos && at + 12 == key.size())
      c.flops_per_s[key.substr(0, at)] = std::max(c.flops_per_s[key.substr(0, at)], v);
    // mm_<dtype>_<size>_TFLOPs: keep the best size per dtype.
    if (key.rfind("mm_", 0) == 0 && key.size() > 7 && key.substr(key.size() - 7) == "_TFLOPs") {
      std::string dtype = key.substr(3, key.find('_', 3) - 3);
      c.flops_per_s[dtype] = std::max(c.flops_per_s[dtype], v * 1e12);
    }
  }
  return c;
}

Result<RooflineCeilings> load_ceilings(const std::string& path) {
  auto text = CUTEGEN_TRY(read_file(path));
  RooflineCeilings c = ceilings_from_json_text(text, path);
  if (!c.known()) return error(path + ": no copy_TBps ceiling in it");
  return c;
}

KernelVerdict classify(const KernelCounters& k, const RooflineCeilings& c) {
  KernelVerdict v;
  double sm = is_reported(k.sm_throughput_pct) ? k.sm_throughput_pct : 0;
  double mem = is_reported(k.memory_throughput_pct) ? k.memory_throughput_pct : 0;
  double bytes = k.dram_bytes();
  if (c.known() && is_reported(bytes) && k.duration_ns > 0)
    v.dram_fraction = bytes / (k.duration_ns * 1e-9) / c.dram_bytes_per_s;
  if (std::max(sm, mem) >= kBoundPct) {
    v.bound = mem >= sm ? Bound::kMemory : Bound::kCompute;
    v.bound_pct = std::max(sm, mem);
    v.why = fmt(mem >= sm ? "memory at %.1f%% of peak (SM %.1f%%)" : "SM at %.1f%% of peak (memory %.1f%%)",
                std::max(sm, mem), std::min(sm, mem));
    return v;
  }
  v.bound = Bound::kLatency;
  v.bound_pct = std::max(sm, mem);
  if (is_reported(k.waves_per_sm) && k.waves_per_sm < kFewWaves)
    v.why = fmt("launch-bound: the grid fills %.0f%% of one wave, most SMs idle (SM %.1f%%)", k.waves_per_sm * 100, sm);
  else if (is_reported(k.duration_ns) && k.duration_ns < kLaunchBoundNs)
    v.why = fmt("launch-bound: %.1f us is mostly launch overhead (memory %.1f%%)", k.duration_ns / 1e3, mem);
  else
    v.why = fmt("neither unit busy (SM %.1f%%, memory %.1f%% of peak): warps wait on latency", sm, mem);
  return v;
}

ForwardVerdict analyze_forward(const std::vector<KernelCounters>& kernels, const TaskCost& cost,
                               const RooflineCeilings& c) {
  ForwardVerdict f;
  double longest = -1;
  for (auto& k : kernels) {
    if (is_reported(k.duration_ns)) f.total_ns += k.duration_ns;
    if (double b = k.dram_bytes(); is_reported(b)) f.dram_bytes += b;
    if (is_reported(k.duration_ns) && k.duration_ns > longest) {
      longest = k.duration_ns;
      f.dominant = classify(k, c).bound;
    }
  }
  if (cost.min_bytes > 0) f.excess_traffic = f.dram_bytes / cost.min_bytes;
  if (!c.known() || f.total_ns <= 0) return f;
  double mem_ns = cost.min_bytes / c.dram_bytes_per_s * 1e9;
  double compute_ns = 0;
  if (auto it = c.flops_per_s.find(cost.dtype); it != c.flops_per_s.end() && it->second > 0 && cost.flops > 0)
    compute_ns = cost.flops / it->second * 1e9;
  if (mem_ns <= 0 && compute_ns <= 0) return f;
  f.ideal_ns = std::max(mem_ns, compute_ns);
  f.ideal_limit = compute_ns > mem_ns ? RooflineLimit::kCompute : RooflineLimit::kMemory;
  f.ceiling_fraction = f.ideal_ns / f.total_ns;
  return f;
}

}  // namespace cutegen
