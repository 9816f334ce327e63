#include "agent/prompts.h"

#include "sys/fs.h"
#include "sys/layout.h"

namespace cutegen {

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
  return render_template(text, vars, dir_ + "/" + name + ".md");
}

}  // namespace cutegen
