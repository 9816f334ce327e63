#include "llm/redact.h"

#include <cstdlib>
#include <mutex>
#include <set>

#include "core/strings.h"

namespace cutegen {
namespace {

std::mutex& secrets_mutex() {
  static std::mutex m;
  return m;
}

// Longest first, so a key that contains another key is scrubbed whole.
struct LongestFirst {
  bool operator()(const std::string& a, const std::string& b) const {
    return a.size() != b.size() ? a.size() > b.size() : a < b;
  }
};

std::set<std::string, LongestFirst>& secrets() {
  static std::set<std::string, LongestFirst> s;
  return s;
}

}  // namespace

void register_secret(const std::string& value) {
  if (value.size() < 4) return;
  std::lock_guard lock(secrets_mutex());
  secrets().insert(value);
}

std::string redact(std::string_view s) {
  std::string out(s);
  std::lock_guard lock(secrets_mutex());
  for (auto& secret : secrets())
    out = replace_all(std::move(out), secret, "[REDACTED]");
  return out;
}

Result<std::string> api_key_from_env(const std::string& var, const std::string& needed_by) {
  const char* v = std::getenv(var.c_str());
  if (!v || !*v)
    return error("missing API key: environment variable " + var + " is not set (needed by " + needed_by + ")");
  std::string key = trim(v);
  register_secret(key);
  return key;
}

}  // namespace cutegen
