#include "agent/real_adapters.h"

#include <cstdio>

#include "agent/doubles.h"
#include "build/diagnostics.h"
#include "core/hash.h"
#include "core/strings.h"
#include "eval/verdict.h"
#include "profile/summary.h"
#include "profile/worker.h"
#include "sys/fs.h"
#include "sys/gpu.h"
#include "task/abi.h"

namespace cutegen {

KernelEval to_kernel_eval(const EvalResult& r, const std::string& source, const std::string& name) {
  KernelEval e{.verdict = r.verdict, .summary = r.summary};
  if (r.verdict == Verdict::kCompileError) e.report = render_diagnostics(r.build.diagnostics, name);
  for (auto& g : r.gate)
    e.report += g.rule + ": " + g.detail + "\n";
  for (auto& t : r.trials)
    for (auto& f : t.failures)
      e.report += "trial seed " + std::to_string(t.seed) + ": " + f + "\n";
  if (e.report.empty() && !e.pass()) e.report = r.summary;
  if (r.timing)
    e.speedup = r.timing->speedup.point, e.speedup_low = r.timing->speedup.low, e.speedup_high = r.timing->speedup.high;
  if (r.timing && r.timing->speedup_vs_compile) {
    auto& c = *r.timing->speedup_vs_compile;
    e.compile_speedup = c.point, e.compile_speedup_low = c.low, e.compile_speedup_high = c.high;
  }
  e.roofline_fraction = r.roofline_fraction;
  for (auto& k : r.build.kernels) {
    char b[300];
    std::snprintf(b, sizeof b, "- %s: %d registers, %d B static shared, %d B spilled\n", k.name.substr(0, 80).c_str(),
                  k.registers, k.shared_bytes, k.spill_stores + k.spill_loads);
    e.statics += b;
  }
  e.fingerprint = structure_fingerprint(source, static_cast<int>(r.build.kernels.size()));
  return e;
}

Result<Baseline> RealEvaluator::baseline(const TaskSpec& task) {
  if (!no_gpu_) {
    auto gpus = query_gpus();
    no_gpu_ = !gpus           ? "evaluation needs an NVIDIA GPU and nvidia-smi failed: " + gpus.message()
              : gpus->empty() ? "evaluation needs an NVIDIA GPU and this machine has none (nvidia-smi sees no device); "
                                "run on a GPU machine, or set agent.evaluator=scripted:FILE for a dry run"
                              : "";
  }
  if (!no_gpu_->empty()) return error(*no_gpu_);
  // Eager timed alone, and the floor from the GPU's ceilings, for the first prompt. If that
  // measurement fails, the prompt says "unknown" and the candidates' own timings take over.
  auto b = eval_->baseline(task);
  if (!b) return Baseline{eager_ms_, 0, std::nullopt};
  Baseline out{b->eager.median, 0, std::nullopt, b->eager_rel_err};
  if (b->eager_rel_err > 0) out.accuracy_limit = accuracy_limit(eval_->options().tolerance, b->eager_rel_err);
  out.tf32_rel_err = b->tf32_rel_err;
  if (b->roofline) out.floor_ms = b->roofline->floor_ms, out.bound = b->roofline->bound;
  return out;
}

void RealEvaluator::prebuild(const TaskSpec& task, std::vector<std::string> sources) { eval_->prebuild(task, sources); }

Result<KernelEval> RealEvaluator::evaluate(const TaskSpec& task, const std::string& source, const std::string& name) {
  auto r = CUTEGEN_TRY(eval_->evaluate(task, source, name));
  if (r.timing) eager_ms_ = r.timing->eager.median;
  return to_kernel_eval(r, source, name);
}

Result<ProfileSummary> RealProfiler::profile(const TaskSpec& task, const std::string& source) {
  auto build = CUTEGEN_TRY(builder_->build({source, task.name + "_profile.cu", target_, abi_header(task)}));
  if (!build.ok()) return error("the kernel does not build for profiling: " + build.message);
  ProfileRequest req;
  req.build = build;
  req.cost = {static_cast<double>(task.min_bytes), static_cast<double>(task.flops), math_rate_name(math_dtype(task))};
  req.salt = hash_hex(task.json);
  auto gpus = query_gpus();
  if (gpus.ok() && !gpus->empty()) {
    std::string dir = work_dir_ + "/" + hash_hex(source).substr(0, 16);
    CUTEGEN_TRY(make_dirs(dir));
    CUTEGEN_TRY(write_file_atomic(dir + "/spec.json", task.json));
    req.worker =
        profile_worker_command(worker_, task.path, build.library_path, dir + "/spec.json", dir + "/worker.json");
  } else {
    req.no_runtime_reason = "no NVIDIA GPU on this machine";
  }
  return profile_summary(profiler_->profile(req));
}

}  // namespace cutegen
