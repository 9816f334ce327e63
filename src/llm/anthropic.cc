// The Anthropic Messages API, native: thinking blocks, streaming events, anthropic-version.
#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "llm/backends.h"
#include "llm/redact.h"

namespace cutegen {
namespace {

using json = nlohmann::json;

constexpr const char* kApiVersion = "2023-06-01";

std::string str_or(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

long num_or(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<long>() : 0;
}

// Anthropic's input_tokens excludes prompt-cache reads and writes; ours counts every input
// token, so the three are summed at the end. message_delta carries only what changed.
struct RawUsage {
  long input = 0, cache_read = 0, cache_write = 0, output = 0;

  void merge(const json& j) {
    if (!j.is_object()) return;
    if (j.contains("input_tokens")) input = num_or(j, "input_tokens");
    if (j.contains("cache_read_input_tokens")) cache_read = num_or(j, "cache_read_input_tokens");
    if (j.contains("cache_creation_input_tokens")) cache_write = num_or(j, "cache_creation_input_tokens");
    if (j.contains("output_tokens")) output = num_or(j, "output_tokens");
  }
  Usage usage() const { return Usage{input + cache_read + cache_write, output, cache_read, 0}; }
};

// Reasoning effort, when no explicit budget is given, as a thinking budget.
int thinking_budget(const Request& req) {
  if (req.reasoning_budget > 0) return req.reasoning_budget;
  static const std::pair<const char*, int> table[] = {{"low", 2048}, {"medium", 8192}, {"high", 24576}};
  for (auto& [effort, budget] : table)
    if (req.reasoning_effort == effort) return budget;
  return 0;
}

// Error types worth another try (the HTTP status says the same for non-streamed answers).
bool retryable_stream_error(const std::string& type) {
  return type == "overloaded_error" || type == "api_error" || type == "rate_limit_error";
}

class AnthropicModel : public Model {
 public:
  AnthropicModel(ModelSpec spec, BackendOptions opt, std::string url, std::string key)
      : spec_(std::move(spec)), opt_(std::move(opt)), url_(std::move(url)), key_(std::move(key)) {}

  std::string name() const override { return spec_.text; }

  Result<Response> complete(const Request& req) override {
    return call_with_retries(opt_, [&](int) { return attempt(req); });
  }

 private:
  json body(const Request& req) const {
    json msgs = json::array();
    for (auto& m : req.messages)
      msgs.push_back({{"role", m.role}, {"content", m.content}});
    int budget = thinking_budget(req);
    // max_tokens covers thinking and answer together.
    json b = {{"model", spec_.model}, {"messages", msgs}, {"max_tokens", req.max_output_tokens + budget}};
    if (!req.system.empty()) b["system"] = req.system;
    if (budget > 0)
      b["thinking"] = {{"type", "enabled"}, {"budget_tokens", budget}};
    else if (req.temperature)
      b["temperature"] = *req.temperature;  // thinking requires the default
    if (!req.stop.empty()) b["stop_sequences"] = req.stop;
    if (req.on_text) b["stream"] = true;
    return b;
  }

  Attempt attempt(const Request& req) {
    HttpRequest http{
        .url = url_, .body = body(req).dump(), .timeout = opt_.timeout, .connect_timeout = opt_.connect_timeout};
    http.headers = {{"Content-Type", "application/json"}, {"x-api-key", key_}, {"anthropic-version", kApiVersion}};
    Response out;
    out.model = spec_.model;
    RawUsage usage;
    bool stopped = false;
    std::string bad;
    bool bad_retryable = true;
    SseParser sse([&](const std::string& event, const std::string& data) {
      if (stopped || !bad.empty()) return;
      auto j = json::parse(data, nullptr, false);
      if (j.is_discarded() || !j.is_object()) {
        bad = "malformed stream event: " + truncate_middle(data, 200);
        return;
      }
      std::string type = event.empty() ? str_or(j, "type") : event;
      if (type == "message_start") {
        auto& m = j["message"];
        out.request_id = str_or(m, "id");
        usage.merge(m.value("usage", json()));
      } else if (type == "content_block_delta") {
        auto& d = j["delta"];
        std::string dtype = str_or(d, "type");
        if (dtype == "text_delta") {
          std::string piece = str_or(d, "text");
          out.text += piece;
          if (!piece.empty()) req.on_text(piece);
        } else if (dtype == "thinking_delta") {
          out.reasoning += str_or(d, "thinking");
        }
      } else if (type == "message_delta") {
        if (j.contains("delta") && j["delta"].is_object()) {
          auto reason = str_or(j["delta"], "stop_reason");
          if (!reason.empty()) out.finish_reason = reason;
        }
        usage.merge(j.value("usage", json()));
      } else if (type == "message_stop") {
        stopped = true;
      } else if (type == "error") {
        auto& e = j["error"];
        bad = "error in stream: " + str_or(e, "type") + ": " + str_or(e, "message");
        bad_retryable = retryable_stream_error(str_or(e, "type"));
      }
    });
    BodySink sink;
    if (req.on_text)
      sink = [&](int status, std::string_view chunk) {
        if (status == 200) sse.feed(chunk);
      };
    auto r = opt_.transport->post(http, sink);
    if (!r) return failed(r.message(), true);
    if (r->status != 200) return http_failure("anthropic", *r);
    auto rid = r->headers.find("request-id");
    if (req.on_text) {
      sse.finish();
      if (!bad.empty()) return failed("anthropic: " + bad, bad_retryable);
      if (!stopped)
        return failed("anthropic: the stream ended before message_stop (answer cut off after " +
                          std::to_string(out.text.size()) + " characters)",
                      true);
      if (rid != r->headers.end()) out.request_id = rid->second;
      out.usage = usage.usage();
      return accept_answer(std::move(out), "anthropic");
    }
    auto j = json::parse(r->body, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("content") || !j["content"].is_array())
      return failed("anthropic answered malformed JSON: " + truncate_middle(trim(r->body), 200), true);
    out.request_id = rid != r->headers.end() ? rid->second : str_or(j, "id");
    for (auto& block : j["content"]) {
      std::string type = str_or(block, "type");
      if (type == "text")
        out.text += str_or(block, "text");
      else if (type == "thinking")
        out.reasoning += str_or(block, "thinking");
    }
    out.finish_reason = str_or(j, "stop_reason");
    usage.merge(j.value("usage", json()));
    out.usage = usage.usage();
    return accept_answer(std::move(out), "anthropic");
  }

  ModelSpec spec_;
  BackendOptions opt_;
  std::string url_;
  std::string key_;
};

}  // namespace

Result<std::unique_ptr<Model>> make_anthropic(const ModelSpec& spec, const BackendOptions& opt) {
  std::string base = !spec.base_url.empty() ? spec.base_url : env_or("ANTHROPIC_BASE_URL", "https://api.anthropic.com");
  while (!base.empty() && base.back() == '/')
    base.pop_back();
  if (base.ends_with("/v1")) base.resize(base.size() - 3);
  std::string key =
      CUTEGEN_TRY(api_key_from_env(opt.api_key_env.empty() ? "ANTHROPIC_API_KEY" : opt.api_key_env, spec.text));
  BackendOptions o = opt;
  if (!o.transport) o.transport = make_curl_transport();
  return std::unique_ptr<Model>(new AnthropicModel(spec, std::move(o), base + "/v1/messages", key));
}

}  // namespace cutegen
