// The command backend with real processes.
#include <gtest/gtest.h>

#include "llm/backends.h"
#include "llm/fixture_for_tests.h"
#include "llm/redact.h"
#include "sys/fs.h"

namespace cutegen {
namespace {

Result<Response> run(const std::string& cmd, const Request& req,
                     std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  BackendOptions opt;
  opt.command_timeout = timeout;
  auto m = make_model("command:" + cmd, opt);
  if (!m) return error(m.message());
  return (*m)->complete(req);
}

}  // namespace

TEST(CommandBackend, PromptOnStdinAnswerOnStdout) {
  TempDir dir;
  std::string script = dir / "cli.sh";
  ASSERT_TRUE(write_file_atomic(script, "#!/bin/sh\necho \"flag=$1\"\ntr a-z A-Z\n").ok());
  ASSERT_EQ(chmod(script.c_str(), 0755), 0);
  std::string streamed;
  Request req = ask("write a kernel");
  req.on_text = [&](std::string_view t) { streamed += t; };
  auto r = run(script + " --fast", req);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->text, "flag=--fast\nWRITE A KERNEL");
  EXPECT_EQ(streamed, r->text);
  EXPECT_EQ(r->finish_reason, "stop");
}

TEST(CommandBackend, ConversationIsRenderedAsSections) {
  Request req = ask("second question", "you are terse");
  req.messages.insert(req.messages.begin(), {{"user", "first"}, {"assistant", "reply"}});
  auto r = run("cat", req);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->text,
            "=== system ===\nyou are terse\n\n=== user ===\nfirst\n\n=== assistant ===\nreply\n\n=== user ===\nsecond "
            "question\n\n");
}

TEST(CommandBackend, FailureCarriesExitAndStderrTail) {
  auto r = run("sh -c 'echo broken pipe dream >&2; exit 4'", ask("x"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("failed (exit 4): broken pipe dream"), std::string::npos) << r.message();
}

TEST(CommandBackend, TimeoutIsOneError) {
  auto r = run("sleep 20", ask("x"), std::chrono::milliseconds(300));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("timed out"), std::string::npos) << r.message();
}

TEST(CommandBackend, EmptyAnswerAndMissingCommandAreErrors) {
  auto empty = run("true", ask("x"));
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.message(), "command 'true' answered with no text");
  auto missing = run("/no/such/llm-cli --x", ask("x"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.message(), "command '/no/such/llm-cli' not found (spec 'command:/no/such/llm-cli --x')");
}

TEST(CommandBackend, KeysInStderrAreRedacted) {
  register_secret("sk-command-secret-77");
  auto r = run("sh -c 'echo auth failed for sk-command-secret-77 >&2; exit 1'", ask("x"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message().find("sk-command-secret-77"), std::string::npos);
  EXPECT_NE(r.message().find("[REDACTED]"), std::string::npos);
}

}  // namespace cutegen
