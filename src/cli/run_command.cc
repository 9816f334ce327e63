// `cutegen run|resume|replay|reeval|export`: the agent over a run folder. Exit codes (exit_codes.h):
// 0 every task ended with a verified kernel, 1 some task has none (a task whose file cannot be
// loaded is one: it is marked failed and the run goes on), 2 an error, 5 no GPU for the real
// evaluator, 6 waiting for a model's answer file (file backend): `cutegen resume RUN` continues.
#include <unistd.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "agent/export.h"
#include "agent/loop.h"
#include "cli/commands.h"
#include "cli/deal.h"
#include "cli/run_output.h"
#include "cli/run_setup.h"
#include "cli/sharded.h"
#include "core/strings.h"
#include "llm/settings.h"
#include "sys/fs.h"

namespace cutegen {
namespace {

std::string fs_stem(const std::string& path) {
  auto slash = path.rfind('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  auto dot = base.rfind('.');
  base = dot == std::string::npos ? base : base.substr(0, dot);
  return base.ends_with("_spec") ? base.substr(0, base.size() - 5) : base;
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

void progress_line(const Progress& p, double elapsed) {
  static bool tty = isatty(2);
  char b[400];
  std::snprintf(b, sizeof b, "[%s] %-14s step %-3d best %.2fx  tokens %ld  %.0fs%s%s", p.task.c_str(), name(p.stage),
                p.step + 1, p.best_speedup, p.tokens, elapsed, p.last.empty() ? "" : "  ", p.last.c_str());
  if (tty)
    std::fprintf(stderr, "\r\033[K%s", b);
  else if (!p.last.empty())
    std::fprintf(stderr, "%s\n", b);
}

// Runs every unfinished task of the store in order.
void drive(Context& ctx, RunStore& store) {
  auto meta = must(store.meta());
  auto parts = must(make_agent(ctx, store, meta.id));
  auto start = std::chrono::steady_clock::now();
  TaskEnv env{.store = &store,
              .evaluator = parts->evaluator.get(),
              .profiler = parts->profiler.get(),
              .proposer = parts->proposer.get(),
              .options = parts->options,
              .progress = [start](const Progress& p) {
                progress_line(p, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
              }};
  // Stops the run with the summary of what is done so far written.
  auto stop = [&](const std::string& message, int code) {
    (void)write_summary(must(RunView::open(store.dir())));
    fail(message, code);
  };
  int code = kExitOk;
  for (auto& row : must(store.tasks())) {
    if (row.status == TaskStatus::kDone) continue;
    if (row.status == TaskStatus::kFailed) {
      code = kExitNegative;
      continue;
    }
    auto spec = load_task(ctx, row.path);
    if (!spec && code_for_error(spec.message()) == kExitEnvironment)  // no Python or torch: every task would fail
      stop(row.name + ": " + spec.message(), kExitEnvironment);
    if (!spec) {  // this task's own file is at fault: record it and go on, as pytest does
      if (auto st = fail_unloadable(store, row, spec.message()); !st) stop(st.message(), kExitInput);
      std::fprintf(stderr, "[%s] cannot load the task: %s\n", row.name.c_str(), first_line(spec.message()).c_str());
      code = kExitNegative;
      continue;
    }
    if (row.spec_json.empty()) row.spec_json = spec->json, must(Result<Ok>(store.update_task(row)));
    parts->budget->start_task(must(parts->ledger->spent(meta.id, row.name)));
    for (auto& c : parts->clients)
      c->set_task(row.name);
    auto out = run_task(env, *spec, row);
    if (isatty(2)) std::fputc('\n', stderr);
    if (!out) stop(row.name + ": " + out.message(), code_for_error(out.message()));
    if (out->end == TaskEnd::kWaiting)
      stop("waiting for a model's answer: write it to " + out->detail + ", then `cutegen resume " + store.dir() + "`",
           kExitWaiting);
    if (out->end == TaskEnd::kNoKernel) code = kExitNegative;
  }
  auto view = must(RunView::open(store.dir()));
  if (auto st = write_summary(view); !st) fail(st.message());
  print_table(view, ctx);
  std::fprintf(stderr, "summary: %s/summary.md\n", store.dir().c_str());
  ctx.exit_code = code;
}

// The real evaluator needs a GPU; said before any folder or model call (scripted: needs none).
void require_gpu_for_evaluator(const Context& ctx, const std::string& command) {
  if (ctx.config.str("agent.evaluator") != "real") return;
  if (auto st = ctx.require_gpu(command + " (agent.evaluator = real)"); !st) fail(st.message(), kExitEnvironment);
}

// Runs recorded before agent.mode existed were the model's alone.
std::string with_recorded_mode(const std::string& stored) {
  return contains(stored, "agent.mode = ") ? stored : stored + "agent.mode = llm\n";
}

struct RunArgs {
  std::vector<std::string> tasks;
  std::string llm, run_id, agent, gpu, gpus;
  bool slurm = false;
  SlurmOptions slurm_options;
  int max_steps = 0;
  long budget_tokens = -1;
  double budget_dollars = -1;
};

void start_run(Context& ctx, const RunArgs& a, const std::string& stored_config = "") {
  resolve_with(ctx, stored_config);
  auto& c = ctx.config;
  if (!a.llm.empty()) must(Result<Ok>(c.set("llm.model", a.llm)));
  if (!a.agent.empty()) must(Result<Ok>(c.set("agent.mode", a.agent)));
  if (!a.gpu.empty()) must(Result<Ok>(c.set("eval.gpu", a.gpu)));
  if (a.max_steps > 0) must(Result<Ok>(c.set("agent.max_steps", std::to_string(a.max_steps))));
  if (a.budget_tokens >= 0) must(Result<Ok>(c.set("llm.budget_run_tokens", std::to_string(a.budget_tokens))));
  if (a.budget_dollars >= 0) must(Result<Ok>(c.set("llm.budget_run_dollars", std::to_string(a.budget_dollars))));
  auto paths = must(expand_task_paths(a.tasks));
  must(agent_options(c));
  std::string mode = must(agent_mode(c));
  must(Result<Ok>(c.set("agent.mode", mode)));  // recorded resolved, so resume and replay use the same
  for (const char* role : {"generator", "repairer", "optimizer"})
    if (mode != "expert" && model_spec_for_role(c, role).empty())
      fail(std::string("no model for the ") + role + " role: pass --llm SPEC or set llm.model (or --agent expert)");
  if (!a.slurm) require_gpu_for_evaluator(ctx, "cutegen run");  // a cluster's nodes have them, not this one
  if (!a.gpus.empty()) must(parse_gpus(ctx, a.gpus));           // said before the run folder exists
  std::string id = a.run_id.empty() ? new_run_id() : a.run_id;
  std::vector<TaskRow> tasks;
  for (auto& p : paths)
    tasks.push_back({.name = fs_stem(p), .path = p, .position = static_cast<int>(tasks.size())});
  auto store =
      must(RunStore::create(c.str("store.dir") + "/" + id,
                            {.id = id, .config = config_text(c), .llm = author_line(mode, c.str("llm.model"))}, tasks));
  std::fprintf(stderr, "run %s in %s (agent: %s)\n", id.c_str(), store.dir().c_str(), mode.c_str());
  if (a.slurm)
    submit_slurm(ctx, store, a.slurm_options);
  else if (!a.gpus.empty())
    drive_dealt(ctx, store, a.gpus);
  else
    drive(ctx, store);
}

}  // namespace

void define_run(CLI::App& sub, Context& ctx) {
  auto a = std::make_shared<RunArgs>();
  sub.add_option("tasks", a->tasks, "task files or folders (a whole KernelBench level)")->required();
  sub.add_option("--llm", a->llm, "model spec for every role (overrides llm.model)");
  sub.add_option("--agent", a->agent,
                 "expert (built-in templates, no model), llm, or hybrid (expert first, then the "
                 "model); default agent.mode: hybrid with a model, else expert")
      ->check(CLI::IsMember({"expert", "llm", "hybrid", "auto"}));
  sub.add_option("--max-steps", a->max_steps, "steps per task (overrides agent.max_steps)");
  sub.add_option("--budget-tokens", a->budget_tokens, "tokens for the whole run (llm.budget_run_tokens)");
  sub.add_option("--budget-dollars", a->budget_dollars, "dollars for the whole run (llm.budget_run_dollars)");
  sub.add_option("--run-id", a->run_id, "name the run folder (default: a timestamp)");
  sub.add_option("--gpu", a->gpu, "the GPU to run on, an nvidia-smi index (overrides eval.gpu)");
  sub.add_option("--gpus", a->gpus, "deal the tasks over these GPUs, one task per GPU at a time: all, or 0,2,...")
      ->excludes("--gpu");
  auto slurm =
      sub.add_flag("--slurm", a->slurm, "submit the tasks as a Slurm job array (sbatch); see `cutegen status`");
  sub.add_option("--partition", a->slurm_options.partition, "Slurm partition (default: the cluster's)")->needs(slurm);
  sub.add_option("--gpus-per-job", a->slurm_options.gpus_per_job, "GPUs per array element (0: none, default 1)")
      ->needs(slurm);
  sub.add_option("--tasks-per-job", a->slurm_options.tasks_per_job, "tasks per array element (default 1)")
      ->needs(slurm);
  sub.add_option("--time", a->slurm_options.time, "Slurm time limit per element, e.g. 2:00:00")->needs(slurm);
  sub.callback([&ctx, a]() {
    if (a->slurm && !a->gpus.empty())
      fail("--slurm and --gpus: an element uses the GPUs Slurm gives it (--gpus-per-job)");
    start_run(ctx, *a);
  });
}

void define_resume(CLI::App& sub, Context& ctx) {
  auto run = std::make_shared<std::string>();
  auto gpus = std::make_shared<std::string>();
  sub.add_option("run", *run, "run folder or id")->required();
  sub.add_option("--gpus", *gpus, "a dealt run: deal over these GPUs instead of the recorded ones");
  sub.callback([&ctx, run, gpus]() {
    if (auto st = ctx.resolve(); !st) fail(st.message());
    auto store = must(RunStore::open(run_dir(ctx, *run)));
    resolve_with(ctx, with_recorded_mode(must(store.meta()).config));
    std::string recorded_gpus;
    auto how = recorded_execution(store, &recorded_gpus);
    if (how == Execution::kSlurm) return submit_slurm(ctx, store, must(recorded_slurm_options(store)));
    if (how == Execution::kInProcess && !gpus->empty())
      fail(store.dir() + " ran in one process: resume it without --gpus (its steps are in its own run.db)");
    require_gpu_for_evaluator(ctx, "cutegen resume");
    if (how == Execution::kDealt) return drive_dealt(ctx, store, gpus->empty() ? recorded_gpus : *gpus);
    drive(ctx, store);
  });
}

void define_replay(CLI::App& sub, Context& ctx) {
  auto run = std::make_shared<std::string>();
  auto id = std::make_shared<std::string>();
  sub.add_option("run", *run, "the recorded run (folder or id)")->required();
  sub.add_option("--run-id", *id, "name the new run folder");
  sub.callback([&ctx, run, id]() {
    if (auto st = ctx.resolve(); !st) fail(st.message());
    std::string dir = run_dir(ctx, *run);
    auto old = must(RunStore::open_readonly(dir));
    RunArgs a{.llm = "replay:" + absolute_path(dir) + "/transcript.jsonl", .run_id = *id};
    for (auto& t : must(old.tasks()))
      a.tasks.push_back(t.path);
    std::string stored = must(old.meta()).config;
    std::string kept;  // the recorded config, without the models: every role replays
    for (auto& l : split_lines(stored))
      if (!l.starts_with("llm.") || !contains(l, "model =")) kept += l + "\n";
    start_run(ctx, a, with_recorded_mode(kept));
  });
}

// Re-measures each task's best kernel. The evaluator is said first (--evaluator, else the one the
// run recorded); the exit code is the first re-measurement that did not pass, as `cutegen eval`
// would exit for it, or 1 when the run has no verified kernel to re-measure.
void define_reeval(CLI::App& sub, Context& ctx) {
  auto run = std::make_shared<std::string>();
  auto evaluator = std::make_shared<std::string>();
  sub.add_option("run", *run, "run folder or id")->required();
  sub.add_option("--evaluator", *evaluator, "real or scripted:FILE (default: agent.evaluator as the run recorded it)");
  sub.callback([&ctx, run, evaluator]() {
    if (auto st = ctx.resolve(); !st) fail(st.message());
    auto store = must(RunStore::open(run_dir(ctx, *run)));
    std::string recorded = must(store.meta()).config;
    std::string from = ctx.config.origin("agent.evaluator");  // the file, environment or default, unless...
    if (contains(recorded, "agent.evaluator = ")) from = "as the run recorded it";
    for (auto& kv : ctx.overrides)
      if (kv.starts_with("agent.evaluator")) from = "--set";
    if (!evaluator->empty()) from = "--evaluator";
    resolve_with(ctx, recorded);
    if (!evaluator->empty()) must(Result<Ok>(ctx.config.set("agent.evaluator", *evaluator)));
    std::string used = ctx.config.str("agent.evaluator");
    std::fprintf(stderr, "reeval %s with the evaluator %s (%s)\n", store.dir().c_str(), used.c_str(), from.c_str());
    require_gpu_for_evaluator(ctx, "cutegen reeval");
    AgentParts parts;
    if (auto st = make_evaluator(ctx, parts); !st) fail(st.message());
    nlohmann::json j = nlohmann::json::array();
    int code = kExitOk, measured = 0;
    auto view = must(RunView::open(store.dir()));  // a run in shards too; its events go to the run's own file
    for (auto& t : must(view.tasks())) {
      if (t.best_step < 0) continue;
      auto steps = must(view.steps(t.name));
      auto spec = must(load_task(ctx, t.path));
      auto e = must(parts.evaluator->evaluate(spec, steps.at(t.best_step).source, t.name + "_reeval.cu"));
      ++measured;
      if (code == kExitOk) code = code_for_verdict(e.verdict);
      nlohmann::json row = {{"task", t.name},
                            {"step", t.best_step},
                            {"verdict", name(e.verdict)},
                            {"speedup", e.speedup},
                            {"recorded_speedup", steps.at(t.best_step).speedup},
                            {"roofline_fraction", e.roofline_fraction},
                            {"summary", e.summary}};
      must(Result<Ok>(store.event(t.name, t.best_step, EventKind::kReeval, row.dump())));
      if (ctx.json)
        j.push_back(row);
      else
        std::printf("%-24s step %-3d %-10s %.2fx (recorded %.2fx)%s%s\n", t.name.c_str(), t.best_step + 1,
                    name(e.verdict), e.speedup, steps.at(t.best_step).speedup, e.pass() ? "" : "  ",
                    e.pass() ? "" : first_line(e.summary).c_str());
    }
    if (measured == 0) fail("no verified kernel in " + store.dir() + " to re-measure", kExitNegative);
    if (ctx.json)
      std::printf("%s\n", nlohmann::json{{"run", store.dir()}, {"evaluator", used}, {"tasks", j}}.dump(2).c_str());
    ctx.exit_code = code;
  });
}

void define_export(CLI::App& sub, Context& ctx) {
  auto a = std::make_shared<std::array<std::string, 3>>();
  (*a)[2] = ".";
  sub.add_option("run", (*a)[0], "run folder or id")->required();
  sub.add_option("task", (*a)[1], "task name")->required();
  sub.add_option("--out", (*a)[2], "output folder (default: .)");
  sub.callback([&ctx, a]() {
    if (auto st = ctx.resolve(); !st) fail(st.message());
    auto store = must(RunView::open(run_dir(ctx, (*a)[0])));
    for (auto& t : must(store.tasks())) {
      if (t.name != (*a)[1]) continue;
      if (t.best_step < 0) fail(t.name + ": no verified kernel in this run (status " + name(t.status) + ")");
      auto spec = must(load_task(ctx, t.path));
      auto arch = ctx.config.str("build.arch");
      auto [cu, py] = must(export_kernel(spec, must(store.steps(t.name)).at(t.best_step).source, (*a)[2],
                                         arch == "auto" ? "sm_90a" : arch));
      std::printf("%s\n%s\n", cu.c_str(), py.c_str());
      return;
    }
    fail((*a)[1] + ": no such task in this run");
  });
}

}  // namespace cutegen
