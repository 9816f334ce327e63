// The runner against a fake ncu (testdata/fake_ncu.sh): parsing, each failure with its message,
// the timeout, the per-GPU lock and the cache by binary hash. No GPU needed.
#include "profile/ncu_runner.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <gtest/gtest.h>

#include "core/strings.h"
#include "sys/fs.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

std::string testdata(const std::string& name) {
  return std::string(CUTEGEN_SOURCE_DIR) + "/src/profile/testdata/" + name;
}

class NcuRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("cutegen-ncu-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
    opt_.ncu = testdata("fake_ncu.sh");
    opt_.cache_dir = (dir_ / "cache").string();
    opt_.timeout = std::chrono::seconds(20);
    binary_ = (dir_ / "kernel.so").string();
    ASSERT_TRUE(write_file_atomic(binary_, "pretend machine code").ok());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  WorkerCommand worker(const std::string& mode, const std::string& capture = "ncu_linear_relu.csv") {
    return {{"python3", "-m", "cutegen_bridge", "eval", "--mode", "profile"},
            {{"FAKE_NCU_MODE", mode}, {"FAKE_NCU_CAPTURE", testdata(capture)}, {"FAKE_NCU_LOG", log()}}};
  }
  std::string log() const { return (dir_ / "calls.log").string(); }
  size_t calls() const {
    auto t = read_file(log());
    return t ? split_lines(*t).size() : 0;
  }
  std::filesystem::path dir_;
  NcuOptions opt_;
  std::string binary_;
};

TEST_F(NcuRunnerTest, CommandWrapsTheWorker) {
  NcuOptions o;
  o.kernel_filter = "relu";
  auto argv = ncu_argv("/x/ncu", o, {{"python3", "w.py"}, {}});
  std::string cmd = join(argv, " ");
  EXPECT_EQ(argv.front(), "/x/ncu");
  EXPECT_NE(cmd.find("--csv --page raw"), std::string::npos);
  EXPECT_NE(cmd.find("--nvtx --nvtx-include cutegen_profile/"), std::string::npos);
  EXPECT_NE(cmd.find("--clock-control none"), std::string::npos);
  EXPECT_NE(cmd.find("--kernel-name regex:relu"), std::string::npos);
  EXPECT_NE(cmd.find("--metrics " + curated_metric_list(true) + " "), std::string::npos);
  EXPECT_NE(cmd.find("--target-processes all python3 w.py"), std::string::npos);
  EXPECT_EQ(cmd.find("--launch-count"), std::string::npos);
}

TEST_F(NcuRunnerTest, ParsesEveryKernelOfTheForwardAndKeepsTheRawTable) {
  auto r = run_ncu(opt_, worker("ok"), binary_, "task-a");
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_EQ(r->outcome, NcuOutcome::kProfiled) << r->message;
  EXPECT_EQ(r->kernels.size(), 3u);
  EXPECT_TRUE(file_exists(r->raw_path));
  EXPECT_FALSE(r->cache_hit);
}

TEST_F(NcuRunnerTest, CachedByBinaryHash) {
  ASSERT_TRUE(run_ncu(opt_, worker("ok"), binary_, "task-a")->ok());
  auto again = run_ncu(opt_, worker("ok"), binary_, "task-a");
  ASSERT_TRUE(again->ok());
  EXPECT_TRUE(again->cache_hit);
  EXPECT_EQ(again->kernels.size(), 3u);
  EXPECT_EQ(calls(), 1u);
  ASSERT_TRUE(write_file_atomic(binary_, "different machine code").ok());
  EXPECT_FALSE(run_ncu(opt_, worker("ok"), binary_, "task-a")->cache_hit);
  EXPECT_FALSE(run_ncu(opt_, worker("ok"), binary_, "task-b")->cache_hit);  // another task
  EXPECT_EQ(calls(), 3u);
}

TEST_F(NcuRunnerTest, CountersDeniedIsPermanentAndSaysWhatToDo) {
  auto r = run_ncu(opt_, worker("denied"), binary_, "");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->outcome, NcuOutcome::kCountersDenied);
  EXPECT_TRUE(is_permanent(r->outcome));
  EXPECT_NE(r->message.find("ERR_NVGPUCTRPERM"), std::string::npos);
  EXPECT_NE(r->message.find("NVreg_RestrictProfilingToAdminUsers"), std::string::npos);
  // A failure is not cached: the next call runs ncu again.
  run_ncu(opt_, worker("denied"), binary_, "").value();
  EXPECT_EQ(calls(), 2u);
}

TEST_F(NcuRunnerTest, NoNcu) {
  opt_.ncu = "/nonexistent/ncu";
  auto r = run_ncu(opt_, worker("ok"), binary_, "");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->outcome, NcuOutcome::kNoNcu);
  EXPECT_NE(r->message.find("profile.ncu"), std::string::npos);
}

TEST_F(NcuRunnerTest, CrashingTarget) {
  auto r = run_ncu(opt_, worker("crash"), binary_, "");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->outcome, NcuOutcome::kTargetFailed);
  EXPECT_NE(r->message.find("error code (11)"), std::string::npos) << r->message;
  EXPECT_FALSE(is_permanent(r->outcome));
  EXPECT_TRUE(file_exists(r->raw_path));  // the failed output is kept for inspection
}

TEST_F(NcuRunnerTest, FilterMatchingNothing) {
  opt_.kernel_filter = "no_such_kernel";
  auto r = run_ncu(opt_, worker("nokernels"), binary_, "");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->outcome, NcuOutcome::kNoKernels);
  EXPECT_NE(r->message.find("no_such_kernel"), std::string::npos) << r->message;
}

TEST_F(NcuRunnerTest, TimeoutKillsTheRun) {
  opt_.timeout = std::chrono::seconds(1);
  auto start = std::chrono::steady_clock::now();
  auto r = run_ncu(opt_, worker("sleep"), binary_, "");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->outcome, NcuOutcome::kTimeout);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_NE(r->message.find("profile.timeout_s"), std::string::npos);
}

TEST_F(NcuRunnerTest, OneRunAtATimePerGpu) {
  ASSERT_TRUE(make_dirs(opt_.cache_dir).ok());
  int fd = open((opt_.cache_dir + "/ncu-gpu0.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(flock(fd, LOCK_EX), 0);  // another profiler holds GPU 0
  opt_.timeout = std::chrono::seconds(1);
  auto r = run_ncu(opt_, worker("ok"), binary_, "");
  EXPECT_EQ(r->outcome, NcuOutcome::kTimeout);
  EXPECT_EQ(calls(), 0u);
  opt_.gpu = 1;  // another GPU is free
  EXPECT_TRUE(run_ncu(opt_, worker("ok"), binary_, "")->ok());
  close(fd);
}

}  // namespace
}  // namespace cutegen
