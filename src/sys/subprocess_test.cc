#include "sys/subprocess.h"

#include <gtest/gtest.h>

namespace cutegen {

TEST(Subprocess, CapturesOutputAndExitCode) {
  auto r = run_process({.argv = {"sh", "-c", "echo out; echo err >&2; exit 3"}});
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->out, "out\n");
  EXPECT_EQ(r->err, "err\n");
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_FALSE(r->success());
  EXPECT_EQ(r->describe(), "exit 3");
}

TEST(Subprocess, FeedsStdin) {
  std::string big(200000, 'x');
  auto r = run_process({.argv = {"wc", "-c"}, .stdin_data = big});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(std::stoul(r->out), big.size());
}

TEST(Subprocess, TimeoutKillsTheWholeGroup) {
  // The grandchild holds stdout open; only a group kill lets the call return promptly.
  auto r = run_process({.argv = {"sh", "-c", "sleep 30 & sleep 30"}, .timeout = std::chrono::milliseconds(300)});
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->timed_out);
  EXPECT_LT(r->wall_seconds, 5.0);
}

TEST(Subprocess, MissingExecutableIsAnError) {
  auto r = run_process({.argv = {"/nonexistent/tool"}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("cannot run"), std::string::npos);
}

TEST(Subprocess, EnvironmentIsReplacedWhenGiven) {
  setenv("CUTEGEN_SECRET_TEST", "hunter2", 1);
  auto env = allowlisted_environment({"PATH"}, {{"ONLY", "1"}});
  auto r = run_process({.argv = {"sh", "-c", "echo ${CUTEGEN_SECRET_TEST:-none} $ONLY"}, .env = env});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->out, "none 1\n");
}

TEST(Subprocess, SignalIsReported) {
  auto r = run_process({.argv = {"sh", "-c", "kill -SEGV $$"}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->signal, 11);
}

}  // namespace cutegen
