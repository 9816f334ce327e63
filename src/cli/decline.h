// What the user reads when the built-in expert declines a task: the way forward (give a model),
// and the recognizers' reasons only under --verbose.
#pragma once

#include <string>

namespace cutegen {

// `reason` is the expert's ("no template for this task; configure an LLM (REASONS)"); any other
// text is returned unchanged.
std::string decline_message(const std::string& reason, bool verbose);

}  // namespace cutegen
