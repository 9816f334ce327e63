#include "eval/roofline.h"

#include <algorithm>
#include <cctype>

namespace cutegen {

Result<Ceilings> ceilings_from_json(const nlohmann::json& j) {
  try {
    Ceilings c;
    c.device = j.value("device", "");
    c.copy_bytes_per_s = j.at("copy_bytes_per_s");
    c.bf16_flops_per_s = j.at("bf16_flops_per_s");
    c.fp16_flops_per_s = j.at("fp16_flops_per_s");
    c.tf32_flops_per_s = j.at("tf32_flops_per_s");
    c.fp32_flops_per_s = j.at("fp32_flops_per_s");
    if (c.copy_bytes_per_s <= 0) return error("ceilings: copy bandwidth must be positive");
    return c;
  } catch (const std::exception& e) {
    return error(std::string("ceilings: ") + e.what());
  }
}

std::string ceilings_cache_path(const std::string& dir, const std::string& device) {
  std::string name = device;
  for (auto& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return dir + "/" + name + ".json";
}

nlohmann::json to_json(const Ceilings& c) {
  return {{"device", c.device},
          {"copy_bytes_per_s", c.copy_bytes_per_s},
          {"bf16_flops_per_s", c.bf16_flops_per_s},
          {"fp16_flops_per_s", c.fp16_flops_per_s},
          {"tf32_flops_per_s", c.tf32_flops_per_s},
          {"fp32_flops_per_s", c.fp32_flops_per_s}};
}

std::string math_rate_name(const std::string& math_dtype) {
  if (math_dtype == "bfloat16") return "bf16";
  if (math_dtype == "float16") return "fp16";
  if (math_dtype == "float64") return "fp64";
  return "tf32";
}

Roofline roofline(double min_bytes, double flops, const std::string& math_dtype, const Ceilings& c) {
  Roofline r;
  r.memory_ms = min_bytes / c.copy_bytes_per_s * 1e3;
  r.math_rate = math_rate_name(math_dtype);
  double rate = r.math_rate == "bf16"   ? c.bf16_flops_per_s
                : r.math_rate == "fp16" ? c.fp16_flops_per_s
                : r.math_rate == "fp64" ? c.fp32_flops_per_s / 2  // no fp64 measurement: half of fp32
                                        : c.tf32_flops_per_s;
  r.compute_ms = rate > 0 ? flops / rate * 1e3 : 0;
  r.floor_ms = std::max(r.memory_ms, r.compute_ms);
  r.bound = r.compute_ms > r.memory_ms ? RooflineLimit::kCompute : RooflineLimit::kMemory;
  return r;
}

double roofline_fraction(const Roofline& r, double measured_ms) {
  return measured_ms > 0 ? r.floor_ms / measured_ms : 0;
}

bool impossible(const Roofline& r, double measured_ms, double slack) {
  return measured_ms > 0 && measured_ms < r.floor_ms * slack;
}

}  // namespace cutegen
