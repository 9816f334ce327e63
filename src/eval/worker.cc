#include "eval/worker.h"

#include <unistd.h>

#include <mutex>

#include "core/strings.h"
#include "sys/fs.h"

namespace cutegen {

std::map<std::string, std::string> worker_environment(const WorkerOptions& opt) {
  // Only what Python, torch and CUDA need; nothing else reaches the candidate (no API keys).
  static const std::vector<std::string> keep = {"PATH",
                                                "HOME",
                                                "LANG",
                                                "LC_ALL",
                                                "TMPDIR",
                                                "USER",
                                                "LD_LIBRARY_PATH",
                                                "CUDA_HOME",
                                                "CUDA_VISIBLE_DEVICES",
                                                "CUDA_DEVICE_ORDER",
                                                "NVIDIA_VISIBLE_DEVICES",
                                                "TORCHINDUCTOR_CACHE_DIR",
                                                "TORCHINDUCTOR_COMPILE_THREADS",
                                                "TRITON_CACHE_DIR",
                                                "XDG_CACHE_HOME",
                                                "VIRTUAL_ENV",
                                                "NCCL_NVLS_ENABLE",
                                                "TORCH_SYMM_MEM_DISABLE_MULTICAST",
                                                "NVSHMEM_DISABLE_NVLS"};
  auto env = allowlisted_environment(
      keep, {{"PYTHONPATH", opt.bridge_dir}, {"PYTHONUNBUFFERED", "1"}, {"PYTHONDONTWRITEBYTECODE", "1"}});
  if (!opt.gpu.empty()) env["CUDA_VISIBLE_DEVICES"] = opt.gpu;
  return env;
}

std::vector<std::string> worker_command(const WorkerOptions& opt, const std::vector<std::string>& args,
                                        const std::string& out_path) {
  std::vector<std::string> argv = {opt.python, "-m", "cutegen_bridge", "eval", "--out", out_path};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

Isolation network_isolation(const std::string& mode) {
  if (mode == "off") return {{}, "network isolation off (eval.isolate_network = off)"};
  // Probe once per process: unshare as root, else with a user namespace mapping us to root.
  static std::once_flag once;
  static Isolation probed;
  std::call_once(once, [] {
    std::string unshare = find_executable("unshare");
    if (unshare.empty()) {
      probed.note = "network isolation unavailable (no unshare); evaluations can reach the network";
      return;
    }
    std::vector<std::vector<std::string>> tries = {{unshare, "--net"}, {unshare, "--net", "--map-root-user"}};
    std::string why;
    for (auto& t : tries) {
      auto argv = t;
      argv.push_back("true");
      auto r = run_process({.argv = argv, .timeout = std::chrono::seconds(10)});
      if (r.ok() && r->success()) {
        probed.prefix = t;
        probed.note = "fresh network namespace (unshare " + join({t.begin() + 1, t.end()}, " ") + ")";
        return;
      }
      why = r.ok() ? trim(r->err) : r.message();
    }
    probed.note = "network isolation unavailable (" + (why.empty() ? std::string("unshare failed") : why) +
                  "); evaluations can reach the network";
  });
  return probed;
}

Result<WorkerRun> run_worker(const WorkerOptions& opt, const std::vector<std::string>& args,
                             const std::string& out_path) {
  WorkerRun run;
  Isolation iso = network_isolation(opt.isolate_network);
  if (opt.isolate_network == "on" && iso.prefix.empty()) return error(iso.note + " but eval.isolate_network = on");
  run.isolation = iso.note;
  std::vector<std::string> argv = iso.prefix;
  for (auto& a : worker_command(opt, args, out_path))
    argv.push_back(a);
  std::remove(out_path.c_str());
  run.process = CUTEGEN_TRY(run_process({.argv = argv, .env = worker_environment(opt), .timeout = opt.timeout}));
  if (auto text = read_file(out_path); text.ok()) {
    try {
      run.doc = nlohmann::json::parse(*text);
    } catch (const std::exception&) {
      // A half-written answer counts as none; the process result says why.
    }
  }
  return run;
}

}  // namespace cutegen
