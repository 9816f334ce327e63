// Drives `cutegen llm` as a real process against the fixture server, real files and commands.
#include <gtest/gtest.h>

#include <cstdlib>

#include "core/strings.h"
#include "llm/file_queue.h"
#include "llm/fixture_for_tests.h"
#include "llm/transcript.h"
#include "sys/fs.h"
#include "sys/subprocess.h"

namespace cutegen {
namespace {

constexpr const char* kKey = "sk-cli-fixture-key-0004";

ProcessResult cutegen_llm(std::vector<std::string> args, const std::string& stdin_data = "") {
  args.insert(args.begin(), std::getenv("CUTEGEN_BIN"));
  auto r = run_process({.argv = args, .stdin_data = stdin_data, .timeout = std::chrono::seconds(60)});
  EXPECT_TRUE(r.ok()) << r.message();
  return *r;
}

void expect_one_line_error(const ProcessResult& r, const std::string& needle) {
  EXPECT_EQ(r.exit_code, 2) << r.err;  // input error (exit_codes.h)
  EXPECT_EQ(split_lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(kKey), std::string::npos);
}

class LlmCommandTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new FixtureServer({"--openai-key", kKey, "--anthropic-key", kKey}); }
  static void TearDownTestSuite() { delete server_; }
  void SetUp() override {
    setenv("OPENAI_API_KEY", kKey, 1);
    setenv("ANTHROPIC_API_KEY", kKey, 1);
    unsetenv("OPENAI_BASE_URL");
  }
  std::string openai() const { return "openai@" + server_->base() + "/v1:qwen"; }

  static FixtureServer* server_;
  TempDir dir_;
};

FixtureServer* LlmCommandTest::server_ = nullptr;

}  // namespace

TEST_F(LlmCommandTest, AnswerOnStdoutUsageOnStderr) {
  auto r = cutegen_llm({"llm", openai()}, "hello from stdin");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "echo: hello from stdin\n");
  EXPECT_NE(r.err.find("finish=stop input=3 cached=0 output=4"), std::string::npos) << r.err;
}

TEST_F(LlmCommandTest, StreamsBothProtocolsFromAPromptFile) {
  std::string prompt = dir_ / "p.md";
  ASSERT_TRUE(write_file_atomic(prompt, "stream it").ok());
  for (auto spec : {openai(), "anthropic@" + server_->base() + ":claude-x"}) {
    auto r = cutegen_llm({"llm", spec, "--stream", "--prompt", prompt});
    EXPECT_EQ(r.exit_code, 0) << spec << r.err;
    EXPECT_EQ(r.out, "echo: stream it\n") << spec;
  }
}

TEST_F(LlmCommandTest, JsonOutputAndLedgerAndTranscript) {
  std::string db = dir_ / "l.db", tr = dir_ / "t.jsonl";
  auto r =
      cutegen_llm({"--json", "--set", "llm.prices=qwen=1000/2000", "llm", openai(), "--ledger", db, "--transcript", tr},
                  "price me");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["text"], "echo: price me");
  EXPECT_DOUBLE_EQ(j["cost_usd"].get<double>(), (2 * 1000 + 3 * 2000) / 1e6);
  EXPECT_TRUE(file_exists(db));
  auto lines = read_transcript(tr);
  ASSERT_TRUE(lines.ok());
  ASSERT_EQ(lines->size(), 1u);
  auto replayed = cutegen_llm({"llm", "replay:" + tr}, "price me");
  EXPECT_EQ(replayed.exit_code, 0) << replayed.err;
  EXPECT_EQ(replayed.out, "echo: price me\n");
}

TEST_F(LlmCommandTest, FileBackendWaitsWithExitCode6ThenAnswers) {
  std::string queue = dir_ / "queue";
  auto waiting = cutegen_llm({"llm", "file:" + queue}, "answer me later");
  EXPECT_EQ(waiting.exit_code, 6);
  EXPECT_EQ(split_lines(waiting.err).size(), 1u) << waiting.err;
  Request req;
  req.messages = {{"user", "answer me later"}};
  req.max_output_tokens = 16384;
  auto files = queue_files(queue, prompt_key(req));
  EXPECT_NE(waiting.err.find(files.answer), std::string::npos) << waiting.err;
  EXPECT_EQ(*read_file(files.prompt), "answer me later");
  ASSERT_TRUE(write_file_atomic(files.answer, "answered by hand\n").ok());
  auto done = cutegen_llm({"llm", "file:" + queue}, "answer me later");
  EXPECT_EQ(done.exit_code, 0) << done.err;
  EXPECT_EQ(done.out, "answered by hand\n");
}

TEST_F(LlmCommandTest, CommandBackendRunsARealProcess) {
  auto r = cutegen_llm({"llm", "command:tr a-z A-Z"}, "shout");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "SHOUT\n");
}

TEST_F(LlmCommandTest, BadInputIsOneLineEach) {
  expect_one_line_error(cutegen_llm({"llm", "bogus:x"}, "hi"), "unknown model backend 'bogus'");
  expect_one_line_error(cutegen_llm({"llm"}, "hi"), "no model given");
  unsetenv("ANTHROPIC_API_KEY");
  expect_one_line_error(cutegen_llm({"llm", "anthropic:claude-sonnet-4-5"}, "hi"),
                        "environment variable ANTHROPIC_API_KEY is not set");
  expect_one_line_error(cutegen_llm({"--set", "llm.max_attempts=1", "llm", "openai@http://127.0.0.1:1/v1:x"}, "hi"),
                        "cannot reach http://127.0.0.1:1/v1/chat/completions");
  expect_one_line_error(cutegen_llm({"llm", openai()}, "FIXTURE:empty"), "openai answered with no text");
  expect_one_line_error(cutegen_llm({"llm", openai()}, "  \n"), "empty prompt");
  setenv("OPENAI_API_KEY", "sk-not-the-right-one", 1);
  expect_one_line_error(cutegen_llm({"llm", openai()}, "hi"), "HTTP 401");
}

}  // namespace cutegen
