// The one request/response pair every backend speaks. Plain data: no backend-specific fields.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cutegen {

struct Message {
  std::string role;  // "user" or "assistant"
  std::string content;
};

struct Request {
  std::string system;
  std::vector<Message> messages;
  int max_output_tokens = 4096;
  std::optional<double> temperature;  // nullopt: the server's default
  std::vector<std::string> stop;
  std::string reasoning_effort;  // "", "low", "medium", "high" (OpenAI-style reasoning models)
  int reasoning_budget = 0;      // thinking tokens (Anthropic); 0: thinking off
  // When set, the backend streams and calls this with each piece of answer text as it arrives.
  // On a retried attempt the pieces start again from the beginning.
  std::function<void(std::string_view)> on_text;
};

struct Usage {
  long input = 0;
  long output = 0;
  long cached = 0;     // input tokens served from the provider's prompt cache
  long reasoning = 0;  // output tokens spent on reasoning (part of `output`)

  Usage& operator+=(const Usage& o) {
    input += o.input, output += o.output, cached += o.cached, reasoning += o.reasoning;
    return *this;
  }
};

// What a call produced. `answer` carries text; the other two are values the caller persists
// and acts on (resume later, or stop the run), never errors.
enum class ResponseStatus { answer, waiting, budget_exhausted };

struct Response {
  ResponseStatus status = ResponseStatus::answer;
  std::string text;
  std::string reasoning;      // reasoning/thinking text where the API returns it
  std::string finish_reason;  // as the API said it: "stop", "length", "end_turn", "max_tokens", ...
  Usage usage;
  double latency_s = 0;
  std::string request_id;
  std::string model;
  int continuations = 0;   // extra calls made to finish a truncated answer
  std::string waiting_on;  // status == waiting: the file whose appearance resumes the call
  std::string detail;      // status == budget_exhausted: which limit was hit

  // The answer stopped because it ran out of output tokens.
  bool truncated() const { return finish_reason == "length" || finish_reason == "max_tokens"; }
};

const char* to_string(ResponseStatus s);

}  // namespace cutegen
