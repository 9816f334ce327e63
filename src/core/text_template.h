// Text templates with {{name}} placeholders (prompts, the exported ModelNew, the expert's kernel
// instances). Rendering fails on a placeholder without a value and on a value without a
// placeholder, so a template and the code that fills it cannot drift apart silently.
#pragma once

#include <map>
#include <string>

#include "core/result.h"

namespace cutegen {

using TemplateVars = std::map<std::string, std::string>;

// `text` with every {{name}} replaced by vars[name]; `name` (the template's) opens each error.
Result<std::string> render_template(const std::string& text, const TemplateVars& vars, const std::string& name);

}  // namespace cutegen
