#include "task/loader.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "core/hash.h"
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

// The spec cache's key: the task file's path and bytes, the seed, the Python executable and the bridge's
// sources (torch's version is not in it: task.spec_cache's note says so).
std::string spec_key(const std::string& task_path, const std::string& task_text, int64_t seed,
                     const std::string& python, const std::string& dir) {
  Hasher h;
  h.add("cutegen-spec-v1").add(task_path).add(task_text).add(std::to_string(seed)).add(python);
  std::vector<std::filesystem::path> sources;
  std::error_code ec;
  for (auto& e : std::filesystem::directory_iterator(dir + "/cutegen_bridge", ec))
    if (e.path().extension() == ".py") sources.push_back(e.path());
  std::sort(sources.begin(), sources.end());
  for (auto& f : sources) {
    auto text = read_file(f.string());
    h.add(f.filename().string()).add(text ? *text : "");
  }
  return h.hex();
}

}  // namespace

std::string bridge_dir() {
  std::string p = locate_project_file(kBridgeMarker, kBridgeMarker);
  return p.empty() ? "" : std::filesystem::path(p).parent_path().parent_path().string();
}

Result<TaskSpec> load_task_spec(const std::string& task_path, const std::string& python, int64_t seed,
                                std::chrono::seconds timeout, const std::string& cache_dir) {
  if (!file_exists(task_path)) return error(task_path + ": no such file");
  if (std::filesystem::is_directory(task_path)) return error(task_path + ": is a directory, not a task file");
  std::string dir = bridge_dir();
  if (dir.empty()) return error("cannot find the Python bridge (" + std::string(kBridgeMarker) + ")");
  std::string cached;
  if (!cache_dir.empty()) {
    auto task_text = read_file(task_path);
    if (!task_text) return error(task_text.message());
    cached = cache_dir + "/" + spec_key(absolute_path(task_path), *task_text, seed, python, dir) + ".json";
    if (auto text = read_file(cached)) {
      if (auto spec = parse_task_spec(*text); spec.ok()) return spec;  // else described afresh below
    }
  }
  TempJson out;
  if (out.path.empty()) return error("cannot create a temporary file for the task spec");
  auto r = run_process({.argv = {python, "-m", "cutegen_bridge", "spec", "--task", absolute_path(task_path), "--seed",
                                 std::to_string(seed), "--out", out.path},
                        .env = bridge_environment(dir),
                        .timeout = timeout});
  if (!r) return error("cannot run Python '" + python + "': " + r.message());
  if (r->timed_out) return error(task_path + ": describing the task " + r->describe());
  auto text = read_file(out.path);
  if (text && !trim(*text).empty()) {
    auto spec = parse_task_spec(*text);
    // A cache that cannot be written costs only the next call's time.
    if (spec.ok() && !cached.empty() && make_dirs(cache_dir).ok()) (void)write_file_atomic(cached, *text);
    return spec;
  }
  return error("the task bridge failed (" + r->describe() + "): " + last_line(r->err));
}

}  // namespace cutegen
