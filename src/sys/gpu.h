// What GPUs this machine has, asked of nvidia-smi (no CUDA runtime needed in the tool itself).
#pragma once

#include <string>
#include <vector>

#include "core/result.h"

namespace cutegen {

struct GpuInfo {
  int index = 0;
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  long memory_mib = 0;
  std::string driver;
};

// An empty list when nvidia-smi is absent or sees no GPU; an error only when it misbehaves.
Result<std::vector<GpuInfo>> query_gpus();
std::vector<GpuInfo> parse_gpu_query(const std::string& csv);

}  // namespace cutegen
