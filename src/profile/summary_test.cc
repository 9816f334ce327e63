// The Profiler end to end with a fake ncu: the summary the optimizer reads, the JSON, and the
// counters-denied fallback said once.
#include "profile/summary.h"

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

class ProfilerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("cutegen-profiler-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
    opt_.ncu = testdata("fake_ncu.sh");
    opt_.cache_dir = (dir_ / "cache").string();
    req_.build.library_path = (dir_ / "kernel.so").string();
    req_.build.kernels = {
        {.name = "void at::vectorized_elementwise_kernel<4>(int)", .mangled = "_Zk", .registers = 28}};
    ASSERT_TRUE(write_file_atomic(req_.build.library_path, "machine code").ok());
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  WorkerCommand worker(const std::string& mode, const std::string& capture) {
    return {
        {"python3", "worker"},
        {{"FAKE_NCU_MODE", mode}, {"FAKE_NCU_CAPTURE", testdata(capture)}, {"FAKE_NCU_LOG", (dir_ / "log").string()}}};
  }
  std::filesystem::path dir_;
  NcuOptions opt_;
  ProfileRequest req_;
};

TEST_F(ProfilerTest, SummaryOfAForwardWithThreeKernels) {
  Profiler p(opt_, *load_ceilings(testdata("h200_ceilings.json")), "");
  req_.worker = worker("ok", "ncu_linear_relu.csv");
  auto r = p.profile(req_);
  ASSERT_TRUE(r.runtime) << r.runtime_missing;
  std::string text = render_summary(r);
  EXPECT_NE(text.find("forward: 3 kernels"), std::string::npos) << text;
  EXPECT_NE(text.find("kernel 3/3"), std::string::npos);
  EXPECT_NE(text.find("compute-bound"), std::string::npos);
  EXPECT_NE(text.find("limiter: registers"), std::string::npos);  // the GEMM at 255 regs/thread
  EXPECT_NE(text.find("raw table: "), std::string::npos);
  EXPECT_LE(split_lines(text).size(), 3u * 25 + 8) << text;
  auto j = report_json(r);
  ASSERT_EQ(j["runtime"]["kernels"].size(), 3u);
  EXPECT_EQ(j["runtime"]["kernels"][0]["verdict"]["bound"], "compute-bound");
  EXPECT_DOUBLE_EQ(j["runtime"]["kernels"][1]["metrics"]["gpu__time_duration.sum"].get<double>(), 16352);
  EXPECT_TRUE(j["runtime"]["kernels"][0]["metrics"]["dram__bytes_read.sum"].is_null());
}

TEST_F(ProfilerTest, ReluSummaryNamesTheBoundAndTheLever) {
  Profiler p(opt_, *load_ceilings(testdata("h200_ceilings.json")), "");
  req_.worker = worker("ok", "ncu_relu.csv");
  req_.cost = {.min_bytes = 2.0 * 4096 * 65536 * 4, .flops = 0, .dtype = "fp32"};
  auto summary = profile_summary(p.profile(req_));
  const std::string& text = summary.text;
  // The verdict the text states, as numbers.
  ASSERT_TRUE(summary.verdict);
  EXPECT_EQ(summary.verdict->bound, Bound::kMemory);
  char stated[64];
  std::snprintf(stated, sizeof stated, "verdict        memory-bound: memory at %.1f%% of peak",
                summary.verdict->percent_of_peak);
  EXPECT_NE(text.find(stated), std::string::npos) << stated << "\n" << text;
  EXPECT_GT(summary.verdict->percent_of_peak, 60);
  EXPECT_NE(text.find("memory-bound"), std::string::npos) << text;
  EXPECT_NE(text.find("excess-traffic ratio 0.99"), std::string::npos) << text;
  EXPECT_NE(text.find("of the achievable ceiling"), std::string::npos) << text;
  EXPECT_NE(text.find("cut DRAM bytes"), std::string::npos) << text;
  EXPECT_NE(text.find("ptxas          28 regs"), std::string::npos) << text;  // matched to the ptxas kernel
}

TEST_F(ProfilerTest, CountersDeniedFallsBackSaysSoOnceAndStopsAsking) {
  Profiler p(opt_, RooflineCeilings{}, "");
  req_.worker = worker("denied", "ncu_relu.csv");
  req_.timing_ms = 0.512;
  auto first = p.profile(req_);
  EXPECT_FALSE(first.runtime);
  EXPECT_EQ(profile_summary(first).verdict, std::nullopt);  // no counters, no verdict
  EXPECT_TRUE(first.first_notice);
  std::string text = render_summary(first);
  EXPECT_NE(text.find("ERR_NVGPUCTRPERM"), std::string::npos) << text;
  EXPECT_NE(text.find("timing plus the static profile"), std::string::npos);
  EXPECT_NE(text.find("0.5120 ms"), std::string::npos);
  EXPECT_NE(text.find("28 regs"), std::string::npos);
  auto second = p.profile(req_);
  EXPECT_FALSE(second.first_notice);
  EXPECT_EQ(render_summary(second).find("ERR_NVGPUCTRPERM"), std::string::npos);
  EXPECT_EQ(split_lines(*read_file((dir_ / "log").string())).size(), 1u);  // ncu ran once
}

TEST_F(ProfilerTest, NoWorkerSaysWhy) {
  Profiler p(opt_, RooflineCeilings{}, "");
  req_.no_runtime_reason = "no NVIDIA GPU on this machine";
  auto r = p.profile(req_);
  EXPECT_NE(render_summary(r).find("no NVIDIA GPU on this machine"), std::string::npos);
  EXPECT_TRUE(report_json(r)["runtime"].is_null());
}

TEST(Levers, TablesCoverEveryVerdictAndStall) {
  for (auto b : {Bound::kMemory, Bound::kCompute, Bound::kLatency})
    EXPECT_FALSE(lever_for(b).empty());
  for (auto& s : stall_reasons())
    EXPECT_FALSE(lever_for_stall(s).empty()) << s;
  EXPECT_EQ(kernel_base_name("void at::native::vectorized_elementwise_kernel<4, F>(int, F)"),
            "vectorized_elementwise_kernel");
  EXPECT_EQ(kernel_base_name("nvjet_sm90_tst_256x128"), "nvjet_sm90_tst_256x128");
}

}  // namespace
}  // namespace cutegen
