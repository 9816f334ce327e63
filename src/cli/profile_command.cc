// `cutegen profile TASK KERNEL.cu`: builds the kernel, prints its static profile, and when a GPU,
// Nsight Compute and the evaluator worker are all here, its runtime profile under ncu. Whatever
// part cannot run is named with the reason; the static part is always printed.
#include <unistd.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "build/source_check.h"
#include "cli/commands.h"
#include "cli/eval_setup.h"
#include "core/hash.h"
#include "eval/evaluator.h"
#include "eval/roofline.h"
#include "task/abi.h"
#include "profile/summary.h"
#include "profile/worker.h"
#include "sys/fs.h"
#include "sys/gpu.h"

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
Result<WorkerCommand> prepare_runtime(const Context& ctx, const EvalSetup& setup, const ProfileArgs& a,
                                      const TaskSpec& spec, const BuildResult& build, ProfileRequest& req) {
  auto gpus = query_gpus();
  if (!gpus) return error("cannot list GPUs: " + gpus.message());
  if (gpus->empty()) return error("no NVIDIA GPU on this machine: runtime counters need one");
  std::string dir = ctx.cache_dir() + "/profile/run-" + std::to_string(getpid());
  CUTEGEN_TRY(make_dirs(dir));
  CUTEGEN_TRY(write_file_atomic(dir + "/spec.json", spec.json));
  req.cost.min_bytes = static_cast<double>(spec.min_bytes);
  req.cost.flops = static_cast<double>(spec.flops);
  req.cost.dtype = math_rate_name(math_dtype(spec));  // the ceilings' key: "bf16", "tf32", ...
  req.salt = hash_hex(spec.json);
  return profile_worker_command(setup.options().worker, absolute_path(a.task), build.library_path, dir + "/spec.json",
                                dir + "/worker.json");
}

}  // namespace

void define_profile(CLI::App& sub, Context& ctx) {
  auto args = std::make_shared<ProfileArgs>();
  sub.add_option("task", args->task, "the task (a KernelBench-style PyTorch file)")->required();
  sub.add_option("kernel", args->kernel, "the candidate .cu file")->required();
  sub.callback([&ctx, args]() {
    auto setup = must(EvalSetup::create(ctx));
    auto text = must(read_cuda_source(args->kernel));
    auto spec = must(setup.load_spec(args->task));
    // The kernel is built exactly as the evaluator builds it: with the task's ABI force-included.
    auto build = must(setup.builder().build(
        {.source = text, .display_name = args->kernel, .target = setup.target(), .force_include = abi_header(spec)}));
    if (!build.ok())
      fail(std::string(phrase(build.outcome)) + ": " + build.message + " (see cutegen build " + args->kernel + ")",
           kExitNegative);
    RooflineCeilings ceilings;
    if (auto path = ctx.config.str("profile.ceilings"); !path.empty()) {
      ceilings = must(load_ceilings(path));
    } else if (auto gpus = query_gpus(); gpus.ok() && !gpus->empty()) {
      // The GPU's measured ceilings, shared with `cutegen eval` (measured once per GPU, then cached).
      if (auto c = setup.evaluator(true).ceilings((*gpus)[0].name); c.ok())
        ceilings = ceilings_from_json_text(to_json(*c).dump(), "measured on this GPU");
    }
    ProfileRequest req{.build = build};
    auto worker = prepare_runtime(ctx, setup, *args, spec, build, req);
    if (worker)
      req.worker = *worker;
    else
      req.no_runtime_reason = worker.message();
    Profiler profiler(ncu_options(ctx), ceilings, find_cuobjdump(setup.builder().toolchain().nvcc));
    auto report = profiler.profile(req);
    if (ctx.json)
      std::printf("%s\n", report_json(report).dump(2).c_str());
    else
      std::printf("%s", render_summary(report).c_str());
  });
}

}  // namespace cutegen
