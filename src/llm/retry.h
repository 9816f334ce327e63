// Retries as data: which failures are worth another try, how long to wait between tries
// (exponential backoff with jitter, or the server's Retry-After), and an injectable sleeper so
// tests never wait for real.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "core/result.h"
#include "llm/http.h"
#include "llm/request.h"

namespace cutegen {

struct RetryPolicy {
  int max_attempts = 6;
  double initial_s = 2;
  double multiplier = 2;
  double max_s = 120;
  double jitter = 0.25;            // each delay is scaled by a random factor in [1 - jitter, 1 + jitter]
  double max_retry_after_s = 600;  // a longer Retry-After is capped to this
};

// One try's outcome: a response, or an error that may be worth retrying.
struct Attempt {
  std::optional<Response> response;
  std::string error;
  bool retryable = false;
  std::optional<double> retry_after_s;  // the server's own wish
};

inline Attempt failed(std::string why, bool retryable) { return Attempt{{}, std::move(why), retryable, {}}; }

using Sleeper = std::function<void(double seconds)>;
using Random01 = std::function<double()>;

Sleeper real_sleeper();
Random01 real_random();

// Delay before retry number `retry` (0-based), before jitter is applied when random01 = 0.5.
double backoff_delay(const RetryPolicy& p, int retry, double random01);

// Calls `attempt(n)` (n = 0, 1, ...) until it yields a response, a non-retryable error, or the
// policy's attempts are spent. Errors are redacted.
Result<Response> with_retries(const RetryPolicy& p, const Sleeper& sleep, const Random01& random01,
                              const std::function<Attempt(int)>& attempt);

// Retry-After as seconds ("120") or an HTTP date; retry-after-ms wins when present.
std::optional<double> retry_after_seconds(const std::map<std::string, std::string>& headers);
bool retryable_status(int status);
// A non-2xx response as an Attempt: the API's own error message, retryability, Retry-After.
Attempt http_failure(const std::string& api, const HttpResponse& r);

}  // namespace cutegen
