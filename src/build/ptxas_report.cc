#include "build/ptxas_report.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <regex>

#include "core/strings.h"

namespace cutegen {

std::string demangle(const std::string& mangled) {
  int status = 0;
  char* d = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
  if (status != 0 || !d) return mangled;
  std::string out(d);
  std::free(d);
  return out;
}

std::vector<KernelResources> parse_ptxas_report(const std::string& log) {
  static const std::regex entry(R"(Compiling entry function '([^']+)')");
  static const std::regex props(R"(Function properties for (\S+))");
  static const std::regex frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(Used (\d+) registers)");
  static const std::regex smem(R"((\d+) bytes smem)");
  static const std::regex bars(R"(used (\d+) barriers)");
  std::vector<KernelResources> out;
  std::vector<std::string> entries;
  KernelResources* cur = nullptr;
  auto select = [&](const std::string& mangled) {
    for (auto& k : out)
      if (k.mangled == mangled) return cur = &k;
    out.push_back({.name = demangle(mangled), .mangled = mangled});
    return cur = &out.back();
  };
  for (auto& line : split_lines(log)) {
    std::smatch m;
    if (std::regex_search(line, m, entry)) {
      entries.push_back(m[1]);
      select(m[1]);
    } else if (std::regex_search(line, m, props)) {
      select(m[1]);
    } else if (cur && std::regex_search(line, m, frame)) {
      cur->stack_bytes = std::stoi(m[1]);
      cur->spill_stores = std::stoi(m[2]);
      cur->spill_loads = std::stoi(m[3]);
    } else if (cur && std::regex_search(line, m, used)) {
      cur->registers = std::stoi(m[1]);
      if (std::regex_search(line, m, smem)) cur->shared_bytes = std::stoi(m[1]);
      if (std::regex_search(line, m, bars)) cur->barriers = std::stoi(m[1]);
    }
  }
  // Non-inlined device functions get "Function properties" too; only kernels are reported.
  std::erase_if(out, [&](const KernelResources& k) {
    return std::find(entries.begin(), entries.end(), k.mangled) == entries.end();
  });
  return out;
}

}  // namespace cutegen
