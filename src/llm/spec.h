// Model spec strings name a backend and what it needs:
//   openai:gpt-5                         Chat Completions at $OPENAI_BASE_URL or api.openai.com
//   openai@http://127.0.0.1:8000/v1:qwen  ... at an explicit base URL (vLLM, SGLang, llama.cpp, Ollama)
//   anthropic:claude-sonnet-4-5           Messages API at $ANTHROPIC_BASE_URL or api.anthropic.com
//   anthropic@http://host:port:model
//   command:./my-cli --flag               a shell command: prompt on stdin, answer on stdout
//   file:/path/queue                      prompt and answer files in a queue folder (asynchronous)
//   replay:/path/transcript.jsonl         answers from a recorded transcript
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace cutegen {

struct ModelSpec {
  std::string backend;   // a row of model_backends()
  std::string base_url;  // API backends: the explicit endpoint, "" for the default
  std::string model;     // API backends: the model name sent to the server
  std::string target;    // command line, queue folder or transcript path
  std::string text;      // the spec as written
};

struct BackendInfo {
  const char* name;
  bool is_api;  // takes [@url]:model rather than a free-form target
  const char* help;
};

const std::vector<BackendInfo>& model_backends();

// Errors name the spec and say what was expected.
Result<ModelSpec> parse_model_spec(std::string_view spec);

}  // namespace cutegen
