#include "cli/context.h"

#include <cstdlib>

#include "core/strings.h"
#include "sys/gpu.h"

namespace cutegen {

Status Context::resolve() {
  std::string path = config_path.empty() ? default_config_path() : config_path;
  if (!path.empty()) config = CUTEGEN_TRY(Config::load(path));
  config.apply_environment();
  for (auto& kv : overrides) {
    auto eq = kv.find('=');
    if (eq == std::string::npos) return error("--set expects key=value, got '" + kv + "'");
    CUTEGEN_TRY(config.set(trim(kv.substr(0, eq)), trim(kv.substr(eq + 1))));
  }
  return Ok{};
}

std::string Context::cache_dir() const {
  if (auto d = config.str("build.cache_dir"); !d.empty()) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/cutegen";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/cutegen";
  return ".cache/cutegen";
}

std::string Context::spec_cache_dir() const { return config.boolean("task.spec_cache") ? cache_dir() + "/specs" : ""; }

Result<Target> Context::target() const {
  std::string arch = config.str("build.arch");
  if (arch != "auto") return parse_target(arch);
  auto gpus = query_gpus();
  std::string chosen = config.str("eval.gpu");
  if (gpus.ok())
    for (auto& g : *gpus)
      if (chosen.empty() || std::to_string(g.index) == chosen)
        return target_for_compute_capability(g.cc_major, g.cc_minor);
  if (!chosen.empty() && gpus.ok() && !gpus->empty())
    return error("eval.gpu = " + chosen + ": no such GPU (see cutegen doctor)");
  return Target{};  // no GPU here: Hopper (sm_90a), the tool's main target
}

Result<Builder> Context::builder() const {
  auto tc = CUTEGEN_TRY(discover_toolchain(config.str("build.cutlass_dir")));
  BuilderOptions opt;
  opt.cache_dir = cache_dir();
  opt.jobs = static_cast<int>(config.integer("build.jobs"));
  opt.timeout = std::chrono::seconds(config.integer("build.timeout_s"));
  return Builder(tc, opt);
}

Status Context::require_gpu(const std::string& what) const {
  auto gpus = query_gpus();
  if (!gpus) return error(what + " needs an NVIDIA GPU, and nvidia-smi failed: " + gpus.message());
  if (gpus->empty())
    return error("no NVIDIA GPU on this machine: " + what +
                 " needs one (cutegen build and task work here; for a "
                 "dry run of the agent without one, see README: scripted evaluator)");
  return Ok{};
}

}  // namespace cutegen
