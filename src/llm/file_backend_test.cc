// The file backend with real files: waiting, answering, polling, giving up.
#include <gtest/gtest.h>

#include "llm/backends.h"
#include "llm/file_queue.h"
#include "llm/fixture_for_tests.h"
#include "llm/transcript.h"
#include "sys/fs.h"

namespace cutegen {

TEST(FileBackend, WritesThePromptAndReportsWaitingUntilTheAnswerExists) {
  TempDir dir;
  auto m = make_model("file:" + dir.path + "/queue", BackendOptions{});
  ASSERT_TRUE(m.ok()) << m.message();
  Request req = ask("please write a GEMM");
  auto files = queue_files(dir.path + "/queue", prompt_key(req));
  auto first = (*m)->complete(req);
  ASSERT_TRUE(first.ok()) << first.message();
  EXPECT_EQ(first->status, ResponseStatus::waiting);
  EXPECT_EQ(first->waiting_on, files.answer);
  EXPECT_EQ(*read_file(files.prompt), "please write a GEMM");
  EXPECT_TRUE(files.answer.ends_with(".answer.md"));
  EXPECT_TRUE(files.prompt.ends_with(".prompt.md"));

  auto again = (*m)->complete(req);  // still nothing: still waiting, prompt untouched
  EXPECT_EQ(again->status, ResponseStatus::waiting);

  ASSERT_TRUE(write_file_atomic(files.answer, "   \n").ok());  // blank: not an answer yet
  EXPECT_EQ((*m)->complete(req)->status, ResponseStatus::waiting);

  ASSERT_TRUE(write_file_atomic(files.answer, "here is your GEMM\n").ok());
  auto done = (*m)->complete(req);
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(done->status, ResponseStatus::answer);
  EXPECT_EQ(done->text, "here is your GEMM\n");
}

TEST(FileBackend, WaitPollsUntilTheAnswerArrives) {
  TempDir dir;
  Request req = ask("poll me");
  auto files = queue_files(dir.path, prompt_key(req));
  BackendOptions opt;
  opt.wait = true;
  opt.poll_interval_s = 30;
  int polls = 0;
  opt.sleep = [&](double s) {  // the "answerer" writes during the second poll
    EXPECT_EQ(s, 30);
    if (++polls == 2) (void)write_file_atomic(files.answer, "answered");
  };
  auto m = make_model("file:" + dir.path, opt);
  auto r = (*m)->complete(req);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->status, ResponseStatus::answer);
  EXPECT_EQ(r->text, "answered");
  EXPECT_EQ(polls, 2);
}

TEST(FileBackend, ErrorFileBecomesTheError) {
  TempDir dir;
  Request req = ask("impossible");
  auto files = queue_files(dir.path, prompt_key(req));
  ASSERT_TRUE(write_file_atomic(files.error, "declined: too hard\n").ok());
  auto r = (*make_model("file:" + dir.path, {}))->complete(req);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "file queue: " + files.error + ": declined: too hard");
}

TEST(FileBackend, UnwritableQueueIsOneError) {
  TempDir dir;
  ASSERT_TRUE(write_file_atomic(dir / "blocker", "x").ok());
  auto m = make_model("file:" + (dir / "blocker") + "/q", {});
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.message().find("cannot create directory"), std::string::npos) << m.message();
}

}  // namespace cutegen
