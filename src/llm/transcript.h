// Transcripts: every exchange as one JSON line, keyed by the prompt's hash, so a run can be
// replayed exactly. Lines are redacted before they are written; no timestamps, so replaying a
// recorded session and recording it again yields the same bytes.
#pragma once

#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/result.h"
#include "llm/request.h"

namespace cutegen {

nlohmann::json request_to_json(const Request& req);  // the content only; on_text is not data
nlohmann::json response_to_json(const Response& r);
Response response_from_json(const nlohmann::json& j);
// The hash of the request's content: what replay and the file queue key answers by.
std::string prompt_key(const Request& req);
// The request as plain text for a person or a CLI: the prompt alone when it is a single user
// message, else "=== system ===" / "=== user ===" / "=== assistant ===" sections.
std::string render_prompt(const Request& req);

struct TranscriptEntry {
  std::string key;
  nlohmann::json request;
  Response response;
};

class TranscriptWriter {
 public:
  explicit TranscriptWriter(std::string path) : path_(std::move(path)) {}
  // Appends one line; only answers are recorded (waiting and budget values are not exchanges).
  Status append(const Request& req, const Response& r);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::mutex mu_;
};

Result<std::vector<TranscriptEntry>> read_transcript(const std::string& path);

}  // namespace cutegen
