#include "core/text_template.h"

#include <set>

namespace cutegen {

Result<std::string> render_template(const std::string& text, const TemplateVars& vars, const std::string& name) {
  std::string out;
  std::set<std::string> used;
  size_t at = 0;
  while (true) {
    size_t open = text.find("{{", at);
    if (open == std::string::npos) break;
    size_t close = text.find("}}", open);
    if (close == std::string::npos) return error(name + ": unclosed {{ placeholder");
    std::string var = text.substr(open + 2, close - open - 2);
    auto it = vars.find(var);
    if (it == vars.end()) return error(name + ": no value for {{" + var + "}}");
    out += text.substr(at, open - at) + it->second;
    used.insert(var);
    at = close + 2;
  }
  out += text.substr(at);
  for (auto& [k, v] : vars)
    if (!used.count(k)) return error(name + ": value '" + k + "' given but the template has no {{" + k + "}}");
  return out;
}

}  // namespace cutegen
