#include "llm/settings.h"

#include "llm/known_prices.h"

namespace cutegen {
namespace {

std::chrono::milliseconds seconds(const Config& c, const char* key) {
  return std::chrono::milliseconds(static_cast<long>(c.number(key) * 1000));
}

}  // namespace

std::string model_spec_for_role(const Config& c, const std::string& role) {
  for (auto& k : config_keys())
    if (std::string(k.key) == "llm." + role + "_model" && !c.str(k.key).empty()) return c.str(k.key);
  return c.str("llm.model");
}

BackendOptions backend_options(const Config& c) {
  BackendOptions o;
  o.timeout = seconds(c, "llm.timeout_s");
  o.connect_timeout = seconds(c, "llm.connect_timeout_s");
  o.retry.max_attempts = static_cast<int>(c.integer("llm.max_attempts"));
  o.retry.initial_s = c.number("llm.backoff_initial_s");
  o.retry.max_s = c.number("llm.backoff_max_s");
  o.api_key_env = c.str("llm.api_key_env");
  o.openai_token_field = c.str("llm.openai_token_field");
  o.command_timeout = seconds(c, "llm.command_timeout_s");
  o.poll_interval_s = c.number("llm.poll_interval_s");
  return o;
}

Result<ClientOptions> client_options(const Config& c, const std::string& role, const std::string& model_name) {
  ClientOptions o;
  o.role = role;
  o.continue_truncated = c.boolean("llm.continue_truncated");
  auto contexts = CUTEGEN_TRY(parse_context_table(c.str("llm.context_tokens")));
  o.context_tokens = lookup_model(contexts, model_name).value_or(0);
  o.price = CUTEGEN_TRY(price_for_model(c.str("llm.prices"), model_name));
  return o;
}

Limits run_limits(const Config& c) {
  return {c.integer("llm.budget_run_tokens"), c.number("llm.budget_run_dollars"), c.integer("llm.budget_run_calls")};
}

Limits task_limits(const Config& c) {
  return {c.integer("llm.budget_task_tokens"), c.number("llm.budget_task_dollars"), c.integer("llm.budget_task_calls")};
}

Request default_request(const Config& c) {
  Request r;
  r.max_output_tokens = static_cast<int>(c.integer("llm.max_output_tokens"));
  if (auto t = c.str("llm.temperature"); !t.empty()) r.temperature = c.number("llm.temperature");
  r.reasoning_effort = c.str("llm.reasoning_effort");
  r.reasoning_budget = static_cast<int>(c.integer("llm.reasoning_budget"));
  return r;
}

}  // namespace cutegen
