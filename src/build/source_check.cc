#include "build/source_check.h"

#include <regex>

#include "core/strings.h"
#include "sys/fs.h"

namespace cutegen {

Status check_cuda_source(const std::string& text, const std::string& name) {
  if (trim(text).empty()) return error(name + ": file is empty");
  if (text.find('\0') != std::string::npos) return error(name + ": binary file, not CUDA source");
  static const std::regex python(R"((^|\n)(import \w|from [\w.]+ import |def \w+\(|class \w+\(\w))");
  if (std::regex_search(text, python) && !contains(text, "{"))
    return error(name + ": looks like Python, not CUDA C++ (a task file goes to `cutegen task`/`eval`)");
  if (!contains(text, "__global__")) return error(name + ": not a CUDA kernel source (no __global__ function)");
  return Ok{};
}

Result<std::string> read_cuda_source(const std::string& path) {
  auto text = CUTEGEN_TRY(read_file(path));
  CUTEGEN_TRY(check_cuda_source(text, path));
  return text;
}

}  // namespace cutegen
