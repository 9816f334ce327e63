#include "sys/layout.h"

#include <filesystem>

#include "sys/fs.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

bool is_under(const std::string& path, const std::string& dir) {
  auto rel = std::filesystem::path(absolute_path(path)).lexically_relative(absolute_path(dir));
  return !rel.empty() && *rel.begin() != "..";
}

}  // namespace

std::string install_share_dir() {
  return absolute_path(std::filesystem::path(executable_dir()).parent_path().string() + "/share/cutegen");
}

std::string locate_project_file(const std::string& install_relative, const std::string& checkout_relative) {
  if (std::string p = install_share_dir() + "/" + install_relative; file_exists(p)) return p;
  for (const std::string& start : {executable_dir(), std::string(CUTEGEN_SOURCE_DIR)})
    if (std::string p = find_upwards(start, checkout_relative); !p.empty()) return p;
  return "";
}

std::string project_file_origin(const std::string& path) {
  if (is_under(path, install_share_dir())) return "install";
  if (is_under(path, CUTEGEN_SOURCE_DIR)) return "checkout";
  if (is_under(path, std::filesystem::path(executable_dir()).parent_path().string())) return "install";  // PREFIX/bin
  return "elsewhere";
}

}  // namespace cutegen
