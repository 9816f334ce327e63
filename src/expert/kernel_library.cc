#include "expert/kernel_library.h"

#include <set>

#include "core/strings.h"

namespace cutegen {
namespace {

Status inline_into(const std::string& text, const std::string& from, std::set<std::string>& seen, std::string& out) {
  for (auto& line : split_lines(text)) {
    const std::string t = trim(line);
    if (t == "#pragma once") continue;
    if (t.rfind("#include \"", 0) == 0) {
      std::string path = t.substr(10, t.find('"', 10) - 10);
      // As the compiler looks: beside the including file first, then from the library's root.
      if (auto slash = from.rfind('/'); slash != std::string::npos) {
        std::string beside = from.substr(0, slash + 1) + path;
        if (kernel_library().count(beside)) path = beside;
      }
      auto it = kernel_library().find(path);
      if (it == kernel_library().end())
        return error(from + ": includes \"" + path + "\", which kernels/ does not hold");
      if (seen.insert(path).second) CUTEGEN_TRY(inline_into(it->second, path, seen, out));
      continue;
    }
    out += line + "\n";
  }
  return Ok{};
}

}  // namespace

Result<std::string> render_instance(const std::string& name, const TemplateVars& vars) {
  auto it = kernel_library().find(name);
  if (it == kernel_library().end()) return error("kernels/" + name + ": no such instance template");
  return render_template(it->second, vars, "kernels/" + name);
}

Result<std::string> inline_library(const std::string& source) {
  std::set<std::string> seen;
  std::string out;
  CUTEGEN_TRY(inline_into(source, "the instance", seen, out));
  return out;
}

}  // namespace cutegen
