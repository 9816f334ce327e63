// Locating the Python interpreter that holds torch (the reference side runs there).
#pragma once

#include <string>

#include "core/result.h"

namespace cutegen {

struct PythonInfo {
  std::string executable;
  std::string python_version;
  std::string torch_version;
  std::string torch_cuda;  // CUDA version torch was built with, or ""
  bool cuda_available = false;
  std::string device_name;
};

// `configured` if set; else the bootstrap's .deps/venv; else python3 on PATH.
std::string python_executable(const std::string& configured);
// Runs the interpreter once to read the versions; errors say what is missing.
Result<PythonInfo> describe_python(const std::string& configured);

}  // namespace cutegen
