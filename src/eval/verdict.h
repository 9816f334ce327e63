// Turning the worker's numbers into verdicts: tolerances, accuracy against eager, and a hint
// at the pattern of a wrong answer (what the repair loop tells the LLM).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"

namespace cutegen {

struct Tolerance {
  double atol = 1e-2;
  double rtol = 1e-2;
  double accuracy_factor = 10;  // may be at most this many times less accurate than eager vs float64
};
// "kernelbench" (1e-2, the KernelBench/CuTeGen convention), "strict" (1e-4) or "custom" (given values).
Result<Tolerance> tolerance_preset(const std::string& name, double atol, double rtol, double factor);

struct OutputStats {
  std::string name;
  long long numel = 0, bad = 0, nan = 0, first_bad = -1, last_bad = -1, bad_stride = 0;
  double max_abs = 0, mean_abs = 0;
  bool all_zero = false, eager_all_zero = false, transposed = false;
  bool has_ref64 = false;
  double rel_err = 0, eager_rel_err = 0;  // ||x - ref64|| / ||ref64||
};
OutputStats output_stats_from_json(const nlohmann::json& j);

struct OutputJudgement {
  bool pass = false;
  std::string reason;  // empty when passing
  std::string hint;    // "all zero", "unwritten (NaN poison left)", "tail region from index i", ...
};

// Passes when allclose holds everywhere AND the error against float64 is at most
// factor x eager's own (plus a floor so exact references don't demand exactness).
OutputJudgement judge_output(const OutputStats& s, const Tolerance& tol);
// That most error against float64, for eager's own error (0: exact).
double accuracy_limit(const Tolerance& tol, double eager_rel_err);
std::string pattern_hint(const OutputStats& s);
// One line for a failed output: "out: 1048576 of 4194304 wrong, first at 3145728, max |err| 1.2; hint: ...".
std::string describe_failure(const OutputStats& s, const OutputJudgement& j);

}  // namespace cutegen
