// Drives the real cutegen binary: bad input must give one clear line and a non-zero exit.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "core/strings.h"
#include "sys/fs.h"
#include "sys/subprocess.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

ProcessResult cutegen(std::vector<std::string> args) {
  args.insert(args.begin(), std::getenv("CUTEGEN_BIN"));
  auto r = run_process({.argv = args, .timeout = std::chrono::seconds(300)});
  EXPECT_TRUE(r.ok()) << r.message();
  return *r;
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("cutegen-cli-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string file(const std::string& name, const std::string& text) {
    auto p = (dir_ / name).string();
    EXPECT_TRUE(write_file_atomic(p, text).ok());
    return p;
  }
  std::filesystem::path dir_;
};

void expect_one_line_error(const ProcessResult& r, const std::string& needle) {
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.signal, 0);
  EXPECT_EQ(split_lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

TEST_F(CliTest, BuildRejectsBadInput) {
  expect_one_line_error(cutegen({"build", (dir_ / "missing.cu").string()}), "no such file");
  expect_one_line_error(cutegen({"build", file("empty.cu", "  \n")}), "file is empty");
  expect_one_line_error(cutegen({"build", file("task.py", "import torch\nclass Model(nn.Module):\n  pass\n")}),
                        "looks like Python");
  expect_one_line_error(cutegen({"build", file("blob.cu", std::string("\x7f" "ELF\0\0", 6))}), "binary file");
  expect_one_line_error(cutegen({"build", file("plain.cu", "int main() { return 0; }\n")}), "no __global__");
}

TEST_F(CliTest, UnwritableCacheDirIsOneLine) {
  // A path below a regular file cannot be created, even by root.
  auto blocker = file("blocker", "x");
  auto src = std::string(CUTEGEN_SOURCE_DIR) + "/src/build/testdata/scale.cu";
  expect_one_line_error(cutegen({"--set", "build.cache_dir=" + blocker + "/cache", "build", src}),
                        "cannot create directory");
}

TEST_F(CliTest, BadConfigIsOneLine) {
  expect_one_line_error(cutegen({"--config", file("c.toml", "[build]\narhc = 'sm_90a'\n"), "config"}),
                        "unknown key 'build.arhc'");
  expect_one_line_error(cutegen({"--config", file("d.toml", "[build\n"), "config"}), "d.toml:");
  expect_one_line_error(cutegen({"--set", "eval.trials", "config"}), "key=value");
}

TEST_F(CliTest, DoctorReportsEachCheck) {
  auto r = cutegen({"doctor"});
  for (auto name : {"nvcc", "CUTLASS/CuTe", "host compiler", "GPU", "Nsight Compute", "Python + torch"})
    EXPECT_NE(r.out.find(name), std::string::npos) << name << "\n" << r.out;
  EXPECT_NE(r.out.find("CUTLASS 4.2.0"), std::string::npos) << r.out;
  if (r.out.find("no NVIDIA GPU") != std::string::npos) EXPECT_EQ(r.exit_code, 1) << "no GPU blocks the main job";
}

}  // namespace
}  // namespace cutegen
