// The llm.* config keys turned into the options the layer's pieces take.
#pragma once

#include <string>

#include "core/config.h"
#include "core/result.h"
#include "llm/backends.h"
#include "llm/budget.h"
#include "llm/client.h"

namespace cutegen {

// llm.<role>_model when set, else llm.model.
std::string model_spec_for_role(const Config& c, const std::string& role);
BackendOptions backend_options(const Config& c);
// Role, context size and price of `model_name` (the model part of a spec, e.g. "gpt-5").
Result<ClientOptions> client_options(const Config& c, const std::string& role, const std::string& model_name);
Limits run_limits(const Config& c);
Limits task_limits(const Config& c);
// A request with the configured defaults (output tokens, temperature, reasoning).
Request default_request(const Config& c);

}  // namespace cutegen
