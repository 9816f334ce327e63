#include <cstdio>
#include <nlohmann/json.hpp>

#include "build/source_check.h"
#include "cli/commands.h"
#include "eval/invoke_shim.h"
#include "sys/fs.h"
#include "sys/python.h"
#include "task/loader.h"

namespace cutegen {
namespace {

struct BuildArgs {
  std::string source;
  std::string arch;
  std::string header;
  std::string task;
};

void print_result(const BuildResult& r, const std::string& name, bool as_json) {
  if (as_json) {
    nlohmann::json kernels = nlohmann::json::array();
    for (auto& k : r.kernels)
      kernels.push_back({{"name", k.name},
                         {"registers", k.registers},
                         {"shared_bytes", k.shared_bytes},
                         {"stack_bytes", k.stack_bytes},
                         {"spill_stores", k.spill_stores},
                         {"spill_loads", k.spill_loads}});
    nlohmann::json j = {{"outcome", phrase(r.outcome)},
                        {"cache_hit", r.cache_hit},
                        {"key", r.key},
                        {"library", r.library_path},
                        {"log", r.log_path},
                        {"message", r.message},
                        {"compile_seconds", r.compile_seconds},
                        {"kernels", kernels},
                        {"diagnostics", render_diagnostics(r.diagnostics, name)}};
    std::printf("%s\n", j.dump(2).c_str());
    return;
  }
  if (!r.ok()) {
    std::printf("%s: %s\n", phrase(r.outcome), r.message.c_str());
    if (!r.diagnostics.empty()) std::printf("%s", render_diagnostics(r.diagnostics, name).c_str());
    if (!r.log_path.empty()) std::printf("full log: %s\n", r.log_path.c_str());
    return;
  }
  std::printf("%s %s (%s, compiled in %.1f s)\n", r.cache_hit ? "cached" : "built", r.library_path.c_str(),
              r.key.substr(0, 12).c_str(), r.compile_seconds);
  for (auto& k : r.kernels)
    std::printf("  kernel %-40.40s regs %3d  smem %6d B  stack %4d B  spills %d/%d\n", k.name.c_str(), k.registers,
                k.shared_bytes, k.stack_bytes, k.spill_stores, k.spill_loads);
}

}  // namespace

void define_build(CLI::App& sub, Context& ctx) {
  auto args = std::make_shared<BuildArgs>();
  sub.add_option("source", args->source, "the .cu file")->required();
  sub.add_option("--arch", args->arch, "GPU target, e.g. sm_90a (default: build.arch)");
  sub.add_option("--header", args->header, "a header to force-include (e.g. a task's ABI)");
  sub.add_option("--task", args->task,
                 "build as `cutegen eval` would for this task (its ABI header and glue), "
                 "so a later evaluation finds it in the cache")
      ->excludes("--header");
  sub.callback([&ctx, args]() {
    if (auto st = ctx.resolve(); !st) fail(st.message());
    if (!args->arch.empty())
      if (auto st = ctx.config.set("build.arch", args->arch); !st) fail(st.message());
    BuildRequest req{.source = must(read_cuda_source(args->source)), .display_name = args->source};
    if (!args->header.empty()) req.force_include = must(read_file(args->header));
    if (!args->task.empty())
      req.force_include = evaluation_header(must(
          load_task_spec(args->task, python_executable(ctx.config.str("eval.python")), ctx.config.integer("eval.seed"),
                         std::chrono::seconds(ctx.config.integer("task.timeout_s")), ctx.spec_cache_dir())));
    req.target = must(ctx.target());
    auto r = must(must(ctx.builder()).build(req));
    print_result(r, args->source, ctx.json);
    ctx.exit_code = r.ok() ? kExitOk : kExitNegative;
  });
}

}  // namespace cutegen
