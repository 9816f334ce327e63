// Per-kernel resource facts parsed from `-Xptxas -v`.
#pragma once

#include <string>
#include <vector>

namespace cutegen {

struct KernelResources {
  std::string name;  // demangled where possible
  std::string mangled;
  int registers = 0;
  int shared_bytes = 0;  // static shared memory
  int stack_bytes = 0;
  int spill_stores = 0;
  int spill_loads = 0;
  int barriers = 0;
};

std::vector<KernelResources> parse_ptxas_report(const std::string& log);
std::string demangle(const std::string& mangled);

}  // namespace cutegen
