// Physics: the fewest bytes a task must move and the FLOPs it must do, over the GPU's measured
// ceilings, give a floor no kernel can beat; a measurement below it is an error, not a win.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/outcomes.h"
#include "core/result.h"

namespace cutegen {

struct Ceilings {
  std::string device;
  double copy_bytes_per_s = 0;  // device copy, read + write counted
  double bf16_flops_per_s = 0, fp16_flops_per_s = 0, tf32_flops_per_s = 0, fp32_flops_per_s = 0;
};
Result<Ceilings> ceilings_from_json(const nlohmann::json& j);
// Where the measured ceilings of `device` are cached under `dir` ("NVIDIA H200" -> dir/NVIDIA_H200.json).
std::string ceilings_cache_path(const std::string& dir, const std::string& device);
nlohmann::json to_json(const Ceilings& c);

struct Roofline {
  double memory_ms = 0;   // min_bytes / bandwidth
  double compute_ms = 0;  // flops / the fastest legitimate math rate for the dtype
  double floor_ms = 0;    // the larger of the two
  RooflineLimit bound = RooflineLimit::kMemory;
  std::string math_rate;  // which peak was used ("tf32" for float32: the tolerance admits it)
};

// `math_dtype`: the lowest-precision floating dtype the task uses ("float32", "bfloat16", ...),
// so the floor assumes the fastest math the tolerance could admit.
Roofline roofline(double min_bytes, double flops, const std::string& math_dtype, const Ceilings& c);
// The math rate that bounds a dtype: "bf16", "fp16", "tf32" (float32: the tolerance admits TF32), "fp64".
std::string math_rate_name(const std::string& math_dtype);
// floor / measured: 1.0 means at the ceiling.
double roofline_fraction(const Roofline& r, double measured_ms);
// Faster than the floor by more than measurement slack can explain.
bool impossible(const Roofline& r, double measured_ms, double slack = 0.85);

}  // namespace cutegen
