#include "llm/transcript.h"

#include <cstdio>

#include "core/hash.h"
#include "core/strings.h"
#include "llm/redact.h"
#include "sys/fs.h"

namespace cutegen {

using json = nlohmann::json;

json request_to_json(const Request& req) {
  json msgs = json::array();
  for (auto& m : req.messages)
    msgs.push_back({{"role", m.role}, {"content", m.content}});
  json j = {{"system", req.system}, {"messages", msgs}, {"max_output_tokens", req.max_output_tokens}};
  if (req.temperature) j["temperature"] = *req.temperature;
  if (!req.stop.empty()) j["stop"] = req.stop;
  if (!req.reasoning_effort.empty()) j["reasoning_effort"] = req.reasoning_effort;
  if (req.reasoning_budget > 0) j["reasoning_budget"] = req.reasoning_budget;
  return j;
}

json response_to_json(const Response& r) {
  return {{"text", r.text},
          {"reasoning", r.reasoning},
          {"finish_reason", r.finish_reason},
          {"usage",
           {{"input", r.usage.input},
            {"output", r.usage.output},
            {"cached", r.usage.cached},
            {"reasoning", r.usage.reasoning}}},
          {"latency_s", r.latency_s},
          {"request_id", r.request_id},
          {"model", r.model},
          {"continuations", r.continuations}};
}

Response response_from_json(const json& j) {
  Response r;
  r.text = j.value("text", "");
  r.reasoning = j.value("reasoning", "");
  r.finish_reason = j.value("finish_reason", "");
  if (auto u = j.find("usage"); u != j.end() && u->is_object())
    r.usage = Usage{u->value("input", 0L), u->value("output", 0L), u->value("cached", 0L), u->value("reasoning", 0L)};
  r.latency_s = j.value("latency_s", 0.0);
  r.request_id = j.value("request_id", "");
  r.model = j.value("model", "");
  r.continuations = j.value("continuations", 0);
  return r;
}

std::string prompt_key(const Request& req) { return hash_hex(request_to_json(req).dump()); }

std::string render_prompt(const Request& req) {
  if (req.system.empty() && req.messages.size() == 1 && req.messages[0].role == "user") return req.messages[0].content;
  std::string out;
  if (!req.system.empty()) out += "=== system ===\n" + req.system + "\n\n";
  for (auto& m : req.messages)
    out += "=== " + m.role + " ===\n" + m.content + "\n\n";
  return out;
}

Status TranscriptWriter::append(const Request& req, const Response& r) {
  if (r.status != ResponseStatus::answer) return Ok{};
  json line = {{"key", prompt_key(req)}, {"request", request_to_json(req)}, {"response", response_to_json(r)}};
  std::string text = redact(line.dump()) + "\n";
  std::lock_guard lock(mu_);
  if (auto slash = path_.rfind('/'); slash != std::string::npos && slash > 0)
    CUTEGEN_TRY(make_dirs(path_.substr(0, slash)));
  FILE* f = std::fopen(path_.c_str(), "ab");
  if (!f) return error(path_ + ": cannot append to transcript");
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  ok = std::fclose(f) == 0 && ok;
  if (!ok) return error(path_ + ": write to transcript failed");
  return Ok{};
}

Result<std::vector<TranscriptEntry>> read_transcript(const std::string& path) {
  auto text = CUTEGEN_TRY(read_file(path));
  std::vector<TranscriptEntry> out;
  int n = 0;
  for (auto& l : split_lines(text)) {
    ++n;
    if (trim(l).empty()) continue;
    auto j = json::parse(l, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("key") || !j.contains("response"))
      return error(path + ":" + std::to_string(n) + ": not a transcript line");
    out.push_back({j.value("key", ""), j.value("request", json()), response_from_json(j["response"])});
  }
  return out;
}

}  // namespace cutegen
