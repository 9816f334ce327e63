// `cutegen doctor`: each check prints what it found and, when something is wrong, a concrete fix.
#include <unistd.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "agent/prompts.h"
#include "build/toolchain.h"
#include "cli/commands.h"
#include "core/strings.h"
#include "profile/ncu_runner.h"
#include "sys/fs.h"
#include "sys/gpu.h"
#include "sys/layout.h"
#include "sys/python.h"
#include "sys/subprocess.h"
#include "task/loader.h"

namespace cutegen {
namespace {

enum class Level { kOk, kWarn, kBlocking };

struct Check {
  std::string name;
  Level level;
  std::string found;
  std::string fix;  // empty when ok
};

Check check_nvcc() {
  auto nvcc = find_nvcc();
  if (!nvcc) return {"nvcc", Level::kBlocking, nvcc.message(), "install the CUDA toolkit (12.4+), or set CUDA_HOME"};
  auto v = nvcc_version(*nvcc);
  if (!v) return {"nvcc", Level::kBlocking, v.message(), "reinstall the CUDA toolkit"};
  return {"nvcc", Level::kOk, *nvcc + " (CUDA " + *v + ")", ""};
}

Check check_cutlass(const Context& ctx) {
  auto inc = find_cutlass_include(ctx.config.str("build.cutlass_dir"));
  if (!inc) return {"CUTLASS/CuTe", Level::kBlocking, inc.message(), "run scripts/bootstrap"};
  auto v = cutlass_version(*inc);
  if (!v) return {"CUTLASS/CuTe", Level::kBlocking, v.message(), "run scripts/bootstrap"};
  return {"CUTLASS/CuTe", Level::kOk, *inc + " (CUTLASS " + *v + ", " + project_file_origin(*inc) + ")", ""};
}

// The project's own files: where each was found (sys/layout.h), so an installed tool shows that
// it reads nothing from a checkout.
Check check_project_file(const std::string& name, const std::string& path, const std::string& fix) {
  if (path.empty() || !file_exists(path)) return {name, Level::kBlocking, "not found", fix};
  return {name, Level::kOk, path + " (" + project_file_origin(path) + ")", ""};
}

std::vector<Check> check_project_files(const Context& ctx) {
  const char* reinstall = "reinstall (scripts/install PREFIX) or rebuild in the checkout (scripts/build)";
  return {check_project_file("prompts", prompts_dir(ctx.config.str("agent.prompts_dir")), reinstall),
          check_project_file("bridge", bridge_dir(), reinstall),
          check_project_file("runner", executable_dir() + "/cutegen-runner", reinstall)};
}

Check check_host_compiler() {
  std::string cxx = find_executable("g++");
  if (cxx.empty())
    return {"host compiler", Level::kBlocking, "g++ not on PATH", "install g++ (nvcc needs a host compiler)"};
  auto r = run_process({.argv = {cxx, "--version"}, .timeout = std::chrono::seconds(20)});
  std::string first = r ? trim(split_lines(r->out).empty() ? "" : split_lines(r->out)[0]) : "unknown version";
  return {"host compiler", Level::kOk, cxx + " (" + first + ")", ""};
}

Check check_gpu() {
  auto gpus = query_gpus();
  if (!gpus) return {"GPU", Level::kBlocking, gpus.message(), "check the NVIDIA driver (nvidia-smi)"};
  if (gpus->empty())
    return {"GPU", Level::kBlocking,
            "no NVIDIA GPU on this machine: kernels compile here, but evaluating, timing and profiling them "
            "(cutegen eval/run/profile) is ruled out",
            "run those commands on a machine with an NVIDIA GPU (see README: GPU)"};
  std::string found;
  for (auto& g : *gpus)
    found += (found.empty() ? "" : "; ") + std::to_string(g.index) + ": " + g.name + ", sm_" +
             std::to_string(g.cc_major) + std::to_string(g.cc_minor) + ", " + std::to_string(g.memory_mib) +
             " MiB, driver " + g.driver;
  return {"GPU", Level::kOk, found, ""};
}

// Counters are readable when the driver allows profiling for everyone, or when we are root.
Check check_ncu() {
  std::string ncu = find_ncu();
  if (ncu.empty())
    return {"Nsight Compute", Level::kWarn, "ncu not found: profiling falls back to timing and static facts",
            "install Nsight Compute (part of the CUDA toolkit) and put ncu on PATH"};
  auto r = run_process({.argv = {ncu, "--version"}, .timeout = std::chrono::seconds(30)});
  auto lines = r ? split_lines(r->out) : std::vector<std::string>{};
  std::string version = lines.empty() ? "unknown version" : trim(lines.back());
  auto params = read_file("/proc/driver/nvidia/params");
  std::string counters;
  if (!params)
    counters = "counters: unknown (no NVIDIA driver here)";
  else if (contains(*params, "RmProfilingAdminOnly: 0"))
    counters = "counters readable by all users";
  else if (geteuid() == 0)
    counters = "counters admin-only, readable (running as root)";
  else
    return {"Nsight Compute", Level::kWarn, ncu + " (" + version + "); counters are admin-only",
            "run as root, or set NVreg_RestrictProfilingToAdminUsers=0 for the nvidia module"};
  return {"Nsight Compute", Level::kOk, ncu + " (" + version + "), " + counters, ""};
}

Check check_python(const Context& ctx) {
  auto py = describe_python(ctx.config.str("eval.python"));
  if (!py) return {"Python + torch", Level::kBlocking, py.message(), "run scripts/bootstrap, or set eval.python"};
  std::string found = py->executable + " (Python " + py->python_version + ", torch " + py->torch_version;
  found += py->cuda_available ? ", CUDA " + py->torch_cuda + " on " + py->device_name + ")" : ", no CUDA device)";
  return {"Python + torch", Level::kOk, found, ""};
}

Check check_dir(const std::string& what, const std::string& dir) {
  if (auto st = ensure_writable_dir(dir); !st)
    return {what, Level::kBlocking, st.message(), "choose another folder (build.cache_dir) or fix its permissions"};
  return {what, Level::kOk, absolute_path(dir) + " (writable)", ""};
}

const char* label(Level l) { return l == Level::kOk ? "ok" : l == Level::kWarn ? "warn" : "FAIL"; }

}  // namespace

void define_doctor(CLI::App& sub, Context& ctx) {
  sub.callback([&ctx]() {
    if (auto st = ctx.resolve(); !st) fail(st.message());
    std::vector<Check> checks = {check_nvcc(),
                                 check_cutlass(ctx),
                                 check_host_compiler(),
                                 check_gpu(),
                                 check_ncu(),
                                 check_python(ctx),
                                 check_dir("cache folder", ctx.cache_dir()),
                                 check_dir("runs folder", ".runs")};
    for (auto& c : check_project_files(ctx))
      checks.push_back(c);
    bool blocked = false;
    nlohmann::json out = nlohmann::json::array();
    for (auto& c : checks) {
      blocked |= c.level == Level::kBlocking;
      if (ctx.json) {
        out.push_back({{"check", c.name}, {"status", label(c.level)}, {"found", c.found}, {"fix", c.fix}});
        continue;
      }
      std::printf("%-4s  %-15s %s\n", label(c.level), c.name.c_str(), c.found.c_str());
      if (!c.fix.empty()) std::printf("      %-15s fix: %s\n", "", c.fix.c_str());
    }
    if (ctx.json)
      std::printf("%s\n", out.dump(2).c_str());
    else
      std::printf(blocked ? "\nSomething above blocks the main job on this machine.\n" : "\nReady.\n");
    ctx.exit_code = blocked ? kExitEnvironment : kExitOk;
  });
}

}  // namespace cutegen
