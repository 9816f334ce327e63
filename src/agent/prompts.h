// Prompts are versioned text files under prompts/ with {{name}} placeholders, rendered with the
// run's data by core's render_template (a missing or an unused value is an error).
#pragma once

#include <map>
#include <string>

#include "core/result.h"
#include "core/text_template.h"

namespace cutegen {

using PromptVars = TemplateVars;

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
