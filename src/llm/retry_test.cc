#include "llm/retry.h"

#include <gtest/gtest.h>

#include "llm/redact.h"

namespace cutegen {
namespace {

struct Script {
  std::vector<Attempt> attempts;
  std::vector<double> slept;
  int calls = 0;

  Result<Response> run(const RetryPolicy& p) {
    return with_retries(
        p, [&](double s) { slept.push_back(s); }, [] { return 0.5; },
        [&](int n) {
          EXPECT_EQ(n, calls);
          return attempts[calls++];
        });
  }
};

Attempt ok(const std::string& text) { return Attempt{Response{.text = text}, "", false, {}}; }

}  // namespace

TEST(Retry, BackoffDoublesUpToTheCapWithJitterAroundIt) {
  RetryPolicy p{.initial_s = 2, .multiplier = 2, .max_s = 10, .jitter = 0.25};
  EXPECT_DOUBLE_EQ(backoff_delay(p, 0, 0.5), 2);
  EXPECT_DOUBLE_EQ(backoff_delay(p, 1, 0.5), 4);
  EXPECT_DOUBLE_EQ(backoff_delay(p, 5, 0.5), 10);
  EXPECT_DOUBLE_EQ(backoff_delay(p, 0, 0.0), 1.5);
  EXPECT_DOUBLE_EQ(backoff_delay(p, 0, 1.0), 2.5);
}

TEST(Retry, RetriesRetryableFailuresThenAnswers) {
  Script s{{failed("HTTP 500", true), failed("network", true), ok("fine")}};
  auto r = s.run(RetryPolicy{.initial_s = 1});
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->text, "fine");
  EXPECT_EQ(s.slept, (std::vector<double>{1, 2}));
}

TEST(Retry, HonoursRetryAfterAndCapsIt) {
  Attempt a = failed("429", true);
  a.retry_after_s = 7;
  Attempt b = failed("429", true);
  b.retry_after_s = 100000;
  Script s{{a, b, ok("x")}};
  ASSERT_TRUE(s.run(RetryPolicy{.max_retry_after_s = 600}).ok());
  EXPECT_EQ(s.slept, (std::vector<double>{7, 600}));
}

TEST(Retry, StopsAtTheFirstPermanentFailure) {
  Script s{{failed("HTTP 401: bad key", false), ok("never")}};
  auto r = s.run(RetryPolicy{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "HTTP 401: bad key");
  EXPECT_EQ(s.calls, 1);
  EXPECT_TRUE(s.slept.empty());
}

TEST(Retry, GivesUpAfterMaxAttemptsWithTheLastError) {
  Script s{{failed("one", true), failed("two", true), failed("three", true)}};
  auto r = s.run(RetryPolicy{.max_attempts = 3});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "gave up after 3 attempts: three");
  EXPECT_EQ(s.slept.size(), 2u);
}

TEST(Retry, ErrorsAreRedacted) {
  register_secret("sk-retry-secret-123");
  Script s{{failed("echoed sk-retry-secret-123 back", false)}};
  auto r = s.run(RetryPolicy{});
  EXPECT_EQ(r.message(), "echoed [REDACTED] back");
}

TEST(Retry, RetryAfterHeaderForms) {
  EXPECT_EQ(retry_after_seconds({{"retry-after", "3"}}), 3.0);
  EXPECT_EQ(retry_after_seconds({{"retry-after", "3"}, {"retry-after-ms", "250"}}), 0.25);
  EXPECT_FALSE(retry_after_seconds({}).has_value());
  EXPECT_FALSE(retry_after_seconds({{"retry-after", "soon"}}).has_value());
  auto past = retry_after_seconds({{"retry-after", "Wed, 21 Oct 2015 07:28:00 GMT"}});
  ASSERT_TRUE(past.has_value());
  EXPECT_EQ(*past, 0.0);
}

TEST(Retry, StatusTableAndHttpFailureMessage) {
  for (int s : {429, 500, 502, 503, 504, 529})
    EXPECT_TRUE(retryable_status(s)) << s;
  for (int s : {400, 401, 403, 404, 422})
    EXPECT_FALSE(retryable_status(s)) << s;
  HttpResponse r{.status = 429,
                 .headers = {{"retry-after", "2"}},
                 .body = R"({"error":{"message":"Rate limit reached","type":"requests"}})"};
  Attempt a = http_failure("openai", r);
  EXPECT_TRUE(a.retryable);
  EXPECT_EQ(a.retry_after_s, 2.0);
  EXPECT_EQ(a.error, "openai answered HTTP 429: Rate limit reached");
}

}  // namespace cutegen
