#include "cli/eval_setup.h"

#include "sys/fs.h"
#include "sys/python.h"
#include "task/loader.h"

namespace cutegen {

Result<Tolerance> configured_tolerance(const Config& c) {
  return tolerance_preset(c.str("eval.tolerance"), c.number("eval.atol"), c.number("eval.rtol"),
                          c.number("eval.accuracy_factor"));
}

Result<EvalSetup> EvalSetup::create(Context& ctx) {
  CUTEGEN_TRY(ctx.resolve());
  EvalSetup s;
  s.builder_ = std::make_shared<Builder>(CUTEGEN_TRY(ctx.builder()));
  s.target_ = CUTEGEN_TRY(ctx.target());
  auto& c = ctx.config;
  auto& o = s.options_;
  o.tolerance = CUTEGEN_TRY(configured_tolerance(c));
  o.trials = static_cast<int>(c.integer("eval.trials"));
  o.timed_runs = static_cast<int>(c.integer("eval.timed_runs"));
  o.warmup_runs = static_cast<int>(c.integer("eval.warmup_runs"));
  o.seed = c.integer("eval.seed");
  o.require_cute = c.boolean("eval.require_cute");
  o.compare_compile = c.boolean("eval.compare_compile");
  if (o.trials < 1 || o.timed_runs < 1 || o.warmup_runs < 0)
    return error("eval.trials and eval.timed_runs must be >= 1");
  s.python_ = python_executable(c.str("eval.python"));
  s.spec_timeout_s_ = c.integer("task.timeout_s");
  s.spec_cache_dir_ = ctx.spec_cache_dir();
  o.worker = {.python = s.python_,
              .bridge_dir = bridge_dir(),
              .timeout = std::chrono::seconds(c.integer("eval.timeout_s")),
              .isolate_network = c.str("eval.isolate_network"),
              .gpu = c.str("eval.gpu"),
              .runner = executable_dir() + "/cutegen-runner",
              .require_sandbox = c.str("eval.sandbox") == "on"};
  if (o.worker.bridge_dir.empty()) return error("the cutegen_bridge package was not found next to the binary");
  if (!file_exists(o.worker.runner))
    return error("cutegen-runner (the candidate's own process) was not found next to the binary: " + o.worker.runner +
                 " (it is built where CMake finds the CUDA toolkit)");
  o.work_dir = ctx.cache_dir() + "/eval";
  o.ceilings_dir = ctx.cache_dir() + "/ceilings";
  CUTEGEN_TRY(ensure_writable_dir(o.work_dir));
  return s;
}

Result<TaskSpec> EvalSetup::load_spec(const std::string& task_path) const {
  return load_task_spec(task_path, python_, options_.seed, std::chrono::seconds(spec_timeout_s_), spec_cache_dir_);
}

Evaluator EvalSetup::evaluator(bool time) const {
  EvalOptions o = options_;
  o.time = time;
  return Evaluator(*builder_, target_, o);
}

}  // namespace cutegen
