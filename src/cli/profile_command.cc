// `cutegen profile TASK KERNEL.cu`: builds the kernel, prints its static profile, and when a GPU,
// Nsight Compute and the evaluator worker are all here, its runtime profile under ncu. Whatever
// part cannot run is named with the reason; the static part is always printed.
#include <unistd.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "build/source_check.h"
#include "cli/commands.h"
#include "core/hash.h"
#include "profile/summary.h"
#include "profile/worker.h"
#include "sys/fs.h"
#include "sys/gpu.h"
#include "sys/subprocess.h"

namespace cutegen {
namespace {

struct ProfileArgs {
  std::string task;
  std::string kernel;
};

NcuOptions ncu_options(const Context& ctx) {
  auto& c = ctx.config;
  NcuOptions o;
  o.ncu = c.str("profile.ncu");
  o.clock_control = c.str("profile.clock_control");
  o.kernel_filter = c.str("profile.kernel_filter");
  o.launch_skip = static_cast<int>(c.integer("profile.launch_skip"));
  o.launch_count = static_cast<int>(c.integer("profile.launch_count"));
  o.extended_metrics = c.boolean("profile.extended_metrics");
  o.timeout = std::chrono::seconds(c.integer("profile.timeout_s"));
  o.cache_dir = ctx.cache_dir() + "/profile";
  return o;
}

std::string bridge_dir() {
  std::string d = find_upwards(executable_dir(), "bridge/cutegen_bridge");
  if (d.empty()) d = find_upwards(CUTEGEN_SOURCE_DIR, "bridge/cutegen_bridge");
  return d.empty() ? "" : d.substr(0, d.size() - std::string("/cutegen_bridge").size());
}

// Writes the task's spec with the bridge, reads its cost, and returns the worker command;
// on any missing piece, the reason the runtime profile cannot run.
Result<WorkerCommand> prepare_runtime(const Context& ctx, const ProfileArgs& a, const BuildResult& build,
                                      ProfileRequest& req) {
  auto gpus = query_gpus();
  if (!gpus) return error("cannot list GPUs: " + gpus.message());
  if (gpus->empty()) return error("no NVIDIA GPU on this machine: runtime counters need one");
  WorkerArgs w{.python = ctx.config.str("eval.python"), .bridge_dir = bridge_dir(), .task = absolute_path(a.task),
               .library = build.library_path};
  if (w.bridge_dir.empty()) return error("the bridge (bridge/cutegen_bridge) was not found beside the tool");
  CUTEGEN_TRY(profile_worker_available(w));
  std::string dir = ctx.cache_dir() + "/profile/run-" + std::to_string(getpid());
  CUTEGEN_TRY(make_dirs(dir));
  w.spec = dir + "/spec.json";
  w.out = dir + "/worker.json";
  auto spec_cmd = profile_worker_command(w);
  spec_cmd.argv = {spec_cmd.argv[0], "-m", "cutegen_bridge", "spec", "--task", w.task, "--out", w.spec};
  ProcessSpec ps{.argv = spec_cmd.argv, .timeout = std::chrono::seconds(300)};
  ps.env = allowlisted_environment({"PATH", "HOME", "LD_LIBRARY_PATH"}, spec_cmd.env);
  auto r = CUTEGEN_TRY(run_process(ps));
  auto text = read_file(w.spec);
  if (!r.success() || !text) return error("the bridge could not describe the task (" + r.describe() + ")");
  auto spec = nlohmann::json::parse(*text, nullptr, false);
  if (!spec.is_object() || spec.contains("error"))
    return error("the task cannot be used: " + (spec.is_object() ? spec.value("error", std::string("bad spec")) : "bad spec"));
  req.cost.min_bytes = spec.value("min_bytes", 0.0);
  req.cost.flops = spec.value("flops", 0.0);
  req.cost.dtype = spec.value("math_dtype", std::string());
  req.salt = hash_hex(*text);
  return profile_worker_command(w);
}

}  // namespace

void define_profile(CLI::App& sub, Context& ctx) {
  auto args = std::make_shared<ProfileArgs>();
  sub.add_option("task", args->task, "the task (a KernelBench-style PyTorch file)")->required();
  sub.add_option("kernel", args->kernel, "the candidate .cu file")->required();
  sub.callback([&ctx, args]() {
    if (auto st = ctx.resolve(); !st) throw CommandError{st.message()};
    if (!file_exists(args->task)) throw CommandError{"no task file '" + args->task + "'"};
    auto text = read_cuda_source(args->kernel);
    if (!text) throw CommandError{text.message()};
    auto target = ctx.target();
    if (!target) throw CommandError{target.message()};
    auto builder = ctx.builder();
    if (!builder) throw CommandError{builder.message()};
    auto build = builder->build({.source = *text, .display_name = args->kernel, .target = *target});
    if (!build) throw CommandError{build.message()};
    if (!build->ok()) {
      std::fprintf(stderr, "cutegen: %s: %s (see cutegen build %s)\n", to_string(build->outcome),
                   build->message.c_str(), args->kernel.c_str());
      ctx.exit_code = 1;
      return;
    }
    RooflineCeilings ceilings;
    if (auto path = ctx.config.str("profile.ceilings"); !path.empty()) {
      auto c = load_ceilings(path);
      if (!c) throw CommandError{c.message()};
      ceilings = *c;
    }
    ProfileRequest req{.build = *build};
    auto worker = prepare_runtime(ctx, *args, *build, req);
    if (worker) req.worker = *worker;
    else req.no_runtime_reason = worker.message();
    Profiler profiler(ncu_options(ctx), ceilings, find_cuobjdump(builder->toolchain().nvcc));
    auto report = profiler.profile(req);
    if (ctx.json) std::printf("%s\n", report_json(report).dump(2).c_str());
    else std::printf("%s", render_summary(report).c_str());
  });
}

}  // namespace cutegen
