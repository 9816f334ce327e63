// The built-in price table: list prices of common models, so a dollar budget works without
// configuration. llm.prices (same format) is looked up first and so overrides any entry.
#pragma once

#include <optional>
#include <string>

#include "core/result.h"
#include "llm/model_tables.h"

namespace cutegen {

// The built-in table, in llm.prices' format: "model=input/output[/cached], ...".
const char* known_prices();
// `configured` (llm.prices) first, then the built-in table; nullopt when neither names the model.
Result<std::optional<Price>> price_for_model(const std::string& configured, const std::string& model);

}  // namespace cutegen
