#include "build/toolchain.h"

#include <cstdlib>
#include <filesystem>
#include <regex>

#include "core/strings.h"
#include "sys/fs.h"
#include "sys/subprocess.h"
#include "sys/layout.h"

namespace cutegen {

std::string process_env(const std::string& name) {
  const char* v = std::getenv(name.c_str());
  return v ? v : "";
}

Result<std::string> find_nvcc(const EnvLookup& env) {
  std::vector<std::string> tried;
  auto consider = [&](const std::string& path) -> std::string {
    if (path.empty()) return "";
    tried.push_back(path);
    return find_executable(path);
  };
  if (auto home = env("CUDA_HOME"); !home.empty())
    if (auto p = consider(home + "/bin/nvcc"); !p.empty()) return absolute_path(p);
  if (auto p = consider(env("CUDACXX")); !p.empty()) return absolute_path(p);
  if (auto p = find_executable("nvcc"); !p.empty()) return absolute_path(p);
  tried.push_back("nvcc on PATH");
  if (auto p = consider("/usr/local/cuda/bin/nvcc"); !p.empty()) return p;
  return error("nvcc not found (tried " + join(tried, ", ") + "); install the CUDA toolkit or set CUDA_HOME");
}

Result<std::string> nvcc_version(const std::string& nvcc) {
  auto r = run_process({.argv = {nvcc, "--version"}, .timeout = std::chrono::seconds(30)});
  if (!r) return r.err();
  std::smatch m;
  static const std::regex re(R"(release [0-9.]+, V([0-9.]+))");
  if (!r->success() || !std::regex_search(r->out, m, re))
    return error(nvcc + " --version gave no version (" + r->describe() + ")");
  return m[1].str();
}

Result<std::string> find_cutlass_include(const std::string& configured, const EnvLookup& env) {
  auto as_include = [](const std::string& dir) -> std::string {
    if (file_exists(dir + "/cute/tensor.hpp")) return absolute_path(dir);
    if (file_exists(dir + "/include/cute/tensor.hpp")) return absolute_path(dir + "/include");
    return "";
  };
  for (auto [what, dir] : {std::pair<std::string, std::string>{"CUTEGEN_CUTLASS_DIR", env("CUTEGEN_CUTLASS_DIR")},
                           {"build.cutlass_dir in the config", configured}}) {
    if (dir.empty()) continue;
    if (auto inc = as_include(dir); !inc.empty()) return inc;
    return error(what + " = " + dir + " holds no cute/tensor.hpp (expected a CUTLASS checkout or its include/)");
  }
  if (auto found = locate_project_file("cutlass/include/cute/tensor.hpp", ".deps/cutlass/include/cute/tensor.hpp");
      !found.empty())
    return std::filesystem::path(found).parent_path().parent_path().string();
  return error("CUTLASS/CuTe headers not found; run scripts/bootstrap or set CUTEGEN_CUTLASS_DIR");
}

Result<std::string> cutlass_version(const std::string& include_dir) {
  auto text = read_file(include_dir + "/cutlass/version.h");
  if (!text) return text.err();
  std::string parts[3];
  const char* names[3] = {"CUTLASS_MAJOR", "CUTLASS_MINOR", "CUTLASS_PATCH"};
  for (int i = 0; i < 3; ++i) {
    std::smatch m;
    std::regex re(std::string("#define ") + names[i] + R"(\s+([0-9]+))");
    if (!std::regex_search(*text, m, re)) return error(include_dir + "/cutlass/version.h: no " + names[i]);
    parts[i] = m[1].str();
  }
  return parts[0] + "." + parts[1] + "." + parts[2];
}

Result<Toolchain> discover_toolchain(const std::string& configured_cutlass, const EnvLookup& env) {
  Toolchain tc;
  tc.nvcc = CUTEGEN_TRY(find_nvcc(env));
  tc.nvcc_version = CUTEGEN_TRY(nvcc_version(tc.nvcc));
  tc.cutlass_include = CUTEGEN_TRY(find_cutlass_include(configured_cutlass, env));
  tc.cutlass_version = CUTEGEN_TRY(cutlass_version(tc.cutlass_include));
  return tc;
}

}  // namespace cutegen
