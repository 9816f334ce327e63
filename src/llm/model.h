// The interface the agent talks to: one call, one answer (or a "waiting" value, or an error).
#pragma once

#include <string>

#include "core/result.h"
#include "llm/request.h"

namespace cutegen {

class Model {
 public:
  virtual ~Model() = default;
  // Errors are one line, already redacted of every known key.
  virtual Result<Response> complete(const Request& req) = 0;
  // "openai:gpt-5", for ledgers and messages; never contains a key.
  virtual std::string name() const = 0;
};

}  // namespace cutegen
