#include "cli/decline.h"

#include "expert/recognize.h"

namespace cutegen {

std::string decline_message(const std::string& reason, bool verbose) {
  if (!reason.starts_with("no template for this task")) return reason;
  std::string out =
      "no built-in template for this task; give a model with `--llm SPEC` (e.g. --llm anthropic:claude-sonnet-4-5 "
      "or --llm openai:gpt-5; see cutegen llm --help)";
  auto open = reason.find('(');
  if (open == std::string::npos) return out;
  std::string why = reason.substr(open + 1, reason.size() - open - 1 - (reason.ends_with(")") ? 1 : 0));
  // What was recognized is news, not a reason: shown without --verbose too.
  if (auto at = why.find(kGemmRecognized), end = why.find(')', why.find(kGemmNoKernel, at));
      !verbose && at != std::string::npos && end != std::string::npos)
    out += "; " + why.substr(at, end + 1 - at);
  return out + (verbose ? "; the expert's reasons: " + why : "; --verbose shows the expert's reasons");
}

}  // namespace cutegen
