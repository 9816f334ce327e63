// The LLM proposer: renders the stage's template with the step's data, asks the role's client,
// and turns the answer into a source (edit blocks applied to the base, or a whole file). An
// answer that is truncated, empty, unparseable or whose edit does not apply is sent back once
// with the reason; a second miss is a failed proposal, never a crash.
#pragma once

#include <string>

#include "agent/interfaces.h"
#include "agent/prompts.h"
#include "eval/verdict.h"
#include "llm/client.h"

namespace cutegen {

struct LlmProposerOptions {
  std::string arch = "sm90";  // which knowledge pack: prompts/knowledge/<arch>.md
  Request defaults;           // output tokens, temperature, reasoning from llm.*
  Tolerance tolerance;        // eval.tolerance/atol/rtol/accuracy_factor: the prompt's precision contract
};

// The knowledge pack for a build.arch value: "sm80" for sm_8x, else "sm90".
std::string knowledge_arch(const std::string& build_arch);

struct LlmRoles {
  Client* generator = nullptr;
  Client* repairer = nullptr;
  Client* optimizer = nullptr;
};

class LlmProposer : public Proposer {
 public:
  LlmProposer(LlmRoles roles, PromptLibrary prompts, LlmProposerOptions opt)
      : roles_(roles), prompts_(std::move(prompts)), opt_(std::move(opt)) {}
  Result<Proposal> propose(const StepContext& ctx) override;
  // The request for a step, without calling anything (tests and `--dry-run` read it).
  Result<Request> request_for(const StepContext& ctx) const;

 private:
  Client* client_for(Stage s) const;
  Result<PromptVars> prompt_vars(const StepContext& ctx, const std::string& template_name) const;
  LlmRoles roles_;
  PromptLibrary prompts_;
  LlmProposerOptions opt_;
};

// The template a stage renders.
std::string template_for(const StepContext& ctx);

}  // namespace cutegen
