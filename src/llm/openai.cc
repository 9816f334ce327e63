// OpenAI Chat Completions, as spoken by OpenAI and every compatible server (vLLM, SGLang,
// llama.cpp, Ollama, DeepSeek, Together, OpenRouter). Reasoning text arrives as
// `reasoning_content` (DeepSeek, vLLM, SGLang) or `reasoning` (OpenRouter, newer vLLM).
#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "llm/backends.h"
#include "llm/redact.h"

namespace cutegen {
namespace {

using json = nlohmann::json;

std::string str_or(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

long long_at(const json& j, const char* a, const char* b = nullptr) {
  auto it = j.find(a);
  if (it == j.end()) return 0;
  if (b) {
    if (!it->is_object()) return 0;
    auto jt = it->find(b);
    return jt != it->end() && jt->is_number() ? jt->get<long>() : 0;
  }
  return it->is_number() ? it->get<long>() : 0;
}

Usage parse_usage(const json& u) {
  if (!u.is_object()) return {};
  return Usage{.input = long_at(u, "prompt_tokens"),
               .output = long_at(u, "completion_tokens"),
               .cached = long_at(u, "prompt_tokens_details", "cached_tokens"),
               .reasoning = long_at(u, "completion_tokens_details", "reasoning_tokens")};
}

// Reasoning models (o-series, gpt-5) reject max_tokens; most self-hosted servers predate
// max_completion_tokens. Auto picks by model and host, and a 400 naming the field flips it.
bool wants_completion_tokens(const std::string& model, const std::string& url) {
  static const char* families[] = {"o1", "o3", "o4", "gpt-5"};
  auto base = model.substr(model.rfind('/') + 1);
  for (auto f : families)
    if (base.starts_with(f)) return true;
  return contains(url, "api.openai.com");
}

class OpenAiModel : public Model {
 public:
  OpenAiModel(ModelSpec spec, BackendOptions opt, std::string url, std::string key)
      : spec_(std::move(spec)), opt_(std::move(opt)), url_(std::move(url)), key_(std::move(key)) {
    use_completion_tokens_ = opt_.openai_token_field == "auto" ? wants_completion_tokens(spec_.model, url_)
                                                               : opt_.openai_token_field == "max_completion_tokens";
  }

  std::string name() const override { return spec_.text; }

  Result<Response> complete(const Request& req) override {
    return call_with_retries(opt_, [&](int) { return attempt(req); });
  }

 private:
  json body(const Request& req) const {
    json msgs = json::array();
    if (!req.system.empty()) msgs.push_back({{"role", "system"}, {"content", req.system}});
    for (auto& m : req.messages)
      msgs.push_back({{"role", m.role}, {"content", m.content}});
    json b = {{"model", spec_.model}, {"messages", msgs}};
    b[use_completion_tokens_ ? "max_completion_tokens" : "max_tokens"] = req.max_output_tokens;
    if (req.temperature) b["temperature"] = *req.temperature;
    if (!req.stop.empty()) b["stop"] = req.stop;
    if (!req.reasoning_effort.empty()) b["reasoning_effort"] = req.reasoning_effort;
    if (req.on_text) {
      b["stream"] = true;
      b["stream_options"] = {{"include_usage", true}};
    }
    return b;
  }

  Attempt attempt(const Request& req) {
    HttpRequest http{
        .url = url_, .body = body(req).dump(), .timeout = opt_.timeout, .connect_timeout = opt_.connect_timeout};
    http.headers = {{"Content-Type", "application/json"}};
    if (!key_.empty()) http.headers.push_back({"Authorization", "Bearer " + key_});
    Response out;
    out.model = spec_.model;
    bool done = false;
    std::string bad;
    SseParser sse([&](const std::string&, const std::string& data) {
      if (done || !bad.empty()) return;
      if (data == "[DONE]") {
        done = true;
        return;
      }
      auto j = json::parse(data, nullptr, false);
      if (j.is_discarded() || !j.is_object()) {
        bad = "malformed stream chunk: " + truncate_middle(data, 200);
        return;
      }
      if (j.contains("error")) {
        bad = "error in stream: " + j["error"].dump();
        return;
      }
      if (out.request_id.empty()) out.request_id = str_or(j, "id");
      if (j.contains("usage") && j["usage"].is_object()) out.usage = parse_usage(j["usage"]);
      auto& choices = j["choices"];
      if (!choices.is_array() || choices.empty()) return;
      auto& c = choices[0];
      if (c.contains("finish_reason") && c["finish_reason"].is_string()) out.finish_reason = c["finish_reason"];
      if (!c.contains("delta") || !c["delta"].is_object()) return;
      auto& d = c["delta"];
      out.reasoning += str_or(d, "reasoning_content") + str_or(d, "reasoning");
      std::string piece = str_or(d, "content");
      if (!piece.empty()) {
        out.text += piece;
        req.on_text(piece);
      }
    });
    BodySink sink;
    if (req.on_text)
      sink = [&](int status, std::string_view chunk) {
        if (status == 200) sse.feed(chunk);
      };
    auto r = opt_.transport->post(http, sink);
    if (!r) return failed(r.message(), true);
    if (r->status == 400 && flip_token_field(r->body)) return retry_now();
    if (r->status != 200) return http_failure("openai", *r);
    if (auto it = r->headers.find("x-request-id"); it != r->headers.end()) out.request_id = it->second;
    if (req.on_text) {
      sse.finish();
      if (!bad.empty()) return failed("openai: " + bad, true);
      if (!done)
        return failed("openai: the stream ended before [DONE] (answer cut off after " +
                          std::to_string(out.text.size()) + " characters)",
                      true);
      return accept_answer(std::move(out), "openai");
    }
    return parse(r->body, std::move(out));
  }

  Attempt parse(const std::string& body, Response out) {
    auto j = json::parse(body, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      return failed("openai answered malformed JSON: " + truncate_middle(trim(body), 200), true);
    auto& choices = j["choices"];
    if (!choices.is_array() || choices.empty() || !choices[0].is_object() || !choices[0].contains("message"))
      return failed("openai answered JSON without choices[0].message: " + truncate_middle(body, 200), true);
    auto& c = choices[0];
    auto& m = c["message"];
    if (out.request_id.empty()) out.request_id = str_or(j, "id");
    out.text = m.is_object() ? str_or(m, "content") : "";
    if (m.is_object()) out.reasoning = str_or(m, "reasoning_content") + str_or(m, "reasoning");
    out.finish_reason = str_or(c, "finish_reason");
    out.usage = parse_usage(j.value("usage", json()));
    return accept_answer(std::move(out), "openai");
  }

  // A 400 that names the other token field: switch once and resend straight away.
  bool flip_token_field(const std::string& body) {
    if (flipped_) return false;
    const char* other = use_completion_tokens_ ? "max_tokens" : "max_completion_tokens";
    if (!contains(body, other)) return false;
    use_completion_tokens_ = !use_completion_tokens_;
    flipped_ = true;
    return true;
  }

  static Attempt retry_now() {
    Attempt a = failed("openai: switching the max-tokens field", true);
    a.retry_after_s = 0;
    return a;
  }

  ModelSpec spec_;
  BackendOptions opt_;
  std::string url_;
  std::string key_;
  bool use_completion_tokens_ = false;
  bool flipped_ = false;
};

}  // namespace

Result<std::unique_ptr<Model>> make_openai(const ModelSpec& spec, const BackendOptions& opt) {
  std::string base = !spec.base_url.empty() ? spec.base_url : env_or("OPENAI_BASE_URL", "https://api.openai.com/v1");
  while (!base.empty() && base.back() == '/')
    base.pop_back();
  // Self-hosted servers (vLLM, llama.cpp, Ollama) usually need no key; the hosted API and any
  // explicitly configured variable do.
  std::string var = !opt.api_key_env.empty() ? opt.api_key_env : "OPENAI_API_KEY";
  bool required = !opt.api_key_env.empty() || contains(base, "api.openai.com");
  std::string key;
  if (auto k = api_key_from_env(var, spec.text); k)
    key = *k;
  else if (required)
    return error(k.message());
  BackendOptions o = opt;
  if (!o.transport) o.transport = make_curl_transport();
  return std::unique_ptr<Model>(new OpenAiModel(spec, std::move(o), base + "/chat/completions", key));
}

}  // namespace cutegen
