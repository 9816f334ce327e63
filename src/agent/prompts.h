// Prompts are versioned text files under prompts/ with {{name}} placeholders, rendered with the
// run's data. Rendering fails on a placeholder without a value and on a value without a
// placeholder, so a template and the code that fills it cannot drift apart silently.
#pragma once

#include <map>
#include <string>

#include "core/result.h"

namespace cutegen {

using PromptVars = std::map<std::string, std::string>;

Result<std::string> render_prompt_template(const std::string& text, const PromptVars& vars, const std::string& name);

// The prompts folder: `configured` when set, else the installed or the checkout's prompts/
// (sys/layout.h).
std::string prompts_dir(const std::string& configured);

class PromptLibrary {
 public:
  explicit PromptLibrary(std::string dir) : dir_(std::move(dir)) {}
  // Renders <dir>/<name>.md; the error names the file.
  Result<std::string> render(const std::string& name, const PromptVars& vars) const;
  Result<std::string> raw(const std::string& name) const;
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
};

}  // namespace cutegen
