#include "build/builder.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <thread>

#include "build/compile_slots.h"
#include "core/hash.h"
#include "core/strings.h"
#include "sys/fs.h"
#include "sys/subprocess.h"

namespace cutegen {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json to_json(const BuildResult& r) {
  json diags = json::array(), kernels = json::array();
  for (auto& d : r.diagnostics)
    diags.push_back({{"severity", d.severity},
                     {"file", d.file},
                     {"line", d.line},
                     {"message", d.message},
                     {"user_line", d.user_line},
                     {"user_source", d.user_source},
                     {"context", d.context}});
  for (auto& k : r.kernels)
    kernels.push_back({{"name", k.name},
                       {"mangled", k.mangled},
                       {"registers", k.registers},
                       {"shared_bytes", k.shared_bytes},
                       {"stack_bytes", k.stack_bytes},
                       {"spill_stores", k.spill_stores},
                       {"spill_loads", k.spill_loads},
                       {"barriers", k.barriers}});
  return {{"outcome", phrase(r.outcome)},
          {"message", r.message},
          {"compile_seconds", r.compile_seconds},
          {"diagnostics", diags},
          {"kernels", kernels}};
}

BuildResult from_json(const json& j) {
  BuildResult r;
  auto outcome = parse_name<BuildOutcome>(j.at("outcome").get<std::string>());
  if (!outcome) throw std::runtime_error("unknown build outcome");  // a damaged entry: rebuilt
  r.outcome = *outcome;
  r.message = j.at("message");
  r.compile_seconds = j.at("compile_seconds");
  for (auto& d : j.at("diagnostics"))
    r.diagnostics.push_back({d.at("severity"), d.at("file"), d.at("line"), d.at("message"), d.at("user_line"),
                             d.at("user_source"), d.at("context").get<std::vector<std::string>>()});
  for (auto& k : j.at("kernels"))
    r.kernels.push_back({k.at("name"), k.at("mangled"), k.at("registers"), k.at("shared_bytes"), k.at("stack_bytes"),
                         k.at("spill_stores"), k.at("spill_loads"), k.at("barriers")});
  return r;
}

std::string first_error_line(const std::vector<Diagnostic>& diags, const std::string& name) {
  for (auto& d : diags)
    if (d.severity == "error") return name + (d.user_line ? ":" + std::to_string(d.user_line) : "") + ": " + d.message;
  return "nvcc failed (see the log)";
}

// Whether nvcc's output says the compile failed for a reason outside the source: a file it reads
// is missing or unreadable (headers moved or reinstalled mid-build), the disk is full, memory ran
// out. Such failures are not cached, nor replayed from the cache, so that the same source compiles
// again once the machine is mended.
bool environment_failure(std::string_view output) {
  for (std::string_view sign : {"cannot open source file", "No such file or directory", "Permission denied",
                                "No space left on device", "Cannot allocate memory", "out of memory"})
    if (contains(output, sign)) return true;
  return false;
}

}  // namespace

double available_memory_gib() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  long kb;
  std::string unit;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb / (1024.0 * 1024.0);
  return 0;
}

Builder::Builder(Toolchain toolchain, BuilderOptions options) : tc_(std::move(toolchain)), opt_(std::move(options)) {
  // nvcc runs inside the build's own folder: a relative cache path would point elsewhere there.
  if (!opt_.cache_dir.empty()) opt_.cache_dir = std::filesystem::absolute(opt_.cache_dir).lexically_normal().string();
}

std::vector<std::string> kernel_flags(const Target& target) {
  return {"-std=c++17", "-O3",     "-DNDEBUG", "--expt-relaxed-constexpr", target.gencode_flag(), "-Xcompiler",
          "-fPIC",      "-shared", "-lineinfo"};
}

std::vector<std::string> Builder::flags(const Target& target) const {
  auto f = kernel_flags(target);
  f.insert(f.begin() + 4, "-I" + tc_.cutlass_include);  // where it always stood: cache keys stay the same
  f.insert(f.end(), {"-Xptxas", "-v"});
  return f;
}

std::string Builder::cache_key(const BuildRequest& req) const {
  Hasher h;
  h.add("cutegen-build-v1").add(req.source).add(req.force_include).add(join(flags(req.target), " "));
  h.add(tc_.nvcc_version).add(tc_.cutlass_version);
  return h.hex();
}

int Builder::parallel_jobs() const {
  if (opt_.jobs > 0) return opt_.jobs;
  int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  double mem = available_memory_gib();
  int by_mem = mem > 0 ? std::max(1, static_cast<int>(mem / opt_.gib_per_compile)) : cores;
  return std::max(1, std::min(cores, by_mem));
}

Result<BuildResult> Builder::build(const BuildRequest& req) const {
  std::string key = cache_key(req);
  std::string dir = opt_.cache_dir + "/builds/" + key.substr(0, 2) + "/" + key;
  if (auto meta = read_file(dir + "/build.json"); meta.ok()) {
    try {
      BuildResult r = from_json(json::parse(*meta));
      r.cache_hit = true;
      r.key = key;
      r.log_path = dir + "/nvcc.log";
      if (r.ok()) r.library_path = dir + "/kernel.so";
      if (r.ok() && file_exists(r.library_path)) return r;
      // A failure replays, unless its log puts it on the machine (entries from before such
      // failures were kept out of the cache).
      auto log = read_file(r.log_path);
      if (!r.ok() && log.ok() && !environment_failure(*log)) return r;
    } catch (const std::exception&) {
      // A damaged entry is rebuilt below.
    }
    std::error_code ec;
    fs::remove_all(dir, ec);  // so that the rebuilt entry can take its place
  }
  if (auto st = check_target_fits_source(req.target, req.source); !st) {
    BuildResult r;
    r.outcome = BuildOutcome::kRefused;
    r.key = key;
    r.message = st.message();
    return r;
  }
  return compile(req, key, dir);
}

Result<BuildResult> Builder::compile(const BuildRequest& req, const std::string& key, const std::string& dir) const {
  // Compile in a private folder and rename it into place: concurrent builders never see halves.
  static std::atomic<int> counter{0};
  std::string work = dir + ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter++);
  CUTEGEN_TRY(make_dirs(work));
  std::string src = work + "/kernel.cu";
  CUTEGEN_TRY(write_file_atomic(src, req.source));
  std::vector<std::string> argv = {tc_.nvcc};
  for (auto& f : flags(req.target))
    argv.push_back(f);
  if (!req.force_include.empty()) {
    CUTEGEN_TRY(write_file_atomic(work + "/cutegen_abi.h", req.force_include));
    argv.insert(argv.end(), {"-include", work + "/cutegen_abi.h"});
  }
  argv.insert(argv.end(), {src, "-o", work + "/kernel.so"});

  // One pool for the machine: processes running tasks on other GPUs compile from it too.
  auto slot = CompileSlot::acquire(opt_.cache_dir + "/compile-slots", parallel_jobs());
  // Niced: an evaluation timing a kernel beside this compile keeps its clock (docs/decisions.md).
  auto proc = CUTEGEN_TRY(run_process({.argv = argv, .cwd = work, .timeout = opt_.timeout, .nice = 10}));
  std::string log = join(argv, " ") + "\n" + proc.out + proc.err;
  CUTEGEN_TRY(write_file_atomic(work + "/nvcc.log", log));

  BuildResult r;
  r.key = key;
  r.compile_seconds = proc.wall_seconds;
  r.diagnostics = condense_diagnostics(proc.err + proc.out, src, req.source);
  r.kernels = parse_ptxas_report(proc.err);
  if (proc.timed_out) {
    r.outcome = BuildOutcome::kTimeout;
    r.message = "nvcc " + proc.describe();
  } else if (!proc.success()) {
    r.outcome = BuildOutcome::kCompileError;
    r.message = first_error_line(r.diagnostics, req.display_name);
  } else {
    r.outcome = BuildOutcome::kBuilt;
    r.message = "built";
  }
  // Timeouts are not cached, nor is nvcc killed or failing on the machine: the next attempt may
  // have more time, a less loaded machine, or the missing file back.
  const bool cacheable = r.outcome == BuildOutcome::kBuilt ||
                         (r.outcome == BuildOutcome::kCompileError && proc.signal == 0 && !environment_failure(log));
  if (cacheable) {
    CUTEGEN_TRY(write_file_atomic(work + "/build.json", to_json(r).dump(1)));
    std::error_code ec;
    fs::create_directories(fs::path(dir).parent_path(), ec);
    fs::rename(work, dir, ec);
    if (ec) fs::remove_all(work, ec);  // another process won the race; its entry is identical
  }
  std::string final_dir = cacheable ? dir : work;
  r.log_path = final_dir + "/nvcc.log";
  if (r.ok()) r.library_path = final_dir + "/kernel.so";
  return r;
}

std::vector<Result<BuildResult>> Builder::build_all(const std::vector<BuildRequest>& reqs) const {
  // Identical requests share one compile: build each distinct key once, then fan the results out.
  std::vector<size_t> first_of(reqs.size());
  std::vector<size_t> unique;
  std::map<std::string, size_t> by_key;
  for (size_t i = 0; i < reqs.size(); ++i) {
    auto [it, inserted] = by_key.emplace(cache_key(reqs[i]), unique.size());
    if (inserted) unique.push_back(i);
    first_of[i] = it->second;
  }
  std::vector<std::optional<Result<BuildResult>>> results(unique.size());
  std::atomic<size_t> next{0};
  auto worker = [&]() {
    for (size_t u; (u = next++) < unique.size();)
      results[u] = build(reqs[unique[u]]);
  };
  std::vector<std::thread> threads;
  int n = std::min<int>(parallel_jobs(), static_cast<int>(unique.size()));
  for (int t = 0; t < n; ++t)
    threads.emplace_back(worker);
  for (auto& t : threads)
    t.join();
  std::vector<Result<BuildResult>> out;
  for (size_t i = 0; i < reqs.size(); ++i)
    out.push_back(*results[first_of[i]]);
  return out;
}

}  // namespace cutegen
