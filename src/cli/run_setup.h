// What `cutegen run/resume/replay/reeval` share: tasks from paths, and the agent's parts
// (evaluator, profiler, model clients, ledger, budget, transcript) built from the config.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agent/interfaces.h"
#include "agent/state.h"
#include "cli/context.h"
#include "cli/eval_setup.h"
#include "llm/client.h"
#include "store/run_store.h"

namespace cutegen {

// Task files from files and folders (a folder contributes its *.py and *.json, sorted). A .json
// file is a TaskSpec document (its relative "path" resolved beside it); a .py goes through the bridge.
Result<std::vector<std::string>> expand_task_paths(const std::vector<std::string>& args);
Result<TaskSpec> load_task(const Context& ctx, const std::string& path);

struct AgentParts {
  std::optional<EvalSetup> setup;
  std::optional<Evaluator> real_eval;
  std::unique_ptr<KernelEvaluator> evaluator;
  std::unique_ptr<KernelProfiler> profiler;
  std::optional<Ledger> ledger;
  std::unique_ptr<Budget> budget;
  std::unique_ptr<TranscriptWriter> transcript;
  std::vector<std::unique_ptr<Client>> clients;
  std::unique_ptr<Proposer> proposer;
  AgentOptions options;
};

// agent.mode resolved: expert, llm or hybrid ("auto": hybrid when a model is configured, else expert).
Result<std::string> agent_mode(const Config& c);
// What a run's summary names as its author: "expert", the model spec, or "expert, then SPEC".
std::string author_line(const std::string& mode, const std::string& model);

// The evaluator alone (reeval needs no model).
Status make_evaluator(Context& ctx, AgentParts& parts);
Result<std::unique_ptr<AgentParts>> make_agent(Context& ctx, RunStore& store, const std::string& run_id);

// The run folder for RUN: a path holding run.db, else <store.dir>/RUN.
std::string run_dir(const Context& ctx, const std::string& run);
// "key = value" lines of every key not at its default: what a run records and resume reuses.
std::string config_text(const Config& c);
Status apply_config_text(Config& c, const std::string& text);
// Resolves the context's config with a run's recorded config over it; explicit --set still wins.
void resolve_with(Context& ctx, const std::string& stored);

}  // namespace cutegen
