#include "llm/model_tables.h"

#include "core/strings.h"

namespace cutegen {

Result<std::map<std::string, std::string>> parse_model_table(std::string_view text, const std::string& what) {
  std::map<std::string, std::string> out;
  for (auto& item : split(text, ',')) {
    if (trim(item).empty()) continue;
    auto eq = item.rfind('=');
    if (eq == std::string::npos || trim(item.substr(0, eq)).empty() || trim(item.substr(eq + 1)).empty())
      return error(what + ": expected model=value, got '" + trim(item) + "'");
    out[trim(item.substr(0, eq))] = trim(item.substr(eq + 1));
  }
  return out;
}

namespace {

Result<double> parse_number(const std::string& s, const std::string& what) {
  try {
    size_t used = 0;
    double v = std::stod(s, &used);
    if (used == s.size() && v >= 0) return v;
  } catch (...) {
  }
  return error(what + ": '" + s + "' is not a non-negative number");
}

}  // namespace

Result<std::map<std::string, Price>> parse_price_table(std::string_view text) {
  std::map<std::string, Price> out;
  for (auto& [model, value] : CUTEGEN_TRY(parse_model_table(text, "llm.prices"))) {
    auto parts = split(value, '/');
    if (parts.size() < 2 || parts.size() > 3)
      return error("llm.prices: '" + model + "=" + value +
                   "' must be input/output[/cached] dollars per million tokens");
    Price p;
    p.input_per_m = CUTEGEN_TRY(parse_number(trim(parts[0]), "llm.prices"));
    p.output_per_m = CUTEGEN_TRY(parse_number(trim(parts[1]), "llm.prices"));
    if (parts.size() == 3) p.cached_per_m = CUTEGEN_TRY(parse_number(trim(parts[2]), "llm.prices"));
    out[model] = p;
  }
  return out;
}

Result<std::map<std::string, long>> parse_context_table(std::string_view text) {
  std::map<std::string, long> out;
  for (auto& [model, value] : CUTEGEN_TRY(parse_model_table(text, "llm.context_tokens"))) {
    double v = CUTEGEN_TRY(parse_number(value, "llm.context_tokens"));
    out[model] = static_cast<long>(v);
  }
  return out;
}

double cost_usd(const Price& p, const Usage& u) {
  double cached_price = p.cached_per_m >= 0 ? p.cached_per_m : p.input_per_m;
  long fresh = std::max(0L, u.input - u.cached);
  return (fresh * p.input_per_m + u.cached * cached_price + u.output * p.output_per_m) / 1e6;
}

long estimate_input_tokens(const Request& req) {
  size_t bytes = req.system.size();
  for (auto& m : req.messages)
    bytes += m.content.size() + 8;
  return static_cast<long>(bytes * 2 / 7) + 16;
}

}  // namespace cutegen
