#include "eval/verdict.h"

#include <cstdio>

namespace cutegen {

Result<Tolerance> tolerance_preset(const std::string& name, double atol, double rtol, double factor) {
  if (factor < 1) return error("eval.accuracy_factor must be >= 1, got " + std::to_string(factor));
  if (name == "kernelbench") return Tolerance{1e-2, 1e-2, factor};
  if (name == "strict") return Tolerance{1e-4, 1e-4, factor};
  if (name == "custom") {
    if (atol < 0 || rtol < 0) return error("eval.atol and eval.rtol must be >= 0");
    return Tolerance{atol, rtol, factor};
  }
  return error("unknown tolerance preset '" + name + "' (kernelbench, strict or custom)");
}

OutputStats output_stats_from_json(const nlohmann::json& j) {
  OutputStats s;
  s.name = j.value("name", "out");
  s.numel = j.value("numel", 0LL);
  s.bad = j.value("bad", 0LL);
  s.nan = j.value("nan", 0LL);
  s.first_bad = j.value("first_bad", -1LL);
  s.last_bad = j.value("last_bad", -1LL);
  s.bad_stride = j.value("bad_stride", 0LL);
  s.max_abs = j.value("max_abs", 0.0);
  s.mean_abs = j.value("mean_abs", 0.0);
  s.all_zero = j.value("all_zero", false);
  s.eager_all_zero = j.value("eager_all_zero", false);
  s.transposed = j.value("transposed", false);
  s.has_ref64 = j.contains("rel_err");
  s.rel_err = j.value("rel_err", 0.0);
  s.eager_rel_err = j.value("eager_rel_err", 0.0);
  return s;
}

std::string pattern_hint(const OutputStats& s) {
  if (s.bad == 0) return "";
  if (s.all_zero && !s.eager_all_zero) return "all zero";
  if (s.nan == s.numel) return "nothing written (every element still holds the NaN poison)";
  if (s.transposed) return "transposed (matches the reference with the last two dims swapped)";
  if (s.last_bad == s.numel - 1 && s.bad == s.numel - s.first_bad)
    return "tail region: every element from index " + std::to_string(s.first_bad) + " on is wrong" +
           (s.nan == s.bad ? " and unwritten (NaN poison left)" : "");
  if (s.bad_stride > 1) return "every " + std::to_string(s.bad_stride) + "-th element";
  if (s.nan > 0) return std::to_string(s.nan) + " elements unwritten (NaN poison left)";
  if (s.bad * 100 < s.numel) return "scattered (" + std::to_string(s.bad) + " elements)";
  return "widespread numerical error";
}

// An exact eager (error 0) still leaves room for float32 rounding.
double accuracy_limit(const Tolerance& tol, double eager_rel_err) {
  return tol.accuracy_factor * std::max(eager_rel_err, 1e-6);
}

OutputJudgement judge_output(const OutputStats& s, const Tolerance& tol) {
  OutputJudgement j;
  if (s.bad > 0) {
    j.reason = "not allclose (atol " + std::to_string(tol.atol).substr(0, 6) + ", rtol " +
               std::to_string(tol.rtol).substr(0, 6) + ")";
    j.hint = pattern_hint(s);
    return j;
  }
  double allowed = accuracy_limit(tol, s.eager_rel_err);
  if (s.has_ref64 && s.rel_err > allowed) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "less accurate than eager: error %.2e vs eager's %.2e against float64 (limit %gx)",
                  s.rel_err, s.eager_rel_err, tol.accuracy_factor);
    j.reason = buf;
    j.hint = "precision loss";
    return j;
  }
  j.pass = true;
  return j;
}

std::string describe_failure(const OutputStats& s, const OutputJudgement& j) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s: %lld of %lld wrong, first at flat index %lld, max |err| %.3g, mean |err| %.3g",
                s.name.c_str(), s.bad, s.numel, s.first_bad, s.max_abs, s.mean_abs);
  std::string out = s.bad ? std::string(buf) : s.name;
  out += "; " + j.reason;
  if (!j.hint.empty()) out += "; pattern: " + j.hint;
  return out;
}

}  // namespace cutegen
