#include "sys/gpu.h"

#include "core/strings.h"
#include "sys/subprocess.h"

namespace cutegen {

std::vector<GpuInfo> parse_gpu_query(const std::string& csv) {
  std::vector<GpuInfo> out;
  for (auto& line : split_lines(csv)) {
    auto f = split(line, ',');
    if (f.size() < 5) continue;
    GpuInfo g;
    try {
      g.index = std::stoi(trim(f[0]));
      g.name = trim(f[1]);
      auto cc = split(trim(f[2]), '.');
      g.cc_major = std::stoi(cc.at(0));
      g.cc_minor = cc.size() > 1 ? std::stoi(cc[1]) : 0;
      g.memory_mib = std::stol(trim(f[3]));
      g.driver = trim(f[4]);
    } catch (const std::exception&) {
      continue;
    }
    out.push_back(g);
  }
  return out;
}

Result<std::vector<GpuInfo>> query_gpus() {
  std::string smi = find_executable("nvidia-smi");
  if (smi.empty()) return std::vector<GpuInfo>{};
  auto r = run_process(
      {.argv = {smi, "--query-gpu=index,name,compute_cap,memory.total,driver_version", "--format=csv,noheader,nounits"},
       .timeout = std::chrono::seconds(30)});
  if (!r) return r.err();
  if (!r->success()) {
    // nvidia-smi without a driver or device answers with an error; that means "no GPU here".
    return std::vector<GpuInfo>{};
  }
  return parse_gpu_query(r->out);
}

}  // namespace cutegen
