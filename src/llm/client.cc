#include "llm/client.h"

#include "llm/redact.h"

namespace cutegen {

const char* const kContinuePrompt =
    "Your previous answer was cut off by the output limit. Continue exactly where it stopped, "
    "without repeating anything and without any preamble.";

const char* to_string(ResponseStatus s) {
  static const char* names[] = {"answer", "waiting", "budget exhausted"};
  return names[static_cast<int>(s)];
}

void Client::record(const Request& req, const Response* r, const std::string& outcome, const std::string& err) {
  CallRecord c{.run_id = opt_.run_id,
               .task_id = opt_.task_id,
               .role = opt_.role,
               .model = model_->name(),
               .outcome = outcome,
               .prompt_key = prompt_key(req),
               .error = err};
  if (r) {
    c.usage = r->usage, c.latency_s = r->latency_s, c.request_id = r->request_id;
    c.cost_usd = opt_.price ? cost_usd(*opt_.price, r->usage) : 0;
  }
  if (budget_ && (outcome == "ok" || outcome == "truncated" || outcome == "error"))
    budget_->charge(c.usage, c.cost_usd);
  if (ledger_) (void)ledger_->record(c);  // a ledger that cannot be written must not lose the answer
  if (transcript_ && r && r->status == ResponseStatus::answer) (void)transcript_->append(req, *r);
}

Result<Response> Client::call(const Request& req) {
  if (budget_)
    if (auto why = budget_->exhausted()) {
      record(req, nullptr, "budget_exhausted", *why);
      return Response{.status = ResponseStatus::budget_exhausted, .model = model_->name(), .detail = *why};
    }
  auto r = model_->complete(req);
  if (!r) {
    std::string msg = redact(r.message());
    record(req, nullptr, "error", msg);
    return error(msg);
  }
  if (r->status == ResponseStatus::waiting)
    record(req, &*r, "waiting", "");
  else
    record(req, &*r, r->truncated() ? "truncated" : "ok", "");
  return r;
}

Result<Response> Client::complete(const Request& req) {
  if (opt_.context_tokens > 0) {
    long need = estimate_input_tokens(req) + req.max_output_tokens;
    if (need > opt_.context_tokens) {
      std::string msg = "prompt too large for " + model_->name() + ": about " +
                        std::to_string(estimate_input_tokens(req)) + " input + " +
                        std::to_string(req.max_output_tokens) + " output tokens exceed its context of " +
                        std::to_string(opt_.context_tokens) + " (llm.context_tokens)";
      record(req, nullptr, "rejected", msg);
      return error(msg);
    }
  }
  auto first = CUTEGEN_TRY(call(req));
  if (first.status != ResponseStatus::answer || !first.truncated() || !opt_.continue_truncated) return first;
  // One more call: continue a partial answer, or re-ask with room to spare when reasoning used
  // up every token before any text came.
  Request next = req;
  if (first.text.empty()) {
    next.max_output_tokens = req.max_output_tokens * 2;
  } else {
    next.messages.push_back({"assistant", first.text});
    next.messages.push_back({"user", kContinuePrompt});
  }
  auto second = CUTEGEN_TRY(call(next));
  if (second.status != ResponseStatus::answer) return second;
  Response out = second;
  out.text = first.text + second.text;
  out.reasoning = first.reasoning + second.reasoning;
  out.usage = first.usage;
  out.usage += second.usage;
  out.latency_s = first.latency_s + second.latency_s;
  out.continuations = 1;
  return out;
}

}  // namespace cutegen
