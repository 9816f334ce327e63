#include "llm/retry.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "core/strings.h"
#include "llm/redact.h"

namespace cutegen {

// 408 request timeout, 409 conflict (OpenAI uses it for transient lock contention), 425 too
// early, 429 rate limited, 5xx server trouble, 529 Anthropic "overloaded".
bool retryable_status(int status) {
  static const int table[] = {408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529};
  return std::find(std::begin(table), std::end(table), status) != std::end(table);
}

Sleeper real_sleeper() {
  return [](double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); };
}

Random01 real_random() {
  auto gen = std::make_shared<std::mt19937_64>(std::random_device{}());
  return [gen] { return std::uniform_real_distribution<double>(0, 1)(*gen); };
}

double backoff_delay(const RetryPolicy& p, int retry, double random01) {
  double base = std::min(p.max_s, p.initial_s * std::pow(p.multiplier, retry));
  return base * (1 - p.jitter + 2 * p.jitter * random01);
}

Result<Response> with_retries(const RetryPolicy& p, const Sleeper& sleep, const Random01& random01,
                              const std::function<Attempt(int)>& attempt) {
  std::string last;
  int n = std::max(1, p.max_attempts);
  for (int i = 0; i < n; ++i) {
    Attempt a = attempt(i);
    if (a.response) return std::move(*a.response);
    last = redact(a.error);
    if (!a.retryable) return error(last);
    if (i + 1 == n) break;
    double wait = a.retry_after_s ? std::min(*a.retry_after_s, p.max_retry_after_s) : backoff_delay(p, i, random01());
    sleep(std::max(0.0, wait));
  }
  return error(n > 1 ? "gave up after " + std::to_string(n) + " attempts: " + last : last);
}

std::optional<double> retry_after_seconds(const std::map<std::string, std::string>& headers) {
  if (auto it = headers.find("retry-after-ms"); it != headers.end()) {
    try {
      return std::stod(it->second) / 1000.0;
    } catch (...) {
    }
  }
  auto it = headers.find("retry-after");
  if (it == headers.end()) return std::nullopt;
  try {
    size_t used = 0;
    double s = std::stod(it->second, &used);
    if (used == trim(it->second).size()) return std::max(0.0, s);
  } catch (...) {
  }
  std::tm tm{};  // an HTTP date: "Wed, 21 Oct 2015 07:28:00 GMT"
  if (strptime(it->second.c_str(), "%a, %d %b %Y %H:%M:%S", &tm))
    return std::max(0.0, std::difftime(timegm(&tm), std::time(nullptr)));
  return std::nullopt;
}

Attempt http_failure(const std::string& api, const HttpResponse& r) {
  std::string detail;
  auto j = nlohmann::json::parse(r.body, nullptr, false);
  if (!j.is_discarded() && j.is_object() && j.contains("error")) {
    auto& e = j["error"];
    if (e.is_object() && e.contains("message") && e["message"].is_string())
      detail = e["message"];
    else if (e.is_string())
      detail = e;
  }
  if (detail.empty()) detail = truncate_middle(trim(r.body), 300);
  detail = replace_all(detail, "\n", " ");
  Attempt a = failed(api + " answered HTTP " + std::to_string(r.status) + (detail.empty() ? "" : ": " + detail),
                     retryable_status(r.status));
  a.retry_after_s = retry_after_seconds(r.headers);
  return a;
}

}  // namespace cutegen
