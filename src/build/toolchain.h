// Finds the CUDA compiler and the CUTLASS/CuTe headers, and reads their versions.
#pragma once

#include <functional>
#include <string>

#include "core/result.h"

namespace cutegen {

using EnvLookup = std::function<std::string(const std::string&)>;
std::string process_env(const std::string& name);

struct Toolchain {
  std::string nvcc;             // absolute path of nvcc
  std::string nvcc_version;     // e.g. "13.0.48"
  std::string cutlass_include;  // directory holding cute/ and cutlass/
  std::string cutlass_version;  // e.g. "4.2.0"
};

// CUDA_HOME/bin/nvcc, then CUDACXX, then nvcc on PATH, then /usr/local/cuda/bin/nvcc.
Result<std::string> find_nvcc(const EnvLookup& env = process_env);
Result<std::string> nvcc_version(const std::string& nvcc);

// CUTEGEN_CUTLASS_DIR (a checkout root or its include/), then `configured`, then the
// installed copy (PREFIX/share/cutegen/cutlass/include), then the bootstrap's .deps/cutlass/include
// (sys/layout.h: upwards from the executable, then the checkout).
Result<std::string> find_cutlass_include(const std::string& configured, const EnvLookup& env = process_env);
// Reads CUTLASS_MAJOR/MINOR/PATCH from cutlass/version.h.
Result<std::string> cutlass_version(const std::string& include_dir);

Result<Toolchain> discover_toolchain(const std::string& configured_cutlass, const EnvLookup& env = process_env);

}  // namespace cutegen
