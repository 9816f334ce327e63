#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "sys/python.h"
#include "task/abi.h"
#include "task/loader.h"
#include "task/summary.h"

namespace cutegen {
namespace {

struct TaskArgs {
  std::string file;
  int64_t seed = 0;
};

}  // namespace

void define_task(CLI::App& sub, Context& ctx) {
  auto args = std::make_shared<TaskArgs>();
  sub.add_option("file", args->file, "a KernelBench-style task file (Model, get_inputs, get_init_inputs)")->required();
  sub.add_option("--seed", args->seed, "seed for Model construction and get_inputs()");
  sub.add_flag("--json", ctx.json, "print the TaskSpec JSON, with the ABI header as \"abi_header\"");
  sub.callback([&ctx, args]() {
    if (auto st = ctx.resolve(); !st) fail(st.message());
    auto python = python_executable(ctx.config.str("eval.python"));
    auto timeout = std::chrono::seconds(ctx.config.integer("task.timeout_s"));
    auto spec = must(load_task_spec(args->file, python, args->seed, timeout, ctx.spec_cache_dir()));
    std::string header = abi_header(spec);
    if (ctx.json) {
      auto doc = nlohmann::json::parse(spec.json);
      doc["abi_header"] = header;
      std::printf("%s\n", doc.dump(2).c_str());
      return;
    }
    std::printf("%s\n%s", task_summary(spec).c_str(), header.c_str());
  });
}

}  // namespace cutegen
