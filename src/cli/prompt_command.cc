// `cutegen prompt TASK --stage S`: the system and user prompt the LLM proposer would send at a
// stage, rendered by the proposer itself (LlmProposer::request_for), with no GPU and no model.
// Inputs a stage needs but a lone command lacks (the kernel, the compiler's errors) come from
// --kernel and --diagnostics, else a labelled placeholder stands in their place.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "agent/llm_proposer.h"
#include "agent/workload.h"
#include "cli/commands.h"
#include "cli/eval_setup.h"
#include "eval/evaluator.h"
#include "sys/fs.h"
#include "sys/python.h"
#include "task/loader.h"

namespace cutegen {
namespace {

struct PromptArgs {
  std::string task, stage = "generate", kernel, diagnostics;
};

Result<Stage> parse_stage(const std::string& text) {
  if (auto s = parse_name<Stage>(text)) return *s;
  return error("--stage: unknown stage '" + text + "' (" + names_list<Stage>() + ")");
}

std::string placeholder(const std::string& what) { return "[placeholder: " + what + "]"; }

// Eager's time and the floor as `cutegen run` last measured them on this machine: the evaluator's
// baseline answer for this exact spec, and the GPU's cached ceilings. Unknown (0) when absent.
Baseline cached_baseline(const Context& ctx, const TaskSpec& spec) {
  Baseline b;
  auto text = read_file(baseline_answer_path(ctx.cache_dir() + "/eval", spec));
  if (!text) return b;
  auto doc = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || !doc.contains("timing") || !doc["timing"].contains("ms")) return b;
  try {
    b.eager_ms = summarize(doc["timing"]["ms"]["eager"].get<std::vector<double>>()).median;
    b.eager_rel_err = eager_rel_err_of(doc);
    b.tf32_rel_err = tf32_rel_err_of(doc);
    std::string device = doc.at("device").value("name", "");
    auto ceilings = read_file(ceilings_cache_path(ctx.cache_dir() + "/ceilings", device));
    if (!ceilings) return b;
    auto c = ceilings_from_json(nlohmann::json::parse(*ceilings));
    if (!c) return b;
    auto r = roofline(static_cast<double>(spec.min_bytes), static_cast<double>(spec.flops), math_dtype(spec), *c);
    b.floor_ms = r.floor_ms, b.bound = r.bound;
  } catch (const nlohmann::json::exception&) {
    // A damaged cache file: what was read so far stands, the rest stays unknown.
  }
  return b;
}

Result<std::string> read_input(const std::string& path, const char* flag) {
  auto text = read_file(path);
  if (!text) return error(std::string(flag) + " " + path + ": " + text.message());
  return text;
}

// The step the agent would be at: the first of its stage, with the run's inputs or placeholders.
Result<StepContext> step_for(Stage stage, const PromptArgs& a, const Context& ctx, const TaskSpec& spec) {
  bool repair = stage == Stage::kRepairCompile || stage == Stage::kRepairWrong;
  if (stage == Stage::kGenerate && !a.kernel.empty()) return error("--kernel: the generate prompt shows no kernel");
  if (!repair && !a.diagnostics.empty()) return error("--diagnostics: only the repair stages show diagnostics");
  StepContext c{.stage = stage,
                .max_steps = static_cast<int>(ctx.config.integer("agent.max_steps")),
                .task = &spec,
                .workload = classify_workload(spec.ops),
                .baseline = cached_baseline(ctx, spec)};
  if (stage == Stage::kGenerate) return c;
  c.base_source = a.kernel.empty() ? "// " + placeholder(repair ? "the kernel under repair (pass --kernel FILE)"
                                                                : "the best verified kernel (pass --kernel FILE)")
                                   : CUTEGEN_TRY(read_input(a.kernel, "--kernel"));
  if (!repair) {
    c.best = placeholder("the best kernel's speedup vs eager and fraction of the roofline");
    c.statics = placeholder("registers, shared memory and spills per kernel, from the build");
    return c;
  }
  if (!a.diagnostics.empty())
    c.failure = CUTEGEN_TRY(read_input(a.diagnostics, "--diagnostics"));
  else if (stage == Stage::kRepairCompile)
    c.failure = placeholder("the condensed compiler errors (pass --diagnostics FILE)");
  else
    c.failure =
        placeholder("the evaluator's report: which output differs, where, and the pattern (pass --diagnostics FILE)");
  return c;
}

}  // namespace

void define_prompt(CLI::App& sub, Context& ctx) {
  auto args = std::make_shared<PromptArgs>();
  sub.add_option("task", args->task, "a KernelBench-style task file")->required();
  sub.add_option("--stage", args->stage,
                 "generate (default), repair_compile, repair_wrong, optimize (the task's workload class picks the "
                 "template) or tune");
  sub.add_option("--kernel", args->kernel,
                 "the kernel the stage shows (repairs: the failing one; optimize, tune: the best); without it a "
                 "labelled [placeholder: ...] stands in");
  sub.add_option("--diagnostics", args->diagnostics,
                 "repairs: the compiler errors or the evaluator's report; without it a labelled placeholder");
  sub.add_flag("--json", ctx.json, "print {stage, template, system, user} as JSON");
  sub.footer(
      "Eager's time and the floor come from the baseline `cutegen run` cached on this machine, else they "
      "read unknown; the tolerances from eval.*. Needs no GPU and no model.");
  sub.callback([&ctx, args]() {
    if (auto st = ctx.resolve(); !st) throw CommandError{st.message()};
    auto stage = parse_stage(args->stage);
    if (!stage) throw CommandError{stage.message()};
    auto& c = ctx.config;
    auto tolerance = configured_tolerance(c);
    if (!tolerance) throw CommandError{tolerance.message()};
    // Seeded as the evaluator seeds it, so the spec (and its cached baseline) are the run's.
    auto spec = load_task_spec(args->task, python_executable(c.str("eval.python")), c.integer("eval.seed"),
                               std::chrono::seconds(c.integer("task.timeout_s")), ctx.spec_cache_dir());
    if (!spec) throw CommandError{spec.message(), 1};
    auto step = step_for(*stage, *args, ctx, *spec);
    if (!step) throw CommandError{step.message()};
    if (step->baseline.eager_rel_err > 0)
      step->baseline.accuracy_limit = accuracy_limit(*tolerance, step->baseline.eager_rel_err);
    LlmProposer proposer({}, PromptLibrary(prompts_dir(c.str("agent.prompts_dir"))),
                         {.arch = knowledge_arch(c.str("build.arch")), .tolerance = *tolerance});
    auto req = proposer.request_for(*step);
    if (!req) throw CommandError{req.message(), 1};
    std::string name = template_for(*step);
    const std::string& user = req->messages.at(0).content;
    if (ctx.json) {
      nlohmann::json doc = {
          {"stage", cutegen::name(*stage)}, {"template", name}, {"system", req->system}, {"user", user}};
      std::printf("%s\n", doc.dump(2).c_str());
      return;
    }
    std::printf("===== system (prompts/system.md) =====\n%s\n===== user (prompts/%s.md) =====\n%s", req->system.c_str(),
                name.c_str(), user.c_str());
  });
}

}  // namespace cutegen
