// A thin HTTP POST transport behind an interface (libcurl in production, fakes in tests), and
// the Server-Sent-Events line protocol that streaming APIs answer with.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"

namespace cutegen {

struct HttpRequest {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;  // keys travel here and only here
  std::string body;
  std::chrono::milliseconds timeout{1800 * 1000};  // whole exchange; reasoning models think long
  std::chrono::milliseconds connect_timeout{30 * 1000};
};

struct HttpResponse {
  int status = 0;
  std::map<std::string, std::string> headers;  // names lowercased
  std::string body;                            // the whole body, streamed or not
};

// Called with each piece of the body as it arrives, once the status is known.
using BodySink = std::function<void(int status, std::string_view chunk)>;

class HttpTransport {
 public:
  virtual ~HttpTransport() = default;
  // An error means no HTTP response at all (refused, unreachable, timed out, cut): retryable.
  virtual Result<HttpResponse> post(const HttpRequest& req, const BodySink& sink) = 0;
};

std::shared_ptr<HttpTransport> make_curl_transport();

// Splits an SSE byte stream into events. Feed it chunks in any split; it calls `on_event`
// with the event name ("" when none was given) and the joined data lines of each event.
class SseParser {
 public:
  using Handler = std::function<void(const std::string& event, const std::string& data)>;
  explicit SseParser(Handler on_event) : on_event_(std::move(on_event)) {}
  void feed(std::string_view chunk);
  void finish();  // dispatches a final event that lacked its blank line

 private:
  void line(std::string_view l);
  Handler on_event_;
  std::string pending_;
  std::string event_;
  std::string data_;
  bool has_data_ = false;
};

}  // namespace cutegen
