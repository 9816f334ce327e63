#include "cli/run_setup.h"

#include <algorithm>
#include <filesystem>

#include "agent/doubles.h"
#include "agent/expert_proposer.h"
#include "agent/hybrid_proposer.h"
#include "agent/llm_proposer.h"
#include "agent/real_adapters.h"
#include "core/strings.h"
#include "llm/settings.h"
#include "sys/fs.h"
#include "sys/python.h"
#include "task/loader.h"

namespace cutegen {

namespace fs = std::filesystem;

Result<std::vector<std::string>> expand_task_paths(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (auto& a : args) {
    std::error_code ec;
    if (fs::is_directory(a, ec)) {
      std::vector<std::string> found;
      for (auto& e : fs::directory_iterator(a))
        if (e.is_regular_file() && (e.path().extension() == ".py" || e.path().extension() == ".json") &&
            !e.path().filename().string().starts_with("_"))
          found.push_back(absolute_path(e.path().string()));
      std::sort(found.begin(), found.end());
      if (found.empty()) return error(a + ": no task files (*.py, *.json) in this folder");
      out.insert(out.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(a, ec)) {
      out.push_back(absolute_path(a));
    } else {
      return error(a + ": no such task file or folder");
    }
  }
  if (out.empty()) return error("no tasks given");
  return out;
}

Result<TaskSpec> load_task(const Context& ctx, const std::string& path) {
  if (path.ends_with(".json")) {
    auto spec = parse_task_spec(CUTEGEN_TRY(read_file(path)));
    if (!spec) return error(path + ": " + spec.message());
    if (!spec->path.empty() && spec->path[0] != '/')
      spec->path = fs::weakly_canonical(fs::path(path).parent_path() / spec->path).string();
    return spec;
  }
  auto& c = ctx.config;
  return load_task_spec(path, python_executable(c.str("eval.python")), c.integer("eval.seed"),
                        std::chrono::seconds(c.integer("task.timeout_s")), ctx.spec_cache_dir());
}

Result<std::string> agent_mode(const Config& c) {
  std::string m = c.str("agent.mode");
  if (m == "auto") return std::string(model_spec_for_role(c, "generator").empty() ? "expert" : "hybrid");
  if (m != "expert" && m != "llm" && m != "hybrid")
    return error("agent.mode: expected expert, llm, hybrid or auto, got '" + m + "'");
  return m;
}

std::string author_line(const std::string& mode, const std::string& model) {
  if (mode == "expert") return "expert (built-in CuTe templates)";
  return mode == "hybrid" ? "expert, then " + model : model;
}

Status make_evaluator(Context& ctx, AgentParts& parts) {
  std::string ev = ctx.config.str("agent.evaluator");
  if (ev.starts_with("scripted:")) {
    parts.evaluator = CUTEGEN_TRY(ScriptedEvaluator::load(ev.substr(9)));
  } else if (ev == "real") {
    parts.setup = CUTEGEN_TRY(EvalSetup::create(ctx));
    parts.real_eval.emplace(parts.setup->evaluator(true));
    parts.evaluator = std::make_unique<RealEvaluator>(&*parts.real_eval);
  } else {
    return error("agent.evaluator: expected real or scripted:FILE, got '" + ev + "'");
  }
  std::string pr = ctx.config.str("agent.profiler");
  if (pr == "scripted") {
    parts.profiler = std::make_unique<ScriptedProfiler>();
  } else if (pr == "real" && parts.setup) {
    NcuOptions n;
    n.ncu = ctx.config.str("profile.ncu");
    n.clock_control = ctx.config.str("profile.clock_control");
    n.timeout = std::chrono::seconds(ctx.config.integer("profile.timeout_s"));
    n.cache_dir = ctx.cache_dir() + "/profile";
    auto builder = CUTEGEN_TRY(ctx.builder());
    auto keep = std::make_shared<Builder>(builder);
    RooflineCeilings ceilings;
    if (auto path = ctx.config.str("profile.ceilings"); !path.empty()) ceilings = CUTEGEN_TRY(load_ceilings(path));
    auto profiler = std::make_unique<Profiler>(n, ceilings, find_cuobjdump(keep->toolchain().nvcc));
    static std::vector<std::shared_ptr<Builder>> builders;  // outlive the adapter for the process
    builders.push_back(keep);
    parts.profiler =
        std::make_unique<RealProfiler>(keep.get(), CUTEGEN_TRY(ctx.target()), parts.real_eval->options().worker,
                                       std::move(profiler), ctx.cache_dir() + "/agent-profile");
  } else if (pr != "none" && pr != "real") {
    return error("agent.profiler: expected real, scripted or none, got '" + pr + "'");
  }
  return Ok{};
}

Result<std::unique_ptr<AgentParts>> make_agent(Context& ctx, RunStore& store, const std::string& run_id) {
  auto parts = std::make_unique<AgentParts>();
  auto& c = ctx.config;
  parts->options = CUTEGEN_TRY(agent_options(c));
  // Models first: a missing model or key is a clear error before any GPU work.
  std::vector<std::pair<std::string, Client*>> roles;
  parts->ledger = CUTEGEN_TRY(Ledger::open(store.db_path()));
  parts->budget = std::make_unique<Budget>(run_limits(c), task_limits(c));
  parts->budget->seed_run(CUTEGEN_TRY(parts->ledger->spent(run_id)));
  parts->transcript = std::make_unique<TranscriptWriter>(store.dir() + "/transcript.jsonl");
  std::string mode = CUTEGEN_TRY(agent_mode(c));
  LlmRoles llm;
  for (const char* role : {"generator", "repairer", "optimizer"}) {
    if (mode == "expert") break;  // no model needed, none built
    std::string spec_text = model_spec_for_role(c, role);
    if (spec_text.empty())
      return error("no model for the " + std::string(role) + " role: pass --llm SPEC or set llm.model");
    auto spec = CUTEGEN_TRY(parse_model_spec(spec_text));
    auto model = make_model(spec, backend_options(c));
    if (!model) return error("llm." + std::string(role) + ": " + model.message());
    auto copt = CUTEGEN_TRY(client_options(c, role, spec.model.empty() ? spec.target : spec.model));
    copt.run_id = run_id;
    parts->clients.push_back(std::make_unique<Client>(std::shared_ptr<Model>(std::move(model).value()), copt,
                                                      &*parts->ledger, parts->budget.get(), parts->transcript.get()));
    Client* cl = parts->clients.back().get();
    (std::string(role) == "generator"  ? llm.generator
     : std::string(role) == "repairer" ? llm.repairer
                                       : llm.optimizer) = cl;
  }
  CUTEGEN_TRY(make_evaluator(ctx, *parts));
  if (mode == "expert") {
    parts->proposer = std::make_unique<ExpertProposer>(CUTEGEN_TRY(ctx.target()).limits());
    return parts;
  }
  // The same tolerances the evaluator judges by, so the prompts' precision contract states them.
  auto tolerance = CUTEGEN_TRY(configured_tolerance(c));
  LlmProposerOptions popt{
      .arch = knowledge_arch(c.str("build.arch")), .defaults = default_request(c), .tolerance = tolerance};
  auto model = std::make_unique<LlmProposer>(llm, PromptLibrary(prompts_dir(c.str("agent.prompts_dir"))), popt);
  if (mode == "llm") {
    parts->proposer = std::move(model);
    return parts;
  }
  HybridOptions hopt{.expert_steps = static_cast<int>(c.integer("agent.expert_steps")),
                     .plateau_steps = parts->options.plateau_steps};
  parts->proposer = std::make_unique<HybridProposer>(
      std::make_unique<ExpertProposer>(CUTEGEN_TRY(ctx.target()).limits()), std::move(model), hopt);
  return parts;
}

std::string run_dir(const Context& ctx, const std::string& run) {
  if (file_exists(run + "/run.db") || run.find('/') != std::string::npos) return run;
  return ctx.config.str("store.dir") + "/" + run;
}

std::string config_text(const Config& c) {
  std::string out;
  for (auto& k : config_keys())
    if (c.origin(k.key) != "default") out += std::string(k.key) + " = " + c.str(k.key) + "\n";
  return out;
}

Status apply_config_text(Config& c, const std::string& text) {
  for (auto& line : split_lines(text)) {
    auto eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    CUTEGEN_TRY(c.set(line.substr(0, eq), line.substr(eq + 3)));
  }
  return Ok{};
}

void resolve_with(Context& ctx, const std::string& stored) {
  if (auto st = ctx.resolve(); !st) fail(st.message());
  if (auto st = apply_config_text(ctx.config, stored); !st) fail(st.message());
  for (auto& kv : ctx.overrides) {  // explicit --set still wins over what the run recorded
    auto eq = kv.find('=');
    (void)ctx.config.set(trim(kv.substr(0, eq)), trim(kv.substr(eq + 1)));
  }
}

}  // namespace cutegen
