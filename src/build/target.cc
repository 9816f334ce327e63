#include "build/target.h"

#include <regex>

namespace cutegen {

std::string Target::name() const {
  return "sm_" + std::to_string(major) + std::to_string(minor) + (arch_specific ? "a" : "");
}

std::string Target::gencode_flag() const {
  std::string cc = std::to_string(major) + std::to_string(minor) + (arch_specific ? "a" : "");
  return "-gencode=arch=compute_" + cc + ",code=sm_" + cc;
}

ArchLimits Target::limits() const {
  ArchLimits hw;
  if (major < 9) hw.sm_count = 108, hw.smem_per_cta = 163 << 10;  // sm_80's A100
  return hw;
}

Result<Target> parse_target(const std::string& text) {
  std::smatch m;
  static const std::regex sm(R"((?:sm_|compute_)?([0-9]{2,3})(a?))");
  static const std::regex dotted(R"(([0-9]+)\.([0-9]))");
  if (std::regex_match(text, m, sm)) {
    std::string digits = m[1].str();
    return Target{std::stoi(digits.substr(0, digits.size() - 1)), digits.back() - '0', m[2].length() > 0};
  }
  if (std::regex_match(text, m, dotted)) return target_for_compute_capability(std::stoi(m[1]), std::stoi(m[2]));
  return error("unknown GPU target '" + text + "' (expected e.g. sm_90a, sm_80 or 9.0)");
}

Target target_for_compute_capability(int major, int minor) {
  // Hopper and later get their arch-specific target so wgmma and friends are available.
  return Target{major, minor, major >= 9};
}

std::string arch_specific_feature(const std::string& source) {
  static const std::regex re(R"(\b(wgmma|SM90_64x\w*|GMMA|warpgroup_arrive|setmaxnreg|warpgroup_reg_alloc)\b)");
  std::smatch m;
  return std::regex_search(source, m, re) ? m[1].str() : "";
}

Status check_target_fits_source(const Target& target, const std::string& source) {
  if (target.major != 9 || target.arch_specific) return Ok{};
  if (auto f = arch_specific_feature(source); !f.empty())
    return error("the kernel uses " + f +
                 ", which needs sm_90a; a plain sm_90 build compiles but traps at run time "
                 "(use --arch sm_90a)");
  return Ok{};
}

}  // namespace cutegen
