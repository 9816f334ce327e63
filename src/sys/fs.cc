#include "sys/fs.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace cutegen {
namespace fs = std::filesystem;

Result<std::string> read_file(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return error(path + ": no such file");
  if (fs::is_directory(path, ec)) return error(path + ": is a directory, expected a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) return error(path + ": cannot open: " + strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Status write_file_atomic(const std::string& path, const std::string& data) {
  fs::path p(path);
  std::error_code ec;
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return error(path + ": cannot write: " + strerror(errno));
    out << data;
    if (!out.flush()) return error(path + ": write failed: " + strerror(errno));
  }
  fs::rename(tmp, path, ec);
  if (ec) return error(path + ": cannot rename into place: " + ec.message());
  return Ok{};
}

Status make_dirs(const std::string& path) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec) return error(path + ": cannot create directory: " + ec.message());
  return Ok{};
}

Status ensure_writable_dir(const std::string& dir) {
  CUTEGEN_TRY(make_dirs(dir));
  std::string probe = dir + "/.write-probe-" + std::to_string(getpid());
  std::ofstream out(probe);
  if (!out) return error(dir + ": directory is not writable: " + strerror(errno));
  out.close();
  std::error_code ec;
  fs::remove(probe, ec);
  return Ok{};
}

bool file_exists(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

std::string executable_dir() {
  std::error_code ec;
  auto p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(".") : p.parent_path().string();
}

std::string find_upwards(const std::string& start, const std::string& relative) {
  std::error_code ec;
  for (fs::path dir = fs::absolute(start, ec); !dir.empty(); dir = dir.parent_path()) {
    if (fs::exists(dir / relative, ec)) return (dir / relative).string();
    if (dir == dir.root_path()) break;
  }
  return "";
}

std::string absolute_path(const std::string& path) {
  std::error_code ec;
  auto p = fs::absolute(path, ec);
  return ec ? path : p.lexically_normal().string();
}

}  // namespace cutegen
