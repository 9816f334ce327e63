// The anthropic backend against the protocol-exact fixture server on loopback.
#include <gtest/gtest.h>

#include <cstdlib>

#include "core/strings.h"
#include "llm/backends.h"
#include "llm/fixture_for_tests.h"

namespace cutegen {
namespace {

constexpr const char* kKey = "sk-ant-fixture-key-0002";

class AnthropicTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new FixtureServer({"--anthropic-key", kKey}); }
  static void TearDownTestSuite() { delete server_; }
  void SetUp() override {
    setenv("ANTHROPIC_API_KEY", kKey, 1);
    server_->reset();
  }

  std::unique_ptr<Model> model() {
    auto m = make_model("anthropic@" + server_->base() + ":claude-test", test_options(&slept_));
    EXPECT_TRUE(m.ok()) << m.message();
    return std::move(m).value();
  }
  nlohmann::json last_body() { return nlohmann::json::parse(std::string(server_->log().back()["body"])); }

  static FixtureServer* server_;
  std::vector<double> slept_;
};

FixtureServer* AnthropicTest::server_ = nullptr;

}  // namespace

TEST_F(AnthropicTest, ThinkingAndTextBlocksAreParsed) {
  Request req = ask("hello there", "cached system prompt");
  req.reasoning_budget = 1024;
  req.temperature = 0.7;
  req.stop = {"END"};
  auto r = model()->complete(req);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->text, "echo: hello there");
  EXPECT_EQ(r->reasoning, "Let me think about this.");
  EXPECT_EQ(r->finish_reason, "end_turn");
  EXPECT_EQ(r->usage.input, 5);  // fresh + cache reads
  EXPECT_EQ(r->usage.cached, 3);
  EXPECT_EQ(r->usage.output, 8);
  EXPECT_TRUE(r->request_id.starts_with("req_anthropic_")) << r->request_id;
  auto body = last_body();
  EXPECT_EQ(body["system"], "cached system prompt");
  EXPECT_EQ(body["max_tokens"], 256 + 1024);
  EXPECT_EQ(body["thinking"]["type"], "enabled");
  EXPECT_EQ(body["thinking"]["budget_tokens"], 1024);
  EXPECT_FALSE(body.contains("temperature"));  // thinking requires the default
  EXPECT_EQ(body["stop_sequences"][0], "END");
}

TEST_F(AnthropicTest, StreamEventsAssembleTheAnswer) {
  Request req = ask("stream me an answer");
  req.reasoning_effort = "low";
  std::vector<std::string> pieces;
  req.on_text = [&](std::string_view p) { pieces.emplace_back(p); };
  auto r = model()->complete(req);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_GT(pieces.size(), 1u);
  EXPECT_EQ(join(pieces, ""), "echo: stream me an answer");
  EXPECT_EQ(r->text, "echo: stream me an answer");
  EXPECT_EQ(r->reasoning, "Let me think about this.");
  EXPECT_EQ(r->finish_reason, "end_turn");
  EXPECT_EQ(r->usage.input, 4);
  EXPECT_EQ(r->usage.output, 10);  // from message_delta, not message_start's placeholder
  EXPECT_EQ(last_body()["thinking"]["budget_tokens"], 2048);
  EXPECT_EQ(last_body()["stream"], true);
}

TEST_F(AnthropicTest, VersionAndKeyHeadersAndNothingElseCarriesTheKey) {
  ASSERT_TRUE(model()->complete(ask("check headers")).ok());
  auto e = server_->log().back();
  bool saw_key = false, saw_version = false;
  for (auto& [name, value] : e["headers"].items()) {
    std::string n = lowercase(name), v = value;
    if (n == "x-api-key")
      saw_key = v == kKey;
    else
      EXPECT_EQ(v.find(kKey), std::string::npos) << name;
    if (n == "anthropic-version") saw_version = v == "2023-06-01";
  }
  EXPECT_TRUE(saw_key);
  EXPECT_TRUE(saw_version);
  EXPECT_EQ(std::string(e["body"]).find(kKey), std::string::npos);
  EXPECT_EQ(std::string(e["path"]), "/v1/messages");
}

TEST_F(AnthropicTest, RateLimitAndOverloadAreRetried) {
  auto r = model()->complete(ask("FIXTURE:429x1 slow down"));
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(slept_, (std::vector<double>{1}));
  slept_.clear();
  auto s = model()->complete(ask("FIXTURE:500x1 oops"));
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(slept_, (std::vector<double>{0.5}));
}

TEST_F(AnthropicTest, StreamCutBeforeMessageStopIsRetriedThenReported) {
  Request req = ask("FIXTURE:cutx1 this answer is long enough to cut");
  req.on_text = [](std::string_view) {};
  auto r = model()->complete(req);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->text, "echo: FIXTURE:cutx1 this answer is long enough to cut");
  Request always = ask("FIXTURE:cut forever and ever");
  always.on_text = [](std::string_view) {};
  auto bad = model()->complete(always);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("stream ended before message_stop"), std::string::npos) << bad.message();
}

TEST_F(AnthropicTest, OverloadedErrorEventMidStreamIsRetried) {
  Request req = ask("FIXTURE:overloadedx1 busy day");
  req.on_text = [](std::string_view) {};
  auto r = model()->complete(req);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->text, "echo: FIXTURE:overloadedx1 busy day");
  EXPECT_EQ(slept_.size(), 1u);
  Request always = ask("FIXTURE:overloaded");
  always.on_text = [](std::string_view) {};
  auto bad = model()->complete(always);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("error in stream: overloaded_error: Overloaded"), std::string::npos) << bad.message();
}

TEST_F(AnthropicTest, MalformedJsonAndMaxTokens) {
  auto bad = model()->complete(ask("FIXTURE:badjson"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("anthropic answered malformed JSON"), std::string::npos);
  auto cut = model()->complete(ask("FIXTURE:truncate-always"));
  ASSERT_TRUE(cut.ok());
  EXPECT_EQ(cut->finish_reason, "max_tokens");
  EXPECT_TRUE(cut->truncated());
}

TEST_F(AnthropicTest, WrongKeyIsOneErrorAndMissingKeyIsCaughtBeforeSending) {
  setenv("ANTHROPIC_API_KEY", "sk-ant-wrong-key-xyz", 1);
  auto r = model()->complete(ask("hi"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "anthropic answered HTTP 401: invalid x-api-key");
  unsetenv("ANTHROPIC_API_KEY");
  auto m = make_model("anthropic:claude-sonnet-4-5", test_options(&slept_));
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(
      m.message(),
      "missing API key: environment variable ANTHROPIC_API_KEY is not set (needed by anthropic:claude-sonnet-4-5)");
}

TEST_F(AnthropicTest, EmptyAnswerIsOneError) {
  auto r = model()->complete(ask("FIXTURE:empty"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "anthropic answered with no text (finish reason 'end_turn')");
}

}  // namespace cutegen
