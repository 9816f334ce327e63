#include "llm/known_prices.h"

namespace cutegen {

// USD per million tokens (input/output/cached input) as the providers list them (late 2025).
// Names match as prefixes (model_tables.h), so a longer name is listed wherever its price differs
// from a shorter one's (gpt-5-mini beside gpt-5). Where the cached price is not listed, cached
// input is charged as input: a budget errs on the side of stopping early.
const char* known_prices() {
  return "gpt-5=1.25/10/0.125, gpt-5-mini=0.25/2/0.025, gpt-5-nano=0.05/0.4/0.005, gpt-5-pro=15/120,"
         "gpt-4.1=2/8/0.5, gpt-4.1-mini=0.4/1.6/0.1, gpt-4.1-nano=0.1/0.4/0.025,"
         "gpt-4o=2.5/10/1.25, gpt-4o-mini=0.15/0.6/0.075,"
         "o3=2/8/0.5, o3-pro=20/80, o3-mini=1.1/4.4/0.55, o4-mini=1.1/4.4/0.275,"
         "claude-opus-4-5=5/25/0.5, claude-opus-4-1=15/75/1.5, claude-opus-4=15/75/1.5,"
         "claude-sonnet-4-5=3/15/0.3, claude-sonnet-4=3/15/0.3, claude-3-7-sonnet=3/15/0.3,"
         "claude-haiku-4-5=1/5/0.1, claude-3-5-haiku=0.8/4/0.08,"
         "gemini-2.5-pro=1.25/10, gemini-2.5-flash=0.3/2.5,"
         "deepseek-chat=0.28/0.42/0.028, deepseek-reasoner=0.28/0.42/0.028";
}

Result<std::optional<Price>> price_for_model(const std::string& configured, const std::string& model) {
  if (auto p = lookup_model(CUTEGEN_TRY(parse_price_table(configured)), model)) return p;
  static const auto builtin = parse_price_table(known_prices());
  if (!builtin) return error("the built-in price table: " + builtin.message());
  return lookup_model(*builtin, model);
}

}  // namespace cutegen
