// Making a Model from a spec: the backend table and the options every backend may use.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "core/result.h"
#include "llm/http.h"
#include "llm/model.h"
#include "llm/retry.h"
#include "llm/spec.h"

namespace cutegen {

struct BackendOptions {
  std::shared_ptr<HttpTransport> transport;  // null: libcurl
  RetryPolicy retry;
  Sleeper sleep;      // null: really sleep
  Random01 random01;  // null: a real random source
  std::chrono::milliseconds timeout{1800 * 1000};
  std::chrono::milliseconds connect_timeout{30 * 1000};
  std::string api_key_env;                  // "": OPENAI_API_KEY / ANTHROPIC_API_KEY
  std::string openai_token_field = "auto";  // auto | max_tokens | max_completion_tokens
  std::chrono::milliseconds command_timeout{3600 * 1000};
  bool wait = false;            // file backend: poll for the answer instead of reporting "waiting"
  double poll_interval_s = 30;  // file backend, with wait
  double wait_timeout_s = 0;    // file backend, with wait: give up after this long (0: never)
};

using ModelFactory = Result<std::unique_ptr<Model>> (*)(const ModelSpec&, const BackendOptions&);

Result<std::unique_ptr<Model>> make_openai(const ModelSpec& spec, const BackendOptions& opt);
Result<std::unique_ptr<Model>> make_anthropic(const ModelSpec& spec, const BackendOptions& opt);
Result<std::unique_ptr<Model>> make_command(const ModelSpec& spec, const BackendOptions& opt);
Result<std::unique_ptr<Model>> make_file(const ModelSpec& spec, const BackendOptions& opt);
Result<std::unique_ptr<Model>> make_replay(const ModelSpec& spec, const BackendOptions& opt);

// Parses the spec and builds its backend; a missing key or bad spec is one clear error.
Result<std::unique_ptr<Model>> make_model(const ModelSpec& spec, const BackendOptions& opt);
Result<std::unique_ptr<Model>> make_model(std::string_view spec, const BackendOptions& opt);

// Shared by backends: an answer with neither text nor a truncation is an error, not a response.
Attempt accept_answer(Response r, const std::string& who);
// The environment variable's value, or `fallback` when unset or empty.
std::string env_or(const char* var, const std::string& fallback);
// Runs `attempt` under the options' retry policy, sleeper and random source, and stamps latency.
Result<Response> call_with_retries(const BackendOptions& opt, const std::function<Attempt(int)>& attempt);

}  // namespace cutegen
