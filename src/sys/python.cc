#include "sys/python.h"

#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "sys/fs.h"
#include "sys/subprocess.h"
#include "cutegen_paths.h"

namespace cutegen {

std::string python_executable(const std::string& configured) {
  if (!configured.empty()) return configured;
  for (auto& start : {executable_dir(), std::string(CUTEGEN_SOURCE_DIR)})
    if (auto p = find_upwards(start, ".deps/venv/bin/python3"); !p.empty()) return p;
  return "python3";
}

Result<PythonInfo> describe_python(const std::string& configured) {
  std::string py = python_executable(configured);
  const char* script =
      "import json, sys\n"
      "import torch\n"
      "ok = torch.cuda.is_available()\n"
      "print(json.dumps({'python': sys.version.split()[0], 'exe': sys.executable, 'torch': torch.__version__,\n"
      "  'cuda': torch.version.cuda or '', 'available': ok,\n"
      "  'device': torch.cuda.get_device_name(0) if ok else ''}))\n";
  auto r = run_process({.argv = {py, "-c", script}, .timeout = std::chrono::seconds(120)});
  if (!r) return error("no Python interpreter '" + py + "': " + r.message());
  if (!r->success()) {
    auto lines = split_lines(r->err);
    return error(py + ": cannot import torch (" + (lines.empty() ? r->describe() : trim(lines.back())) + ")");
  }
  try {
    auto j = nlohmann::json::parse(split_lines(r->out).back());
    return PythonInfo{j["exe"], j["python"], j["torch"], j["cuda"], j["available"], j["device"]};
  } catch (const std::exception& e) {
    return error(py + ": unexpected answer while reading torch's version");
  }
}

}  // namespace cutegen
