// The policies around every call, end to end against the fixture server: continuation,
// context check, ledger, budgets, transcripts and replay, and keys kept out of every record.
#include "llm/client.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "llm/backends.h"
#include "llm/fixture_for_tests.h"
#include "core/strings.h"
#include "sys/fs.h"

namespace cutegen {
namespace {

constexpr const char* kKey = "sk-client-test-key-0003";

class ClientTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new FixtureServer({"--openai-key", kKey}); }
  static void TearDownTestSuite() { delete server_; }
  void SetUp() override {
    setenv("OPENAI_API_KEY", kKey, 1);
    server_->reset();
  }
  std::shared_ptr<Model> model() {
    auto m = make_model("openai@" + server_->base() + "/v1:qwen", test_options(&slept_));
    EXPECT_TRUE(m.ok()) << m.message();
    return std::shared_ptr<Model>(std::move(m).value());
  }
  Ledger ledger() {
    auto l = Ledger::open(dir_ / "run.db");
    EXPECT_TRUE(l.ok()) << l.message();
    return std::move(l).value();
  }

  static FixtureServer* server_;
  std::vector<double> slept_;
  TempDir dir_;
};

FixtureServer* ClientTest::server_ = nullptr;

}  // namespace

TEST_F(ClientTest, TruncatedAnswerIsContinuedOnce) {
  Client c(model(), {.run_id = "r"});
  auto r = c.complete(ask("FIXTURE:truncate tell me"));
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->text, "The answer begins and ends here.");
  EXPECT_EQ(r->finish_reason, "stop");
  EXPECT_EQ(r->continuations, 1);
  auto log = server_->log();
  ASSERT_EQ(log.size(), 2u);
  auto second = nlohmann::json::parse(std::string(log[1]["body"]));
  auto& msgs = second["messages"];
  ASSERT_EQ(msgs.size(), 3u);
  EXPECT_EQ(msgs[1]["role"], "assistant");
  EXPECT_EQ(msgs[1]["content"], "The answer begins");
  EXPECT_EQ(msgs[2]["content"], kContinuePrompt);
  EXPECT_EQ(r->usage.input, 3 + 3 + 3 + static_cast<long>(split(kContinuePrompt, ' ').size()));
}

TEST_F(ClientTest, OnlyOneContinuationThenTheTruncationIsReported) {
  Client c(model(), {});
  auto r = c.complete(ask("FIXTURE:truncate-always"));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->truncated());
  EXPECT_EQ(r->continuations, 1);
  EXPECT_EQ(server_->log().size(), 2u);
  Client off(model(), {.continue_truncated = false});
  server_->reset();
  EXPECT_TRUE(off.complete(ask("FIXTURE:truncate-always"))->truncated());
  EXPECT_EQ(server_->log().size(), 1u);
}

TEST_F(ClientTest, ReasoningThatAteEveryTokenIsReAskedWithMoreRoom) {
  Client c(model(), {});
  Request req = ask("FIXTURE:spent hard problem");
  req.max_output_tokens = 1500;
  auto r = c.complete(req);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->text, "echo: FIXTURE:spent hard problem");
  auto log = server_->log();
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(nlohmann::json::parse(std::string(log[1]["body"]))["max_tokens"], 3000);
}

TEST_F(ClientTest, ContextCheckRefusesBeforeSending) {
  Ledger l = ledger();
  Client c(model(), {.run_id = "r", .context_tokens = 200}, &l);
  auto r = c.complete(ask(std::string(400, 'x')));  // ~100 prompt tokens + 256 output > 200
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("prompt too large for openai@"), std::string::npos) << r.message();
  EXPECT_NE(r.message().find("exceed its context of 200"), std::string::npos);
  EXPECT_TRUE(server_->log().empty());
  EXPECT_EQ((*l.calls("r"))[0].outcome, "rejected");
  Client roomy(model(), {.context_tokens = 100000});
  EXPECT_TRUE(roomy.complete(ask("small")).ok());
}

TEST_F(ClientTest, LedgerRecordsEveryCallWithCost) {
  Ledger l = ledger();
  Client c(model(),
           {.role = "repairer",
            .run_id = "run1",
            .task_id = "t1",
            .price = Price{.input_per_m = 1e6, .output_per_m = 2e6, .cached_per_m = 0}},
           &l);
  ASSERT_TRUE(c.complete(ask("alpha beta", "sys")).ok());
  ASSERT_FALSE(c.complete(ask("FIXTURE:500 broken")).ok());
  auto rows = l.calls("run1");
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 2u);
  auto& ok = (*rows)[0];
  EXPECT_EQ(ok.role, "repairer");
  EXPECT_EQ(ok.task_id, "t1");
  EXPECT_TRUE(ok.model.starts_with("openai@http://127.0.0.1:"));
  EXPECT_EQ(ok.outcome, "ok");
  EXPECT_EQ(ok.usage.input, 3);
  EXPECT_EQ(ok.usage.cached, 1);
  EXPECT_EQ(ok.usage.output, 3);
  EXPECT_DOUBLE_EQ(ok.cost_usd, 2 * 1.0 + 1 * 0.0 + 3 * 2.0);  // fresh input, cached, output
  EXPECT_TRUE(ok.request_id.starts_with("req_openai_"));
  EXPECT_GT(ok.latency_s, 0);
  EXPECT_EQ((*rows)[1].outcome, "error");
  EXPECT_NE((*rows)[1].error.find("HTTP 500"), std::string::npos);
}

TEST_F(ClientTest, BudgetsStopCleanlyPerRunAndPerTask) {
  Ledger l = ledger();
  Budget b({.calls = 3}, {.calls = 2});
  Client c(model(), {.run_id = "r", .task_id = "a"}, &l, &b);
  EXPECT_EQ(c.complete(ask("one"))->status, ResponseStatus::answer);
  EXPECT_EQ(c.complete(ask("two"))->status, ResponseStatus::answer);
  auto stopped = c.complete(ask("three"));
  ASSERT_TRUE(stopped.ok());
  EXPECT_EQ(stopped->status, ResponseStatus::budget_exhausted);
  EXPECT_EQ(stopped->detail, "task calls: 2 made of 2");
  EXPECT_STREQ(to_string(stopped->status), "budget exhausted");
  b.start_task();
  c.set_task("b");
  EXPECT_EQ(c.complete(ask("four"))->status, ResponseStatus::answer);
  EXPECT_EQ(c.complete(ask("five"))->detail, "run calls: 3 made of 3");
  EXPECT_EQ(server_->log().size(), 3u);
  EXPECT_EQ(l.spent("r")->calls, 3);
  EXPECT_EQ((*l.calls("r"))[2].outcome, "budget_exhausted");

  Budget tokens({.tokens = 5}, {});
  Client t(model(), {}, nullptr, &tokens);
  EXPECT_EQ(t.complete(ask("a b c"))->status, ResponseStatus::answer);  // 3 in + 5 out
  EXPECT_EQ(t.complete(ask("again"))->status, ResponseStatus::budget_exhausted);

  Budget dollars({.dollars = 0.001}, {});
  Client d(model(), {.price = Price{.input_per_m = 1000, .output_per_m = 1000}}, nullptr, &dollars);
  EXPECT_EQ(d.complete(ask("pricey"))->status, ResponseStatus::answer);
  EXPECT_EQ(d.complete(ask("again"))->status, ResponseStatus::budget_exhausted);
}

TEST_F(ClientTest, ReplayReproducesARecordedSessionByteForByte) {
  std::vector<Request> session = {ask("first question", "system words"), ask("FIXTURE:truncate long one"),
                                  ask("first question", "system words")};
  session[1].reasoning_effort = "medium";
  std::vector<Response> live;
  {
    TranscriptWriter rec(dir_ / "live.jsonl");
    Client c(model(), {}, nullptr, nullptr, &rec);
    for (auto& q : session)
      live.push_back(*c.complete(q));
  }
  auto replay = make_model("replay:" + (dir_ / "live.jsonl"), {});
  ASSERT_TRUE(replay.ok()) << replay.message();
  TranscriptWriter again(dir_ / "replayed.jsonl");
  Client c(std::shared_ptr<Model>(std::move(replay).value()), {}, nullptr, nullptr, &again);
  server_->reset();
  for (size_t i = 0; i < session.size(); ++i) {
    auto r = c.complete(session[i]);
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_EQ(response_to_json(*r), response_to_json(live[i])) << i;
  }
  EXPECT_TRUE(server_->log().empty());
  auto a = read_file(dir_ / "live.jsonl"), b = read_file(dir_ / "replayed.jsonl");
  EXPECT_EQ(split_lines(*a).size(), 4u);  // the truncated answer took two calls
  EXPECT_EQ(*a, *b);
  auto extra = c.complete(ask("never asked"));
  ASSERT_FALSE(extra.ok());
  EXPECT_NE(extra.message().find("replay: no recorded answer for prompt"), std::string::npos);
  auto more = c.complete(session[0]);  // asked twice live, a third time now
  ASSERT_FALSE(more.ok());
  EXPECT_NE(more.message().find("recorded 2 time(s)"), std::string::npos);
}

TEST_F(ClientTest, NoKeyReachesTheLedgerTranscriptErrorsOrQueue) {
  Ledger l = ledger();
  TranscriptWriter rec(dir_ / "t.jsonl");
  Client c(model(), {.run_id = "r"}, &l, nullptr, &rec);
  std::string leaky = std::string("my key is ") + kKey;
  ASSERT_TRUE(c.complete(ask(leaky)).ok());            // echoed back in the answer
  auto err = c.complete(ask("FIXTURE:500 " + leaky));  // in the prompt of a failed call
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.message().find(kKey), std::string::npos);
  auto q = make_model("file:" + (dir_ / "queue"), {});
  ASSERT_TRUE((*q)->complete(ask(leaky))->status == ResponseStatus::waiting);
  for (auto& entry : std::filesystem::recursive_directory_iterator(dir_.path)) {
    if (!entry.is_regular_file()) continue;
    auto bytes = read_file(entry.path().string());
    ASSERT_TRUE(bytes.ok());
    EXPECT_EQ(bytes->find(kKey), std::string::npos) << entry.path();
  }
  EXPECT_NE(read_file(dir_ / "t.jsonl")->find("[REDACTED]"), std::string::npos);
}

}  // namespace cutegen
