// What the agent holds for each role: a Model plus the policies around every call, in order:
//   budget check -> context-size check -> call -> one continuation if truncated
//   -> ledger row, budget charge and transcript line for every call made.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "core/result.h"
#include "llm/budget.h"
#include "llm/ledger.h"
#include "llm/model.h"
#include "llm/model_tables.h"
#include "llm/transcript.h"

namespace cutegen {

struct ClientOptions {
  std::string role = "generator";
  std::string run_id;
  std::string task_id;
  long context_tokens = 0;     // the model's window; 0: unknown, not checked
  std::optional<Price> price;  // nullopt: cost 0
  bool continue_truncated = true;
};

// The follow-up sent when an answer was cut off by the output-token limit.
extern const char* const kContinuePrompt;

class Client {
 public:
  // The ledger, budget and transcript are optional and shared; they must outlive the client.
  Client(std::shared_ptr<Model> model, ClientOptions opt, Ledger* ledger = nullptr, Budget* budget = nullptr,
         TranscriptWriter* transcript = nullptr)
      : model_(std::move(model)), opt_(std::move(opt)), ledger_(ledger), budget_(budget), transcript_(transcript) {}

  Result<Response> complete(const Request& req);
  void set_task(const std::string& task_id) { opt_.task_id = task_id; }
  const ClientOptions& options() const { return opt_; }

 private:
  Result<Response> call(const Request& req);  // one model call, recorded
  void record(const Request& req, const Response* r, const std::string& outcome, const std::string& err);

  std::shared_ptr<Model> model_;
  ClientOptions opt_;
  Ledger* ledger_;
  Budget* budget_;
  TranscriptWriter* transcript_;
};

}  // namespace cutegen
