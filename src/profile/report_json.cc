// The machine-readable form of a ProfileReport (`cutegen profile --json`); NaN becomes null.
#include "profile/summary.h"

namespace cutegen {

namespace {

nlohmann::json num(double v) { return is_reported(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

nlohmann::json kernel_json(const KernelCounters& k, const KernelVerdict& v) {
  nlohmann::json j = {{"name", k.name}, {"grid", k.grid}, {"block", k.block}, {"dram_bytes", num(k.dram_bytes())}};
  for (auto& f : metric_fields())
    j["metrics"][f.metric] = num(k.*f.field);
  nlohmann::json stalls = nlohmann::json::array();
  for (auto& s : k.stalls)
    stalls.push_back({{"reason", s.reason}, {"cycles", s.cycles}});
  j["stalls"] = stalls;
  j["occupancy_limiter"] = occupancy_limiter(k);
  j["verdict"] = {
      {"bound", name(v.bound)},
      {"bound_pct", v.bound_pct},
      {"why", v.why},
      {"dram_fraction_of_ceiling", v.dram_fraction < 0 ? nlohmann::json(nullptr) : nlohmann::json(v.dram_fraction)},
      {"lever", lever_for(v.bound)}};
  return j;
}

nlohmann::json static_json(const StaticProfile& s) {
  nlohmann::json kernels = nlohmann::json::array();
  for (auto& k : s.kernels) {
    auto& r = k.resources;
    nlohmann::json j = {{"name", r.name},
                        {"mangled", r.mangled},
                        {"registers", r.registers},
                        {"shared_bytes", r.shared_bytes},
                        {"stack_bytes", r.stack_bytes},
                        {"spill_stores", r.spill_stores},
                        {"spill_loads", r.spill_loads}};
    if (k.mix) {
      j["sass"] = {{"total", k.mix->total}};
      for (auto& c : instruction_classes())
        j["sass"][c.label] = k.mix->count(c.label);
    }
    kernels.push_back(j);
  }
  return {{"kernels", kernels}, {"sass_note", s.sass_note}};
}

}  // namespace

nlohmann::json report_json(const ProfileReport& r) {
  nlohmann::json j = {{"static", static_json(r.statics)}, {"runtime_missing", r.runtime_missing}};
  j["timing_ms"] = r.timing_ms ? nlohmann::json(*r.timing_ms) : nlohmann::json(nullptr);
  if (!r.runtime) {
    j["runtime"] = nullptr;
    return j;
  }
  auto& rt = *r.runtime;
  nlohmann::json kernels = nlohmann::json::array();
  for (size_t i = 0; i < rt.kernels.size(); ++i)
    kernels.push_back(kernel_json(rt.kernels[i], rt.verdicts[i]));
  auto neg_null = [](double v) { return v < 0 ? nlohmann::json(nullptr) : nlohmann::json(v); };
  auto& f = rt.forward;
  j["runtime"] = {{"kernels", kernels},
                  {"raw_path", rt.raw_path},
                  {"cache_hit", rt.cache_hit},
                  {"forward",
                   {{"total_ns", f.total_ns},
                    {"dram_bytes", f.dram_bytes},
                    {"min_bytes", r.cost.min_bytes},
                    {"excess_traffic", neg_null(f.excess_traffic)},
                    {"ideal_ns", neg_null(f.ideal_ns)},
                    {"ceiling_fraction", neg_null(f.ceiling_fraction)},
                    {"ideal_limit", f.ideal_limit ? name(*f.ideal_limit) : ""},
                    {"dominant", name(f.dominant)}}}};
  return j;
}

}  // namespace cutegen
