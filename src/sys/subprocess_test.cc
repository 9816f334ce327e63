#include "sys/subprocess.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <thread>

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

TEST(Subprocess, NiceLowersTheChildsPriorityOnly) {
  errno = 0;
  int own = getpriority(PRIO_PROCESS, 0);
  auto r = run_process({.argv = {"nice"}, .nice = 7});  // `nice` alone prints its niceness
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(std::stoi(r->out), std::min(own + 7, 19));
  EXPECT_EQ(getpriority(PRIO_PROCESS, 0), own);
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

// Gone, or a zombie nobody has reaped yet.
bool process_gone(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string pid_field, name, state;
  return !(stat >> pid_field >> name >> state) || state == "Z";
}

TEST(Subprocess, AChildThatDiesWithItsParentGoesWhenTheParentIsKilled) {
  std::string pidfile = "/tmp/cutegen-pdeath-" + std::to_string(getpid());
  unlink(pidfile.c_str());
  pid_t parent = fork();
  ASSERT_GE(parent, 0);
  if (parent == 0) {  // a parent that starts its worker and is then killed outright
    (void)run_process(
        {.argv = {"sh", "-c",
                  "echo $$ > " + pidfile + ".tmp && mv " + pidfile + ".tmp " + pidfile + " && exec sleep 30"},
         .die_with_parent = true});
    _exit(0);
  }
  pid_t child = 0;
  for (int i = 0; i < 100 && child == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::ifstream(pidfile) >> child;
  }
  ASSERT_GT(child, 0) << "the worker never started";
  EXPECT_FALSE(process_gone(child));
  kill(parent, SIGKILL);
  waitpid(parent, nullptr, 0);
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {
    gone = process_gone(child);
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(gone) << "the worker outlived its parent";
  if (!gone) kill(child, SIGKILL);
  unlink(pidfile.c_str());
}

}  // namespace cutegen
