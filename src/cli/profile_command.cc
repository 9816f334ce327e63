// `cutegen profile TASK KERNEL.cu`: builds the kernel, prints its static profile, and when a GPU,
// Nsight Compute and the evaluator worker are all here, its runtime profile under ncu. Whatever
// part cannot run is named with the reason; the static part is always printed.
#include <unistd.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "build/source_check.h"
#include "cli/commands.h"
#include "core/hash.h"
#include "eval/evaluator.h"
#include "eval/roofline.h"
#include "sys/python.h"
#include "task/abi.h"
#include "task/loader.h"
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

// Writes the task's spec for the worker, records its cost, and returns the worker command;
// on any missing piece, the reason the runtime profile cannot run.
Result<WorkerCommand> prepare_runtime(const Context& ctx, const ProfileArgs& a, const TaskSpec& spec,
                                      const BuildResult& build, ProfileRequest& req) {
  auto gpus = query_gpus();
  if (!gpus) return error("cannot list GPUs: " + gpus.message());
  if (gpus->empty()) return error("no NVIDIA GPU on this machine: runtime counters need one");
  WorkerArgs w{.python = python_executable(ctx.config.str("eval.python")), .bridge_dir = bridge_dir(),
               .task = absolute_path(a.task), .library = build.library_path};
  if (w.bridge_dir.empty()) return error("the bridge (bridge/cutegen_bridge) was not found beside the tool");
  CUTEGEN_TRY(profile_worker_available(w));
  std::string dir = ctx.cache_dir() + "/profile/run-" + std::to_string(getpid());
  CUTEGEN_TRY(make_dirs(dir));
  w.spec = dir + "/spec.json";
  w.out = dir + "/worker.json";
  CUTEGEN_TRY(write_file_atomic(w.spec, spec.json));
  req.cost.min_bytes = static_cast<double>(spec.min_bytes);
  req.cost.flops = static_cast<double>(spec.flops);
  req.cost.dtype = math_rate_name(math_dtype(spec));  // the ceilings' key: "bf16", "tf32", ...
  req.salt = hash_hex(spec.json);
  return profile_worker_command(w);
}

}  // namespace

void define_profile(CLI::App& sub, Context& ctx) {
  auto args = std::make_shared<ProfileArgs>();
  sub.add_option("task", args->task, "the task (a KernelBench-style PyTorch file)")->required();
  sub.add_option("kernel", args->kernel, "the candidate .cu file")->required();
  sub.callback([&ctx, args]() {
    if (auto st = ctx.resolve(); !st) throw CommandError{st.message()};
    auto text = read_cuda_source(args->kernel);
    if (!text) throw CommandError{text.message()};
    auto target = ctx.target();
    if (!target) throw CommandError{target.message()};
    auto builder = ctx.builder();
    if (!builder) throw CommandError{builder.message()};
    // The kernel is built exactly as the evaluator builds it: with the task's ABI force-included.
    auto spec = load_task_spec(args->task, python_executable(ctx.config.str("eval.python")), 0,
                               std::chrono::seconds(ctx.config.integer("task.timeout_s")));
    if (!spec) throw CommandError{spec.message()};
    auto build = builder->build(
        {.source = *text, .display_name = args->kernel, .target = *target, .force_include = abi_header(*spec)});
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
    } else if (auto gpus = query_gpus(); gpus.ok() && !gpus->empty()) {
      // The ceilings `cutegen eval` measured on this GPU, when it has run here before.
      if (auto c = load_ceilings(ceilings_cache_path(ctx.cache_dir() + "/ceilings", (*gpus)[0].name)); c.ok())
        ceilings = *c;
    }
    ProfileRequest req{.build = *build};
    auto worker = prepare_runtime(ctx, *args, *spec, *build, req);
    if (worker) req.worker = *worker;
    else req.no_runtime_reason = worker.message();
    Profiler profiler(ncu_options(ctx), ceilings, find_cuobjdump(builder->toolchain().nvcc));
    auto report = profiler.profile(req);
    if (ctx.json) std::printf("%s\n", report_json(report).dump(2).c_str());
    else std::printf("%s", render_summary(report).c_str());
  });
}

}  // namespace cutegen
