#include "task/loader.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "core/strings.h"
#include "sys/fs.h"
#include "sys/subprocess.h"
#include "sys/layout.h"

extern char** environ;

namespace cutegen {
namespace {

constexpr const char* kBridgeMarker = "bridge/cutegen_bridge/__main__.py";

// The whole environment, with the bridge put first on PYTHONPATH.
std::map<std::string, std::string> bridge_environment(const std::string& dir) {
  std::map<std::string, std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string kv = *e;
    auto eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  auto& path = env["PYTHONPATH"];
  path = path.empty() ? dir : dir + ":" + path;
  return env;
}

// A fresh file name for the bridge's answer; removed when this goes out of scope.
struct TempJson {
  std::string path;
  TempJson() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "cutegen-spec-XXXXXX").string();
    int fd = mkstemp(tmpl.data());
    if (fd >= 0) {
      close(fd);
      path = tmpl;
    }
  }
  ~TempJson() {
    if (!path.empty()) std::remove(path.c_str());
  }
};

std::string last_line(const std::string& text) {
  auto lines = split_lines(trim(text));
  return lines.empty() ? "" : trim(lines.back());
}

}  // namespace

std::string bridge_dir() {
  std::string p = locate_project_file(kBridgeMarker, kBridgeMarker);
  return p.empty() ? "" : std::filesystem::path(p).parent_path().parent_path().string();
}

Result<TaskSpec> load_task_spec(const std::string& task_path, const std::string& python, int64_t seed,
                                std::chrono::seconds timeout) {
  if (!file_exists(task_path)) return error(task_path + ": no such file");
  if (std::filesystem::is_directory(task_path)) return error(task_path + ": is a directory, not a task file");
  std::string dir = bridge_dir();
  if (dir.empty()) return error("cannot find the Python bridge (" + std::string(kBridgeMarker) + ")");
  TempJson out;
  if (out.path.empty()) return error("cannot create a temporary file for the task spec");
  auto r = run_process({.argv = {python, "-m", "cutegen_bridge", "spec", "--task", absolute_path(task_path), "--seed",
                                 std::to_string(seed), "--out", out.path},
                        .env = bridge_environment(dir),
                        .timeout = timeout});
  if (!r) return error("cannot run Python '" + python + "': " + r.message());
  if (r->timed_out) return error(task_path + ": describing the task " + r->describe());
  auto text = read_file(out.path);
  if (text && !trim(*text).empty()) return parse_task_spec(*text);
  return error("the task bridge failed (" + r->describe() + "): " + last_line(r->err));
}

}  // namespace cutegen
