// `cutegen eval TASK KERNEL.cu`: the hardened evaluator's verdict table (or --json).
#include <cstdio>
#include <nlohmann/json.hpp>

#include "build/source_check.h"
#include "cli/commands.h"
#include "cli/eval_setup.h"
#include "eval/result_json.h"
#include "sys/fs.h"

namespace cutegen {
namespace {

struct EvalArgs {
  std::string task;
  std::string kernel;
  bool no_time = false;
  std::string gpu;
};

std::string fmt(const char* f, double a, double b = 0, double c = 0, double d = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a, b, c, d);
  return buf;
}

void row(const std::string& what, const std::string& value) {
  std::printf("  %-20s %s\n", what.c_str(), value.c_str());
}

void print_table(const EvalResult& r, const std::string& kernel) {
  std::printf("%s: %s\n", kernel.c_str(), phrase(r.verdict));
  row("compile", r.build.key.empty()
                     ? "-"
                     : std::string(phrase(r.build.outcome)) +
                           (r.build.cache_hit ? " (cached)" : fmt(" in %.1f s", r.build.compile_seconds)));
  for (auto& k : r.build.kernels)
    row("  kernel", k.name.substr(0, 50) + fmt(": %g regs, %g B smem, %g B spills", k.registers, k.shared_bytes,
                                               k.spill_stores + k.spill_loads));
  row("CuTe use", describe_usage(r.cute));
  row("static gate", r.gate.empty() ? (r.build.ok() ? "clean" : "-") : r.gate[0].rule + ": " + r.gate[0].detail);
  for (size_t i = 1; i < r.gate.size(); ++i)
    row("", r.gate[i].rule + ": " + r.gate[i].detail);
  for (auto& t : r.trials)
    row("trial seed " + std::to_string(t.seed), t.pass ? "correct" : t.failures[0]);
  if (!r.worker_doc.is_null() && r.worker_doc.contains("trials") && !r.worker_doc["trials"].empty()) {
    auto& o = r.worker_doc["trials"][0]["outputs"];
    for (auto& out : o)
      if (out.contains("rel_err"))
        row("accuracy " + out.value("name", "out"),
            fmt("rel. error vs float64 %.2e (eager %.2e)", out["rel_err"].get<double>(),
                out["eager_rel_err"].get<double>()));
  }
  if (r.timing) {
    auto& t = *r.timing;
    row("time", fmt("%.4f ms median [p10 %.4f, p90 %.4f] over %g runs", t.candidate.median, t.candidate.p10,
                    t.candidate.p90, static_cast<double>(t.candidate.n)));
    row("eager", fmt("%.4f ms median [p10 %.4f, p90 %.4f]", t.eager.median, t.eager.p10, t.eager.p90));
    row("speedup vs eager", fmt("%.2fx (95%% CI %.2f-%.2f)", t.speedup.point, t.speedup.low, t.speedup.high));
    if (t.compiled) {
      row("torch.compile", fmt("%.4f ms median", t.compiled->median));
      row("speedup vs compile", fmt("%.2fx (95%% CI %.2f-%.2f)", t.speedup_vs_compile->point, t.speedup_vs_compile->low,
                                    t.speedup_vs_compile->high));
    }
    row("harness overhead",
        fmt("%.4f ms per timed sample (empty event pair); %g calls per batch", t.event_overhead_ms, t.input_sets));
    const auto& a = t.accounting;
    row("judge's clock", fmt("%g batches; worst unaccounted %+.4f ms (tolerance %.4f); waited for a CPU %.3f ms",
                             a.batches, a.worst_unaccounted_ms, a.tolerance_ms, a.waited_ms));
  }
  if (r.roofline) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "floor %.4f ms (%s-bound; %s rate); reached %.0f%% of it", r.roofline->floor_ms,
                  name(r.roofline->bound), r.roofline->math_rate.c_str(), 100 * r.roofline_fraction);
    row("roofline", buf);
  }
  if (!r.isolation.empty()) row("isolation", r.isolation);
  if (r.eval_seconds > 0) row("evaluation wall", fmt("%.1f s (compile excluded)", r.eval_seconds));
  std::printf("%s\n", r.summary.c_str());
}

}  // namespace

void define_eval(CLI::App& sub, Context& ctx) {
  auto args = std::make_shared<EvalArgs>();
  sub.add_option("task", args->task, "KernelBench-style task file")->required();
  sub.add_option("kernel", args->kernel, "the candidate .cu implementing cutegen_forward")->required();
  sub.add_flag("--no-time", args->no_time, "correctness only");
  sub.add_option("--gpu", args->gpu, "the GPU to evaluate on, an nvidia-smi index (overrides eval.gpu)");
  sub.callback([&ctx, args]() {
    if (!args->gpu.empty()) ctx.overrides.push_back("eval.gpu=" + args->gpu);
    auto setup = must(EvalSetup::create(ctx));
    auto source = must(read_cuda_source(args->kernel));
    if (auto st = ctx.require_gpu("cutegen eval"); !st) fail(st.message(), kExitEnvironment);  // before compiling
    auto spec = must(setup.load_spec(args->task));
    auto r = must(setup.evaluator(!args->no_time).evaluate(spec, source, args->kernel));
    if (ctx.json)
      std::printf("%s\n", eval_result_json(r).dump(2).c_str());
    else
      print_table(r, args->kernel);
    ctx.exit_code = exit_code(r.verdict);  // eval's verdict codes, the same as exit_codes.h
  });
}

}  // namespace cutegen
