// Keys never leave the process except in request headers. Every string that is logged, stored
// or put into an error passes through redact(), which replaces each known key value.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace cutegen {

// Remembers `value` as a secret (values shorter than 4 characters are ignored as unsafe to scrub).
void register_secret(const std::string& value);
// `s` with every registered secret replaced by "[REDACTED]".
std::string redact(std::string_view s);
// Reads an API key from environment variable `var` and registers it; a missing or empty
// variable is one clear error naming the variable and what needs it.
Result<std::string> api_key_from_env(const std::string& var, const std::string& needed_by);

}  // namespace cutegen
