#include "agent/prompts.h"

#include "sys/fs.h"
#include "cutegen_paths.h"

namespace cutegen {

std::string prompts_dir(const std::string& configured) {
  if (!configured.empty()) return configured;
  if (auto up = find_upwards(executable_dir(), "prompts/generate.md"); !up.empty())
    return up.substr(0, up.size() - std::string("/generate.md").size());
  return std::string(CUTEGEN_SOURCE_DIR) + "/prompts";
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
