#include "agent/loop.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "agent/workload.h"
#include "core/strings.h"

namespace cutegen {
namespace {

std::string best_line(const StepRecord& b) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "%.2fx vs eager (95%% CI %.2f-%.2f), %.0f%% of the roofline (step %d)", b.speedup,
                b.speedup_low, b.speedup_high, 100 * b.roofline_fraction, b.step + 1);
  return buf;
}

// A point written before strategies were named (schema-1 runs: `passes=`, `cluster=`, `regs=`).
// Only an elementwise task's is unambiguous (one strategy; the old keys were unused there); other
// classes' old points mapped integers to designs per template, so they are not read.
std::optional<Params> legacy_point(const std::string& point, Workload workload) {
  if (workload != Workload::kElementwise) return std::nullopt;
  std::string kept;
  for (auto& item : split(point, ',')) {
    auto key = trim(item.substr(0, item.find('=')));
    if (key != "passes" && key != "cluster" && key != "regs") kept += (kept.empty() ? "" : ",") + item;
  }
  auto p = parse_params(kept + ",strategy=elementwise");
  return p ? std::optional<Params>(*p) : std::nullopt;
}

// The expert's point as the store holds it (params.h's "name=value,..."); none for other steps,
// and for a point this version's parameters cannot read.
std::optional<Params> stored_point(const StepRecord& r, Workload workload) {
  if (r.point.empty()) return std::nullopt;
  auto p = parse_params(r.point);
  return p ? std::optional<Params>(*p) : legacy_point(r.point, workload);
}

StepContext context_for(const TaskState& s, const TaskEnv& env, const TaskSpec& spec, Workload workload,
                        const Baseline& baseline) {
  StepContext c{.stage = next_stage(s, env.options),
                .step = s.next_step(),
                .max_steps = env.options.max_steps,
                .task = &spec,
                .workload = workload,
                .baseline = baseline};
  const StepRecord* base = s.best_step();
  if (c.stage == Stage::kRepairCompile || c.stage == Stage::kRepairWrong) {
    base = &s.steps[s.last_candidate];
    c.failure = base->report.empty() ? base->summary : base->report;
  }
  if (c.stage != Stage::kGenerate && base)
    c.base_source = base->source, c.base_step = base->step, c.statics = base->statics;
  if (auto b = s.best_step()) c.best = best_line(*b);
  c.memory = render_memory(s);
  for (auto& r : s.steps)
    c.history.push_back({.step = r.step,
                         .stage = r.stage,
                         .edit = r.edit,
                         .edit_how = r.edit_how,
                         .point = stored_point(r, workload),
                         .verdict = r.verdict,
                         .outcome = r.outcome,
                         .speedup = r.speedup});
  return c;
}

Result<ProfileSummary> profile_of_best(const TaskEnv& env, const TaskSpec& spec, const StepRecord& best) {
  if (auto saved = CUTEGEN_TRY(env.store->profile(spec.name, best.step))) return *saved;
  auto p =
      env.profiler ? env.profiler->profile(spec, best.source) : Result<ProfileSummary>(error("no profiler configured"));
  ProfileSummary summary = p ? *p : ProfileSummary{.text = "(no runtime profile: " + p.message() + ")"};
  CUTEGEN_TRY(env.store->save_profile(spec.name, best.step, summary));
  return summary;
}

void fill(StepRecord& r, const KernelEval& e) {
  r.verdict = e.verdict, r.summary = e.summary, r.report = e.report, r.speedup = e.speedup;
  r.speedup_low = e.speedup_low, r.speedup_high = e.speedup_high, r.roofline_fraction = e.roofline_fraction;
  r.statics = e.statics, r.fingerprint = e.fingerprint;
}

// The winner re-measured (the real evaluator runs a fresh worker process); the task row is closed.
Result<TaskOutcome> finish(const TaskEnv& env, const TaskSpec& spec, TaskRow row, const TaskState& s,
                           const std::string& why) {
  row.stop_reason = why;
  if (auto b = s.best_step()) {
    auto again = CUTEGEN_TRY(env.evaluator->evaluate(spec, b->source, spec.name + "_final.cu"));
    row.final_json = nlohmann::json{{"step", b->step},
                                    {"verdict", name(again.verdict)},
                                    {"summary", again.summary},
                                    {"speedup", again.speedup},
                                    {"speedup_low", again.speedup_low},
                                    {"speedup_high", again.speedup_high},
                                    {"compile_speedup", again.compile_speedup},
                                    {"compile_speedup_low", again.compile_speedup_low},
                                    {"compile_speedup_high", again.compile_speedup_high},
                                    {"roofline_fraction", again.roofline_fraction}}
                         .dump();
    row.best_step = b->step, row.status = TaskStatus::kDone;
  } else {
    row.status = TaskStatus::kFailed;
  }
  CUTEGEN_TRY(env.store->update_task(row));
  CUTEGEN_TRY(env.store->event(spec.name, s.next_step(), EventKind::kFinish, name(row.status) + (": " + why)));
  return TaskOutcome{row.status == TaskStatus::kDone ? TaskEnd::kDone : TaskEnd::kNoKernel, why};
}

}  // namespace

Result<TaskOutcome> run_task(const TaskEnv& env, const TaskSpec& spec, TaskRow row) {
  const AgentOptions& o = env.options;
  TaskState s = fold(CUTEGEN_TRY(env.store->steps(spec.name)), o);
  Workload workload = classify_workload(spec.ops);
  Baseline baseline = CUTEGEN_TRY(env.evaluator->baseline(spec));
  row.status = TaskStatus::kRunning;
  CUTEGEN_TRY(env.store->update_task(row));
  long tokens = 0;
  for (auto& r : s.steps)
    tokens += r.tokens;
  while (true) {
    if (auto why = stop_reason(s, o)) return finish(env, spec, row, s, *why);
    StepContext ctx = context_for(s, env, spec, workload, baseline);
    if (profile_due(s, o, workload, ctx.stage)) ctx.profile = CUTEGEN_TRY(profile_of_best(env, spec, *s.best_step()));
    if (env.progress)
      env.progress({spec.name, ctx.stage, ctx.step, s.best_step() ? s.best_step()->speedup : 0, tokens, ""});
    Proposal p = CUTEGEN_TRY(env.proposer->propose(ctx));
    tokens += p.tokens;
    if (p.status == Proposal::Status::kWaiting) {
      row.status = TaskStatus::kWaiting;
      CUTEGEN_TRY(env.store->update_task(row));
      CUTEGEN_TRY(env.store->event(spec.name, ctx.step, EventKind::kWaiting, p.detail));
      return TaskOutcome{TaskEnd::kWaiting, p.detail};
    }
    if (p.status == Proposal::Status::kBudget) return finish(env, spec, row, s, "budget: " + p.detail);
    if (p.status == Proposal::Status::kFailed && p.end_task) return finish(env, spec, row, s, p.detail);
    StepRecord r{.task = spec.name,
                 .step = ctx.step,
                 .stage = ctx.stage,
                 .parent = ctx.base_step,
                 .source = p.source,
                 .edit = p.edit,
                 .edit_how = p.edit_how,
                 .point = p.point ? to_string(*p.point) : "",
                 .profiled = !ctx.profile.text.empty(),
                 .tokens = p.tokens};
    if (p.status == Proposal::Status::kFailed) {
      r.summary = p.detail, r.note = "no usable answer: " + p.detail;
    } else {
      if (!p.ahead.empty()) {  // this candidate and the next likely ones compile side by side
        p.ahead.insert(p.ahead.begin(), p.source);
        env.evaluator->prebuild(spec, std::move(p.ahead));
      }
      fill(r, CUTEGEN_TRY(
                  env.evaluator->evaluate(spec, p.source, spec.name + "_step" + std::to_string(ctx.step + 1) + ".cu")));
    }
    judge(s, o, r);
    CUTEGEN_TRY(env.store->commit_step(r));
    apply(s, o, r);
    if (env.progress)
      env.progress({spec.name, r.stage, r.step, s.best_step() ? s.best_step()->speedup : 0, tokens,
                    step_verdict_name(r) + (", " + std::string(name(r.outcome)))});
  }
}

Status fail_unloadable(RunStore& store, TaskRow row, const std::string& load_error) {
  row.status = TaskStatus::kFailed;
  row.stop_reason = "cannot load the task: " + load_error;
  CUTEGEN_TRY(store.update_task(row));
  return store.event(row.name, 0, EventKind::kFinish, "failed: " + row.stop_reason);
}

}  // namespace cutegen
