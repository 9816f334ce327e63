#include "profile/ncu_runner.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <thread>

#include "core/hash.h"
#include "core/strings.h"
#include "sys/fs.h"
#include "sys/subprocess.h"

extern char** environ;

namespace cutegen {

const char* to_string(NcuOutcome o) {
  switch (o) {
    case NcuOutcome::kProfiled: return "profiled";
    case NcuOutcome::kNoNcu: return "no-ncu";
    case NcuOutcome::kCountersDenied: return "counters-denied";
    case NcuOutcome::kTargetFailed: return "target-failed";
    case NcuOutcome::kNoKernels: return "no-kernels";
    case NcuOutcome::kTimeout: return "timeout";
    case NcuOutcome::kBadOutput: return "bad-output";
  }
  return "?";
}

bool is_permanent(NcuOutcome o) { return o == NcuOutcome::kNoNcu || o == NcuOutcome::kCountersDenied; }

std::string find_ncu() {
  if (auto p = find_executable("ncu"); !p.empty()) return p;
  for (const char* p : {"/usr/local/cuda/bin/ncu", "/opt/nvidia/nsight-compute/ncu"})
    if (file_exists(p)) return p;
  return "";
}

std::vector<std::string> ncu_argv(const std::string& ncu, const NcuOptions& opt, const WorkerCommand& worker) {
  std::vector<std::string> argv = {ncu, "--csv", "--page", "raw", "--print-units", "base"};
  if (!opt.nvtx_range.empty()) argv.insert(argv.end(), {"--nvtx", "--nvtx-include", opt.nvtx_range + "/"});
  if (!opt.kernel_filter.empty()) argv.insert(argv.end(), {"--kernel-name", "regex:" + opt.kernel_filter});
  if (opt.launch_skip > 0) argv.insert(argv.end(), {"--launch-skip", std::to_string(opt.launch_skip)});
  if (opt.launch_count > 0) argv.insert(argv.end(), {"--launch-count", std::to_string(opt.launch_count)});
  argv.insert(argv.end(), {"--clock-control", opt.clock_control, "--metrics", curated_metric_list(opt.extended_metrics),
                           "--target-processes", "all"});
  argv.insert(argv.end(), worker.argv.begin(), worker.argv.end());
  return argv;
}

namespace {

struct Signature {
  const char* needle;
  NcuOutcome outcome;
  const char* message;  // the matching line is appended
};

// Scanned in order; the first needle found in ncu's output decides.
const std::vector<Signature>& signatures() {
  static const std::vector<Signature> table = {
      {"ERR_NVGPUCTRPERM", NcuOutcome::kCountersDenied,
       "GPU performance counters are not readable here (ERR_NVGPUCTRPERM): run as root, or load the nvidia "
       "module with NVreg_RestrictProfilingToAdminUsers=0 (containers also need CAP_SYS_ADMIN)"},
      {"Failed to find metric", NcuOutcome::kBadOutput,
       "this ncu does not know a requested metric (turn profile.extended_metrics off)"},
      {"No kernels were profiled", NcuOutcome::kNoKernels, "no kernel launch matched the NVTX range and kernel filter"},
      {"==ERROR==", NcuOutcome::kTargetFailed, "the profiled program failed under ncu"},
  };
  return table;
}

std::string line_with(const std::string& text, const std::string& needle) {
  for (auto& l : split_lines(text))
    if (contains(l, needle)) return trim(l);
  return "";
}

// Holds an flock on one file for as long as it lives.
class FileLock {
 public:
  ~FileLock() {
    if (fd_ >= 0) close(fd_);  // closing releases the lock
  }
  // Polls rather than blocks, so a wedged holder cannot hang us past `deadline`.
  bool acquire(const std::string& path, std::chrono::steady_clock::time_point deadline) {
    fd_ = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) return false;
    while (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      if (std::chrono::steady_clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return true;
  }

 private:
  int fd_ = -1;
};

std::map<std::string, std::string> child_environment(const WorkerCommand& worker) {
  std::map<std::string, std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string kv = *e;
    auto eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  for (auto& [k, v] : worker.env)
    env[k] = v;
  return env;
}

std::string cache_key(const NcuOptions& opt, const std::string& binary_hash, const std::string& salt) {
  Hasher h;
  h.add("cutegen-ncu-v1").add(binary_hash).add(salt);
  // Everything that changes what ncu measures, but not the ncu path or the worker's temp files.
  auto argv = ncu_argv("ncu", opt, WorkerCommand{});
  h.add(join(argv, " "));
  return h.hex();
}

}  // namespace

NcuRun interpret_ncu_output(const std::string& output, int exit_code, bool timed_out) {
  NcuRun run;
  if (timed_out) {
    run.outcome = NcuOutcome::kTimeout;
    run.message = "ncu did not finish in time and was killed with its target";
    return run;
  }
  for (auto& s : signatures()) {
    if (!contains(output, s.needle)) continue;
    run.outcome = s.outcome;
    run.message = std::string(s.message) + ": " + line_with(output, s.needle);
    return run;
  }
  auto table = parse_ncu_csv(output);
  if (!table) {
    run.message = "could not read ncu's CSV: " + table.message();
    return run;
  }
  if (exit_code != 0) {
    run.outcome = NcuOutcome::kTargetFailed;
    run.message = "ncu exited " + std::to_string(exit_code) + " without saying why";
    return run;
  }
  if (table->kernels.empty()) {
    run.outcome = NcuOutcome::kNoKernels;
    run.message = "ncu profiled no kernel launch";
    return run;
  }
  for (auto& row : table->kernels)
    run.kernels.push_back(counters_from_row(row));
  run.outcome = NcuOutcome::kProfiled;
  run.message =
      "profiled " + std::to_string(run.kernels.size()) + " kernel launch" + (run.kernels.size() == 1 ? "" : "es");
  return run;
}

Result<NcuRun> run_ncu(const NcuOptions& opt, const WorkerCommand& worker, const std::string& binary,
                       const std::string& salt) {
  std::string ncu = opt.ncu.empty() ? find_ncu() : find_executable(opt.ncu);
  if (!ncu.empty() && !file_exists(ncu)) ncu.clear();
  if (ncu.empty()) {
    NcuRun run;
    run.outcome = NcuOutcome::kNoNcu;
    run.message = (opt.ncu.empty() ? std::string("ncu (Nsight Compute) not found on PATH or in /usr/local/cuda/bin")
                                   : "ncu not found at '" + opt.ncu + "' (profile.ncu)") +
                  ": install Nsight Compute or set profile.ncu";
    return run;
  }
  auto bytes = CUTEGEN_TRY(read_file(binary));
  CUTEGEN_TRY(ensure_writable_dir(opt.cache_dir));
  std::string key = cache_key(opt, hash_hex(bytes), salt);
  std::string csv_path = opt.cache_dir + "/" + key + ".csv";
  if (auto cached = read_file(csv_path); cached.ok()) {
    NcuRun run = interpret_ncu_output(*cached, 0, false);
    if (run.ok()) {
      run.cache_hit = true;
      run.raw_path = csv_path;
      return run;
    }
  }

  auto deadline = std::chrono::steady_clock::now() + opt.timeout;
  FileLock lock;
  if (!lock.acquire(opt.cache_dir + "/ncu-gpu" + std::to_string(opt.gpu) + ".lock", deadline)) {
    NcuRun run;
    run.outcome = NcuOutcome::kTimeout;
    run.message = "another Nsight Compute run held GPU " + std::to_string(opt.gpu) + " for the whole " +
                  std::to_string(opt.timeout.count()) + " s limit (profile.timeout_s)";
    return run;
  }
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  ProcessSpec spec{.argv = ncu_argv(ncu, opt, worker),
                   .env = child_environment(worker),
                   .timeout = std::max(left, std::chrono::milliseconds(1))};
  auto proc = CUTEGEN_TRY(run_process(spec));
  std::string output = proc.out + "\n" + proc.err;
  NcuRun run = interpret_ncu_output(output, proc.signal ? 128 + proc.signal : proc.exit_code, proc.timed_out);
  run.wall_seconds = proc.wall_seconds;
  if (run.outcome == NcuOutcome::kTimeout)
    run.message += " (" + proc.describe() + "; limit profile.timeout_s = " + std::to_string(opt.timeout.count()) + ")";
  if (run.outcome == NcuOutcome::kNoKernels)
    run.message += " (NVTX range '" + opt.nvtx_range + "', kernel filter '" + opt.kernel_filter + "')";
  // The raw table goes on disk either way; only a good one becomes the cache entry.
  run.raw_path = opt.cache_dir + "/" + key + (run.ok() ? ".csv" : ".failed.txt");
  CUTEGEN_TRY(write_file_atomic(run.raw_path, run.ok() ? proc.out : output));
  return run;
}

}  // namespace cutegen
