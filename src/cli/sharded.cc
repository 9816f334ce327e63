#include "cli/sharded.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/deal.h"
#include "cli/run_output.h"
#include "cli/run_setup.h"
#include "core/strings.h"
#include "store/run_view.h"

namespace cutegen {
namespace {

bool finished(TaskStatus s) { return s == TaskStatus::kDone || s == TaskStatus::kFailed; }

std::vector<TaskRow> unfinished(const RunView& view) {
  std::vector<TaskRow> out;
  for (auto& t : must(view.tasks()))
    if (!finished(t.status)) out.push_back(t);
  return out;
}

// The Slurm element ("12_3") that last took each task, over all submissions.
std::map<std::string, std::string> latest_elements(const std::vector<Submission>& subs) {
  std::map<std::string, std::string> out;
  for (auto& s : subs)
    for (size_t i = 0; i < s.shares.size(); ++i)
      for (auto& task : s.shares[i])
        out[task] = s.job_id + "_" + std::to_string(i);
  return out;
}

// A shard marked running whose lock nobody holds was stopped (killed, cancelled, out of time).
bool shard_live(const std::string& dir) {
  auto s = RunStore::open(dir);
  return !s.ok() && contains(s.message(), "in use");
}

void finish(Context& ctx, const std::string& dir) {
  auto view = must(RunView::open(dir));
  if (auto st = write_summary(view); !st) fail(st.message());
  print_table(view, ctx);
  std::fprintf(stderr, "summary: %s/summary.md\n", dir.c_str());
  ctx.exit_code = kExitOk;
  for (auto& t : must(view.tasks()))
    if (t.status != TaskStatus::kDone) ctx.exit_code = kExitNegative;
}

}  // namespace

Execution recorded_execution(const RunStore& run, std::string* gpus) {
  Execution e = Execution::kInProcess;
  for (auto& ev : must(run.events())) {
    if (ev.kind == EventKind::kDeal) {
      e = Execution::kDealt;
      if (gpus) *gpus = ev.detail;
    }
    if (ev.kind == EventKind::kSlurmSubmit) e = Execution::kSlurm;
  }
  return e;
}

void drive_dealt(Context& ctx, RunStore& run, const std::string& gpus) {
  auto meta = must(run.meta());
  auto slots = must(parse_gpus(ctx, gpus));
  must(Result<Ok>(run.event("", -1, EventKind::kDeal, gpus)));
  auto todo = unfinished(must(RunView::open(run.dir())));
  std::fprintf(stderr, "%zu tasks over %zu GPU%s (%s)\n", todo.size(), slots.size(), slots.size() == 1 ? "" : "s",
               gpus.c_str());
  auto r = deal_tasks(run.dir(), todo, slots, child_flags(ctx, meta.config));
  if (!r.error.empty()) {
    (void)write_summary(must(RunView::open(run.dir())));
    fail(r.error + " (its log: " + run.dir() + "/logs/)", r.exit_code);
  }
  finish(ctx, run.dir());
}

void submit_slurm(Context& ctx, RunStore& run, const SlurmOptions& opt) {
  auto meta = must(run.meta());
  auto subs = must(submissions(run));
  std::set<std::string> live;
  if (!subs.empty()) {
    auto states = must(element_states(meta.id));
    for (auto& [task, element] : latest_elements(subs))
      if (auto it = states.find(element); it != states.end() && slurm_state_live(it->second)) live.insert(task);
  }
  std::vector<std::string> names;
  for (auto& t : unfinished(must(RunView::open(run.dir()))))
    if (!live.count(t.name)) names.push_back(t.name);
  if (names.empty()) {
    std::fprintf(stderr, "nothing to submit: every task is finished, queued or running (cutegen status %s)\n",
                 run.dir().c_str());
    return;
  }
  auto sub =
      must(submit_array(run.dir(), meta.id, names, opt, child_flags(ctx, ""), static_cast<int>(subs.size()) + 1));
  must(Result<Ok>(record_submission(run, sub, opt)));
  std::fprintf(stderr, "submitted %zu task%s as Slurm job %s (%zu array elements); see `cutegen status %s`\n",
               names.size(), names.size() == 1 ? "" : "s", sub.job_id.c_str(), sub.shares.size(), run.dir().c_str());
  if (ctx.json)
    std::printf("%s\n", nlohmann::json{{"run", run.dir()}, {"job", sub.job_id}, {"tasks", names}}.dump(2).c_str());
}

// `cutegen status RUN`: each task's state from its shard and, for a Slurm run, from Slurm.
void define_status(CLI::App& sub, Context& ctx) {
  auto run = std::make_shared<std::string>();
  sub.add_option("run", *run, "run folder or id")->required();
  sub.callback([&ctx, run]() {
    if (auto st = ctx.resolve(); !st) fail(st.message());
    std::string dir = run_dir(ctx, *run);
    auto view = must(RunView::open(dir));
    auto meta = must(view.meta());
    bool slurm = recorded_execution(view.run()) == Execution::kSlurm;
    std::map<std::string, std::string> states, elements;
    if (slurm) {
      states = must(element_states(meta.id));
      elements = latest_elements(must(submissions(view.run())));
    }
    std::map<std::string, int> counts;
    nlohmann::json j = nlohmann::json::array();
    if (!ctx.json) std::printf("%-24s %-8s %-18s %-6s %s\n", "task", "state", "slurm", "steps", "best");
    for (auto& t : must(view.tasks())) {
      std::string element = elements.count(t.name) ? elements[t.name] : "";
      std::string slurm_state = states.count(element) ? states[element] : "";
      std::string state = name(t.status);
      if (!finished(t.status)) {
        if (slurm_state == "PENDING")
          state = "queued";
        else if (slurm_state_live(slurm_state))
          state = "running";
        else if (state == "running" && !(view.sharded(t.name) && shard_live(shard_dir(dir, t.name))))
          state = "stopped";
      }
      ++counts[state];
      auto steps = must(view.steps(t.name));
      double best = 0;  // so far: the winner is re-measured only at the end
      for (auto& r : steps)
        if (r.outcome == StepOutcome::kAccepted) best = std::max(best, r.speedup);
      std::string where = element.empty() ? "-" : element + " " + (slurm_state.empty() ? "gone" : slurm_state);
      if (ctx.json) {
        j.push_back({{"task", t.name},
                     {"state", state},
                     {"slurm", where},
                     {"steps", steps.size()},
                     {"best_speedup", best > 0 ? nlohmann::json(best) : nlohmann::json()}});
        continue;
      }
      char best_text[32] = "-";  // none accepted yet
      if (best > 0) std::snprintf(best_text, sizeof best_text, "%.2fx", best);
      std::printf("%-24s %-8s %-18s %-6zu %s\n", t.name.c_str(), state.c_str(), where.c_str(), steps.size(), best_text);
    }
    std::string line;
    for (auto& [state, n] : counts)
      line += (line.empty() ? "" : ", ") + std::to_string(n) + " " + state;
    if (ctx.json)
      std::printf("%s\n", nlohmann::json{{"run", dir}, {"tasks", j}, {"counts", counts}}.dump(2).c_str());
    else
      std::printf("%s\n", line.c_str());
    (void)write_summary(view);  // what is done so far, all shards as one run
  });
}

// `cutegen work RUN --submission N`: a Slurm array element's share, dealt over the GPUs it was given.
void define_work(CLI::App& sub, Context& ctx) {
  struct Args {
    std::string run, gpus = "all";
    int submission = 0, element = -1;
  };
  auto a = std::make_shared<Args>();
  sub.add_option("run", a->run, "run folder")->required();
  sub.add_option("--submission", a->submission, "the submission, as the run recorded it")->required();
  sub.add_option("--element", a->element, "the share (default: SLURM_ARRAY_TASK_ID)");
  sub.add_option("--gpus", a->gpus, "all (the job's GPUs) or a list such as 0,1");
  sub.callback([&ctx, a]() {
    if (auto st = ctx.resolve(); !st) fail(st.message());
    auto view = must(RunView::open(a->run));
    auto meta = must(view.meta());
    resolve_with(ctx, meta.config);
    int element = a->element;
    if (element < 0)
      if (const char* id = std::getenv("SLURM_ARRAY_TASK_ID")) element = std::atoi(id);
    std::vector<std::string> share;
    for (auto& s : must(submissions(view.run())))
      if (s.number == a->submission && element >= 0 && element < static_cast<int>(s.shares.size()))
        share = s.shares[element];
    if (share.empty())
      fail(a->run + ": no share " + std::to_string(element) + " in submission " + std::to_string(a->submission));
    std::vector<TaskRow> todo;
    for (auto& t : must(view.tasks()))
      if (std::find(share.begin(), share.end(), t.name) != share.end() && !finished(t.status)) todo.push_back(t);
    auto r = deal_tasks(a->run, todo, must(parse_gpus(ctx, a->gpus)), child_flags(ctx, meta.config));
    if (!r.error.empty()) fail(r.error, r.exit_code);
    ctx.exit_code = r.exit_code;
  });
}

}  // namespace cutegen
