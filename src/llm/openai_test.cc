// The openai backend against the protocol-exact fixture server on loopback.
#include <gtest/gtest.h>

#include <cstdlib>

#include "core/strings.h"
#include "llm/backends.h"
#include "llm/fixture_for_tests.h"

namespace cutegen {
namespace {

constexpr const char* kKey = "sk-fixture-openai-key-0001";

class OpenAiTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new FixtureServer({"--openai-key", kKey}); }
  static void TearDownTestSuite() { delete server_; }
  void SetUp() override {
    setenv("OPENAI_API_KEY", kKey, 1);
    unsetenv("OPENAI_BASE_URL");
    server_->reset();
  }

  std::unique_ptr<Model> model(const std::string& name = "qwen", BackendOptions opt = {}) {
    if (!opt.sleep) opt = test_options(&slept_);
    auto m = make_model("openai@" + server_->base() + "/v1:" + name, opt);
    EXPECT_TRUE(m.ok()) << m.message();
    return std::move(m).value();
  }
  nlohmann::json last_body() { return nlohmann::json::parse(std::string(server_->log().back()["body"])); }

  static FixtureServer* server_;
  std::vector<double> slept_;
};

FixtureServer* OpenAiTest::server_ = nullptr;

}  // namespace

TEST_F(OpenAiTest, JsonAnswerIsParsedCompletely) {
  Request req = ask("hello world", "be brief now");
  req.reasoning_effort = "low";
  req.temperature = 0.2;
  req.stop = {"###"};
  auto r = model()->complete(req);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->text, "echo: hello world");
  EXPECT_EQ(r->reasoning, "Let me think about this.");
  EXPECT_EQ(r->finish_reason, "stop");
  EXPECT_FALSE(r->truncated());
  EXPECT_EQ(r->usage.input, 5);
  EXPECT_EQ(r->usage.cached, 3);
  EXPECT_EQ(r->usage.output, 8);
  EXPECT_EQ(r->usage.reasoning, 5);
  EXPECT_TRUE(r->request_id.starts_with("req_openai_")) << r->request_id;
  EXPECT_GT(r->latency_s, 0);
  auto body = last_body();
  EXPECT_EQ(body["model"], "qwen");
  EXPECT_EQ(body["messages"][0]["role"], "system");
  EXPECT_EQ(body["max_tokens"], 256);
  EXPECT_EQ(body["reasoning_effort"], "low");
  EXPECT_EQ(body["stop"][0], "###");
  EXPECT_DOUBLE_EQ(body["temperature"].get<double>(), 0.2);
  EXPECT_FALSE(body.contains("stream"));
}

TEST_F(OpenAiTest, StreamDeliversPiecesInOrderAndUsageAtTheEnd) {
  Request req = ask("stream this please", "sys words");
  req.reasoning_effort = "high";
  std::vector<std::string> pieces;
  req.on_text = [&](std::string_view p) { pieces.emplace_back(p); };
  auto r = model()->complete(req);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_GT(pieces.size(), 1u);
  EXPECT_EQ(join(pieces, ""), "echo: stream this please");
  EXPECT_EQ(r->text, "echo: stream this please");
  EXPECT_EQ(r->reasoning, "Let me think about this.");
  EXPECT_EQ(r->finish_reason, "stop");
  EXPECT_EQ(r->usage.input, 5);
  EXPECT_EQ(r->usage.cached, 2);
  EXPECT_EQ(r->usage.reasoning, 5);
  auto body = last_body();
  EXPECT_EQ(body["stream"], true);
  EXPECT_EQ(body["stream_options"]["include_usage"], true);
}

TEST_F(OpenAiTest, KeyTravelsOnlyInTheAuthorizationHeader) {
  ASSERT_TRUE(model()->complete(ask("one")).ok());
  Request s = ask("two");
  s.on_text = [](std::string_view) {};
  ASSERT_TRUE(model()->complete(s).ok());
  auto log = server_->log();
  ASSERT_EQ(log.size(), 2u);
  for (auto& e : log) {
    EXPECT_EQ(std::string(e["path"]).find(kKey), std::string::npos);
    EXPECT_EQ(std::string(e["body"]).find(kKey), std::string::npos);
    for (auto& [name, value] : e["headers"].items()) {
      if (lowercase(name) == "authorization")
        EXPECT_EQ(value, std::string("Bearer ") + kKey);
      else
        EXPECT_EQ(std::string(value).find(kKey), std::string::npos) << name;
    }
  }
}

TEST_F(OpenAiTest, RateLimitIsRetriedAfterTheServersRetryAfter) {
  auto r = model()->complete(ask("FIXTURE:429x2 busy"));
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(slept_, (std::vector<double>{1, 1}));
  EXPECT_EQ(server_->log().size(), 3u);
}

TEST_F(OpenAiTest, ServerErrorIsRetriedWithBackoff) {
  auto r = model()->complete(ask("FIXTURE:500x2 flaky"));
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(slept_, (std::vector<double>{0.5, 1.0}));
}

TEST_F(OpenAiTest, PersistentServerErrorGivesUpWithTheApiMessage) {
  auto r = model()->complete(ask("FIXTURE:500 down"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(
      r.message(),
      "gave up after 3 attempts: openai answered HTTP 500: The server had an error while processing your request.");
}

TEST_F(OpenAiTest, MalformedJsonIsRetriedThenReported) {
  ASSERT_TRUE(model()->complete(ask("FIXTURE:badjsonx1 once")).ok());
  auto r = model()->complete(ask("FIXTURE:badjson always"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("openai answered malformed JSON"), std::string::npos) << r.message();
}

TEST_F(OpenAiTest, StreamCutMidAnswerIsRetried) {
  Request req = ask("FIXTURE:cutx1 a longer answer that gets cut");
  std::string streamed;
  req.on_text = [&](std::string_view p) { streamed += p; };
  auto r = model()->complete(req);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->text, "echo: FIXTURE:cutx1 a longer answer that gets cut");
  EXPECT_EQ(slept_.size(), 1u);
  Request always = ask("FIXTURE:cut every time");
  always.on_text = [](std::string_view) {};
  auto bad = model()->complete(always);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("stream ended before [DONE]"), std::string::npos) << bad.message();
}

TEST_F(OpenAiTest, BodyCutShortIsANetworkErrorAndRetried) {
  auto r = model()->complete(ask("FIXTURE:cutx1 plain"));
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(slept_.size(), 1u);
}

TEST_F(OpenAiTest, SlowFirstByteWaitsOrTimesOut) {
  auto opt = test_options(&slept_);
  opt.retry.max_attempts = 1;
  opt.timeout = std::chrono::milliseconds(300);
  auto r = model("qwen", opt)->complete(ask("FIXTURE:slow impatient"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("timed out"), std::string::npos) << r.message();
  auto patient = model()->complete(ask("FIXTURE:slow patient"));
  ASSERT_TRUE(patient.ok()) << patient.message();
  EXPECT_GE(patient->latency_s, 0.9);
}

TEST_F(OpenAiTest, TruncatedAnswerSaysLength) {
  auto r = model()->complete(ask("FIXTURE:truncate-always"));
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->finish_reason, "length");
  EXPECT_TRUE(r->truncated());
}

TEST_F(OpenAiTest, AnswerWithNoTextIsOneError) {
  auto r = model()->complete(ask("FIXTURE:empty"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "openai answered with no text (finish reason 'stop')");
  EXPECT_TRUE(slept_.empty());
}

TEST_F(OpenAiTest, TokenFieldFollowsTheModelAndFlipsOnRejection) {
  ASSERT_TRUE(model("gpt-5-mini")->complete(ask("reasoning model")).ok());
  EXPECT_TRUE(last_body().contains("max_completion_tokens"));
  EXPECT_FALSE(last_body().contains("max_tokens"));
  server_->reset();
  auto r = model("qwen")->complete(ask("FIXTURE:needs-mct served by a reasoning model"));
  ASSERT_TRUE(r.ok()) << r.message();
  auto log = server_->log();
  ASSERT_EQ(log.size(), 2u);
  EXPECT_TRUE(nlohmann::json::parse(std::string(log[0]["body"])).contains("max_tokens"));
  EXPECT_EQ(nlohmann::json::parse(std::string(log[1]["body"]))["max_completion_tokens"], 256);
}

TEST_F(OpenAiTest, WrongKeyIsOneErrorWithoutTheKey) {
  setenv("OPENAI_API_KEY", "sk-wrong-key-for-fixture", 1);
  auto r = model()->complete(ask("hi"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "openai answered HTTP 401: Incorrect API key provided.");
  EXPECT_EQ(server_->log().size(), 1u);
}

TEST_F(OpenAiTest, BaseUrlFromTheEnvironment) {
  setenv("OPENAI_BASE_URL", (server_->base() + "/v1/").c_str(), 1);
  auto m = make_model("openai:qwen", test_options(&slept_));
  ASSERT_TRUE(m.ok()) << m.message();
  auto r = (*m)->complete(ask("via env"));
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->text, "echo: via env");
}

TEST_F(OpenAiTest, MissingKeyForTheHostedApiIsOneError) {
  unsetenv("OPENAI_API_KEY");
  auto m = make_model("openai:gpt-5", test_options(&slept_));
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.message(), "missing API key: environment variable OPENAI_API_KEY is not set (needed by openai:gpt-5)");
  auto opt = test_options(&slept_);
  opt.api_key_env = "MY_GATEWAY_KEY";
  unsetenv("MY_GATEWAY_KEY");
  auto named = make_model("openai@http://127.0.0.1:9/v1:x", opt);
  ASSERT_FALSE(named.ok());
  EXPECT_NE(named.message().find("MY_GATEWAY_KEY"), std::string::npos);
}

TEST_F(OpenAiTest, UnreachableHostIsOneErrorAfterRetries) {
  auto opt = test_options(&slept_);
  opt.retry.max_attempts = 2;
  auto m = make_model("openai@http://127.0.0.1:1/v1:qwen", opt);
  ASSERT_TRUE(m.ok());
  auto r = (*m)->complete(ask("anyone?"));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.message().starts_with("gave up after 2 attempts: cannot reach http://127.0.0.1:1/v1/chat/completions"))
      << r.message();
  EXPECT_EQ(r.message().find('\n'), std::string::npos);
}

}  // namespace cutegen
