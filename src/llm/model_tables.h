// Per-model settings given as one config string, "name=value, name=value": prices and context
// sizes. A name matches a model exactly, else as the longest prefix, else "*" matches any.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"
#include "llm/request.h"

namespace cutegen {

// Dollars per million tokens. Cached input falls back to the input price when not given.
struct Price {
  double input_per_m = 0;
  double output_per_m = 0;
  double cached_per_m = -1;
};

Result<std::map<std::string, std::string>> parse_model_table(std::string_view text, const std::string& what);
// "gpt-5=1.25/10/0.125, claude-sonnet-4-5=3/15/0.3"
Result<std::map<std::string, Price>> parse_price_table(std::string_view text);
// "qwen=32768, *=128000"
Result<std::map<std::string, long>> parse_context_table(std::string_view text);

template <class T>
std::optional<T> lookup_model(const std::map<std::string, T>& table, const std::string& model) {
  if (auto it = table.find(model); it != table.end()) return it->second;
  const T* best = nullptr;
  size_t best_len = 0;
  for (auto& [name, v] : table)
    if (name != "*" && model.starts_with(name) && name.size() > best_len) best = &v, best_len = name.size();
  if (best) return *best;
  if (auto it = table.find("*"); it != table.end()) return it->second;
  return std::nullopt;
}

double cost_usd(const Price& p, const Usage& u);
// A conservative token estimate for the prompt (about 3.5 bytes a token, plus framing).
long estimate_input_tokens(const Request& req);

}  // namespace cutegen
