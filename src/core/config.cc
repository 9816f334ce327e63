#include "core/config.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <toml++/toml.h>

#include "core/strings.h"

namespace cutegen {

const std::vector<ConfigKey>& config_keys() {
  static const std::vector<ConfigKey> keys = {
      {"build.arch", "auto", "GPU target (sm_90a, sm_80, ...); auto: the GPU's own, else sm_90a"},
      {"build.cutlass_dir", "", "CUTLASS checkout or include dir (default: the bootstrap's .deps)"},
      {"build.cache_dir", "", "compile cache (default: $XDG_CACHE_HOME/cutegen or ~/.cache/cutegen)"},
      {"build.jobs", "0", "parallel compiles (0: by cores and memory)"},
      {"build.timeout_s", "600", "wall-clock limit per compile"},
      {"eval.python", "", "python3 with torch for the reference side (default: .deps/venv, else python3)"},
      {"eval.trials", "5", "correctness trials, each on fresh inputs"},
      {"eval.timed_runs", "100", "timed launches per measurement"},
      {"eval.warmup_runs", "10", "untimed launches before timing"},
      {"eval.timeout_s", "600", "wall-clock limit for one evaluation"},
      {"eval.tolerance", "kernelbench", "kernelbench (atol=rtol=1e-2) or strict (1e-4) or custom"},
      {"eval.atol", "0.01", "absolute tolerance when eval.tolerance = custom"},
      {"eval.rtol", "0.01", "relative tolerance when eval.tolerance = custom"},
      {"eval.accuracy_factor", "10", "a kernel may be at most this many times less accurate than eager"},
      {"eval.require_cute", "true", "reject kernels that use no CuTe beyond the include"},
      {"eval.isolate_network", "auto", "auto|on|off: run evaluations in a fresh network namespace"},
      {"eval.sandbox", "auto", "auto|on: the candidate's process is sandboxed where the OS allows (on: or not run)"},
      {"eval.compare_compile", "false", "also time torch.compile of the reference"},
      {"eval.seed", "0", "base seed; trial i uses seed + i"},
      {"eval.gpu", "", "which GPU evaluations run on (an nvidia-smi index; empty: the first)"},
      {"profile.ncu", "", "Nsight Compute executable (default: ncu on PATH, else /usr/local/cuda/bin/ncu)"},
      {"profile.clock_control", "none", "ncu --clock-control: none leaves the card's clocks alone, base locks them"},
      {"profile.timeout_s", "300", "wall-clock limit for one ncu run, waiting for the GPU's lock included"},
      {"profile.kernel_filter", "", "profile only kernels whose name matches this regex (default: all)"},
      {"profile.launch_skip", "0", "launches to skip inside the NVTX range before profiling"},
      {"profile.launch_count", "0", "launches to profile (0: every launch in the NVTX range)"},
      {"profile.extended_metrics", "true",
       "also collect the DRAM read/write split and shared-memory bank conflicts (verified on the H200)"},
      {"profile.ceilings", "", "JSON of this GPU's measured ceilings (copy_TBps, mm_<dtype>_<n>_TFLOPs)"},
      {"task.timeout_s", "300", "wall-clock limit for describing a task (cutegen task, the bridge's spec)"},
      {"task.spec_cache", "false",
       "reuse the bridge's description of an unchanged task file (in build.cache_dir/specs, keyed by the file, "
       "the seed, the Python and the bridge's sources, not torch's version: clear it after upgrading torch)"},
      {"llm.model", "", "model spec for every role, e.g. openai:gpt-5, anthropic:claude-sonnet-4-5, file:/q"},
      {"llm.generator_model", "", "model spec for the generator role (default: llm.model)"},
      {"llm.repairer_model", "", "model spec for the repairer role (default: llm.model)"},
      {"llm.optimizer_model", "", "model spec for the optimizer role (default: llm.model)"},
      {"llm.api_key_env", "", "environment variable holding the API key (default: OPENAI_API_KEY/ANTHROPIC_API_KEY)"},
      {"llm.max_output_tokens", "16384", "output-token limit per call"},
      {"llm.temperature", "", "sampling temperature (empty: the server's default)"},
      {"llm.reasoning_effort", "", "low|medium|high for reasoning models (empty: not sent)"},
      {"llm.reasoning_budget", "0", "Anthropic thinking budget in tokens (0: thinking off)"},
      {"llm.timeout_s", "1800", "wall-clock limit per HTTP request (reasoning models think long)"},
      {"llm.connect_timeout_s", "30", "limit for connecting to the model server"},
      {"llm.max_attempts", "6", "tries per call on 429/5xx/network errors"},
      {"llm.backoff_initial_s", "2", "first retry delay; doubles each retry, with jitter"},
      {"llm.backoff_max_s", "120", "longest retry delay (a server's Retry-After is honoured up to 600 s)"},
      {"llm.openai_token_field", "auto", "auto|max_tokens|max_completion_tokens for Chat Completions"},
      {"llm.continue_truncated", "true", "ask once more when an answer hits the output limit"},
      {"llm.context_tokens", "", "context sizes per model, e.g. 'qwen=32768, gpt-5=400000' (unlisted: unchecked)"},
      {"llm.prices", "",
       "dollars per million tokens, 'model=in/out[/cached], ...', before the built-in list prices "
       "(llm/known_prices.cc)"},
      {"llm.command_timeout_s", "3600", "wall-clock limit for a command: backend's answer"},
      {"llm.poll_interval_s", "30", "file backend with --wait: seconds between looks for the answer"},
      {"llm.budget_run_tokens", "0", "tokens per run (0: no limit)"},
      {"llm.budget_run_dollars", "0", "dollars per run (0: no limit)"},
      {"llm.budget_run_calls", "0", "model calls per run (0: no limit)"},
      {"llm.budget_task_tokens", "0", "tokens per task (0: no limit)"},
      {"llm.budget_task_dollars", "0", "dollars per task (0: no limit)"},
      {"llm.budget_task_calls", "0", "model calls per task (0: no limit)"},
      {"agent.mode", "auto",
       "who writes kernels: expert (built-in CuTe templates, no model), llm, hybrid (the expert's "
       "best, then the model); auto: hybrid when a model is configured, else expert"},
      {"agent.expert_steps", "0", "hybrid: steps per task the expert may take before the model (0: half of max_steps)"},
      {"agent.max_steps", "12", "steps per task (generate, repairs, optimizations and tuning all count)"},
      {"agent.repair_rounds", "3", "consecutive repairs of one failing kernel before going back to the best"},
      {"agent.optimize_steps", "6", "structural optimization steps before parameter-only tuning"},
      {"agent.plateau_steps", "4", "stop a task after this many steps without a kept improvement"},
      {"agent.min_gain", "0.02", "a kernel must beat the best by this fraction to be kept"},
      {"agent.target_roofline", "0.9",
       "stop a task once the best kernel reaches this fraction of the roofline (0: never)"},
      {"agent.profile_policy", "auto", "when the runtime profile joins the prompt: auto|after_n|stable|always|never"},
      {"agent.profile_after", "", "accepted steps before profiling, per class, e.g. 'gemm=6, elementwise=2'"},
      {"agent.evaluator", "real", "real (the GPU evaluator) or scripted:FILE (a test double)"},
      {"agent.profiler", "real", "real (Nsight Compute summary), scripted (a test double) or none"},
      {"agent.prompts_dir", "", "prompt templates (default: prompts/ beside the tool)"},
      {"store.dir", ".runs", "where run folders (run.db, summary.md, transcript) are created"},
  };
  return keys;
}

namespace {

const ConfigKey* find_key(const std::string& key) {
  for (auto& k : config_keys())
    if (key == k.key) return &k;
  return nullptr;
}

std::string env_name(const std::string& key) {
  std::string n = "CUTEGEN_" + replace_all(key, ".", "_");
  for (auto& c : n)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return n;
}

}  // namespace

Config::Config() {
  for (auto& k : config_keys()) {
    values_[k.key] = k.fallback;
    origins_[k.key] = "default";
  }
}

Result<Config> Config::load(const std::string& path) {
  Config c;
  toml::table tbl;
  try {
    tbl = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    return error(path + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
  }
  for (auto& [section, node] : tbl) {
    auto* sub = node.as_table();
    if (!sub) return error(path + ": top-level key '" + std::string(section.str()) + "' must be a [section]");
    for (auto& [name, value] : *sub) {
      std::string key = std::string(section.str()) + "." + std::string(name.str());
      if (!find_key(key)) return error(path + ": unknown key '" + key + "'");
      std::string text;
      if (auto s = value.as_string())
        text = s->get();
      else if (auto i = value.as_integer())
        text = std::to_string(i->get());
      else if (auto f = value.as_floating_point())
        text = std::to_string(f->get());
      else if (auto b = value.as_boolean())
        text = b->get() ? "true" : "false";
      else
        return error(path + ": key '" + key + "' must be a string, number or boolean");
      c.values_[key] = text;
      c.origins_[key] = path;
    }
  }
  return c;
}

void Config::apply_environment() {
  for (auto& k : config_keys())
    if (const char* v = std::getenv(env_name(k.key).c_str())) {
      values_[k.key] = v;
      origins_[k.key] = "environment";
    }
}

Status Config::set(const std::string& key, const std::string& value) {
  if (!find_key(key)) return error("unknown config key '" + key + "'");
  values_[key] = value;
  origins_[key] = "command line";
  return Ok{};
}

std::string Config::str(const std::string& key) const {
  auto it = values_.find(key);
  if (it == values_.end()) throw std::logic_error("config key not in the table: " + key);
  return it->second;
}

long Config::integer(const std::string& key) const {
  try {
    return std::stol(str(key));
  } catch (const std::invalid_argument&) {
    throw std::runtime_error("config key '" + key + "' must be an integer, got '" + str(key) + "'");
  }
}

double Config::number(const std::string& key) const {
  try {
    return std::stod(str(key));
  } catch (const std::invalid_argument&) {
    throw std::runtime_error("config key '" + key + "' must be a number, got '" + str(key) + "'");
  }
}

bool Config::boolean(const std::string& key) const {
  auto v = lowercase(str(key));
  if (v == "true" || v == "1" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "0" || v == "no" || v == "off") return false;
  throw std::runtime_error("config key '" + key + "' must be true or false, got '" + v + "'");
}

std::string Config::origin(const std::string& key) const { return origins_.at(key); }

std::string default_config_path() {
  if (std::filesystem::exists("cutegen.toml")) return "cutegen.toml";
  std::string base;
  if (const char* x = std::getenv("XDG_CONFIG_HOME"))
    base = x;
  else if (const char* h = std::getenv("HOME"))
    base = std::string(h) + "/.config";
  std::string p = base + "/cutegen/config.toml";
  return !base.empty() && std::filesystem::exists(p) ? p : "";
}

}  // namespace cutegen
