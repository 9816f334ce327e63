// Cheap checks that a file is CUDA source before nvcc spends seconds on it.
#pragma once

#include <string>

#include "core/result.h"

namespace cutegen {

// Reads `path` and rejects empty, binary and non-CUDA files with a one-line reason.
Result<std::string> read_cuda_source(const std::string& path);
Status check_cuda_source(const std::string& text, const std::string& name);

}  // namespace cutegen
