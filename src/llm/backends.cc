#include "llm/backends.h"

#include <cstdlib>

#include "llm/redact.h"

namespace cutegen {
namespace {

struct BackendRow {
  const char* name;
  ModelFactory make;
};

// One row per backend; spec.cc's table holds their help text.
const BackendRow kFactories[] = {
    {"openai", make_openai}, {"anthropic", make_anthropic}, {"command", make_command},
    {"file", make_file},     {"replay", make_replay},
};

}  // namespace

Result<std::unique_ptr<Model>> make_model(const ModelSpec& spec, const BackendOptions& opt) {
  for (auto& row : kFactories)
    if (spec.backend == row.name) {
      auto m = row.make(spec, opt);
      if (!m) return error(redact(m.message()));
      return m;
    }
  return error("unknown model backend '" + spec.backend + "'");
}

Result<std::unique_ptr<Model>> make_model(std::string_view spec, const BackendOptions& opt) {
  return make_model(CUTEGEN_TRY(parse_model_spec(spec)), opt);
}

Attempt accept_answer(Response r, const std::string& who) {
  if (r.text.empty() && !r.truncated())
    return failed(who + " answered with no text (finish reason '" + r.finish_reason + "')", false);
  return Attempt{std::move(r), "", false, {}};
}

std::string env_or(const char* var, const std::string& fallback) {
  const char* v = std::getenv(var);
  return v && *v ? std::string(v) : fallback;
}

Result<Response> call_with_retries(const BackendOptions& opt, const std::function<Attempt(int)>& attempt) {
  auto start = std::chrono::steady_clock::now();
  auto r = with_retries(opt.retry, opt.sleep ? opt.sleep : real_sleeper(), opt.random01 ? opt.random01 : real_random(),
                        attempt);
  if (r) r->latency_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace cutegen
