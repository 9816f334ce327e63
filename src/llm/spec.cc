#include "llm/spec.h"

#include <cctype>

#include "core/strings.h"

namespace cutegen {

const std::vector<BackendInfo>& model_backends() {
  static const std::vector<BackendInfo> table = {
      {"openai", true, "Chat Completions: OpenAI, vLLM, SGLang, llama.cpp, Ollama, DeepSeek, OpenRouter, ..."},
      {"anthropic", true, "Anthropic Messages API"},
      {"command", false, "a command: prompt on stdin, answer on stdout"},
      {"file", false, "a queue folder: <hash>.prompt.md out, <hash>.answer.md in"},
      {"replay", false, "a recorded transcript (JSONL), keyed by prompt hash"},
  };
  return table;
}

namespace {

const BackendInfo* find_backend(std::string_view name) {
  for (auto& b : model_backends())
    if (name == b.name) return &b;
  return nullptr;
}

std::string known_backends() {
  std::vector<std::string> names;
  for (auto& b : model_backends())
    names.push_back(b.name);
  return join(names, ", ");
}

// Splits "http://host[:port][/path]:model" at the colon that starts the model name. A colon
// right after the host followed by digits is the port; the model may itself contain colons
// (Ollama's "qwen2.5:7b").
Result<std::pair<std::string, std::string>> split_url_model(std::string_view s, std::string_view spec) {
  auto scheme = s.find("://");
  if (scheme == std::string_view::npos)
    return error("model spec '" + std::string(spec) + "': expected a URL like http://host:port/v1 after '@'");
  size_t i = scheme + 3;
  while (i < s.size() && s[i] != ':' && s[i] != '/')
    ++i;  // host
  if (i < s.size() && s[i] == ':') {
    size_t j = i + 1;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])))
      ++j;
    if (j > i + 1 && (j == s.size() || s[j] == ':' || s[j] == '/')) i = j;  // a port
  }
  if (i < s.size() && s[i] == '/') i = s.find(':', i);  // path, up to the model's colon
  if (i == std::string_view::npos || i >= s.size() || s[i] != ':' || i + 1 >= s.size())
    return error("model spec '" + std::string(spec) + "': no model name after the URL (expected URL:model)");
  std::string url(s.substr(0, i));
  while (!url.empty() && url.back() == '/')
    url.pop_back();
  return std::pair{url, std::string(s.substr(i + 1))};
}

}  // namespace

Result<ModelSpec> parse_model_spec(std::string_view text) {
  std::string spec = trim(text);
  if (spec.empty()) return error("no model given: pass a spec like openai:gpt-5 or set llm.model");
  auto colon = spec.find(':');
  auto at = spec.find('@');
  size_t name_end = std::min(colon, at);
  if (name_end == std::string::npos)
    return error("model spec '" + spec + "' names no backend (expected e.g. openai:" + spec +
                 "; backends: " + known_backends() + ")");
  std::string name = spec.substr(0, name_end);
  auto* info = find_backend(name);
  if (!info)
    return error("unknown model backend '" + name + "' in spec '" + spec + "' (backends: " + known_backends() + ")");
  ModelSpec m{.backend = name, .text = spec};
  std::string rest = spec.substr(name_end + 1);
  if (info->is_api) {
    if (spec[name_end] == '@') {
      auto [url, model] = CUTEGEN_TRY(split_url_model(rest, spec));
      m.base_url = url;
      m.model = model;
    } else {
      m.model = rest;
    }
    if (trim(m.model).empty()) return error("model spec '" + spec + "': empty model name");
    return m;
  }
  if (spec[name_end] == '@') return error("model spec '" + spec + "': backend '" + name + "' takes no @URL");
  m.target = trim(rest);
  if (m.target.empty())
    return error("model spec '" + spec + "': backend '" + name + "' needs a " +
                 (name == "command" ? "command" : "path") + " after the colon");
  return m;
}

}  // namespace cutegen
