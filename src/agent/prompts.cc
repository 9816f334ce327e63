#include "agent/prompts.h"

#include <set>

#include "sys/fs.h"
#include "sys/layout.h"

namespace cutegen {

Result<std::string> render_prompt_template(const std::string& text, const PromptVars& vars, const std::string& name) {
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

std::string prompts_dir(const std::string& configured) {
  if (!configured.empty()) return configured;
  std::string p = locate_project_file("prompts/generate.md", "prompts/generate.md");
  return p.empty() ? "prompts" : p.substr(0, p.size() - std::string("/generate.md").size());
}

Result<std::string> PromptLibrary::raw(const std::string& name) const {
  auto text = read_file(dir_ + "/" + name + ".md");
  if (!text) return error("prompt template " + name + ": " + text.message());
  return text;
}

Result<std::string> PromptLibrary::render(const std::string& name, const PromptVars& vars) const {
  auto text = CUTEGEN_TRY(raw(name));
  return render_prompt_template(text, vars, dir_ + "/" + name + ".md");
}

}  // namespace cutegen
