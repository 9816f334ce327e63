// Installs the build into a temporary prefix and runs the installed binary from a folder outside
// the checkout: every project file it locates (prompts, bridge, CUTLASS, runner) lies under the
// prefix, and a prompt renders from the installed template (a line added to the installed copy
// shows up), so the installed tool would work with the checkout gone.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <map>

#include "core/strings.h"
#include "sys/fs.h"
#include "sys/subprocess.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

namespace fs = std::filesystem;

class InstallTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/cutegen-install-XXXXXX";
    root_ = mkdtemp(tmpl);
    prefix_ = root_ + "/prefix";
    elsewhere_ = root_ + "/elsewhere";
    fs::create_directories(elsewhere_);
  }
  void TearDown() override { fs::remove_all(root_); }

  // The installed binary, run from `elsewhere_` with no CUTLASS named in the environment.
  ProcessResult installed(std::vector<std::string> args) {
    auto env = allowlisted_environment({"PATH", "HOME", "CUDA_HOME", "CUDACXX"});
    args.insert(args.begin(), {prefix_ + "/bin/cutegen", "--set", "build.cache_dir=" + root_ + "/cache"});
    auto r = run_process({.argv = args, .cwd = elsewhere_, .env = env, .timeout = std::chrono::seconds(300)});
    EXPECT_TRUE(r.ok()) << r.message();
    return *r;
  }
  std::string root_, prefix_, elsewhere_;
};

TEST_F(InstallTest, InstalledToolFindsEverythingUnderItsPrefix) {
  std::string build_dir = fs::path(std::getenv("CUTEGEN_BIN")).parent_path().parent_path().string();
  auto inst = run_process(
      {.argv = {"cmake", "--install", build_dir, "--prefix", prefix_}, .timeout = std::chrono::seconds(300)});
  ASSERT_TRUE(inst.ok() && inst->success()) << (inst.ok() ? inst->out + inst->err : inst.message());
  ASSERT_TRUE(file_exists(prefix_ + "/share/cutegen/prompts/generate.md"));
  ASSERT_TRUE(file_exists(prefix_ + "/share/cutegen/bridge/cutegen_bridge/__main__.py"));
  ASSERT_TRUE(file_exists(prefix_ + "/share/cutegen/cutlass/include/cute/tensor.hpp"));

  auto doctor = installed({"--json", "doctor"});  // exit 5 without a GPU; the report is what matters
  auto checks = nlohmann::json::parse(doctor.out, nullptr, false);
  ASSERT_TRUE(checks.is_array()) << doctor.out << doctor.err;
  std::map<std::string, std::string> found;
  for (auto& c : checks)
    found[c.value("check", "")] = c.value("found", "");
  std::vector<std::string> located = {"prompts", "bridge", "CUTLASS/CuTe"};
  if (file_exists(build_dir + "/src/cutegen-runner")) located.push_back("runner");  // built where CUDA is
  for (auto& name : located) {
    EXPECT_TRUE(found[name].starts_with(prefix_ + "/")) << name << ": " << found[name];
    EXPECT_TRUE(contains(found[name], "install)")) << name << ": " << found[name];
    EXPECT_FALSE(contains(found[name], CUTEGEN_SOURCE_DIR)) << name << ": " << found[name];
  }

  std::string marker = "(rendered from the installed template)";
  std::string tmpl = prefix_ + "/share/cutegen/prompts/generate.md";
  ASSERT_TRUE(write_file_atomic(tmpl, *read_file(tmpl) + "\n" + marker + "\n").ok());
  fs::copy_file(std::string(CUTEGEN_SOURCE_DIR) + "/tasks/relu.py", elsewhere_ + "/relu.py");
  auto prompt = installed({"prompt", "relu.py", "--stage", "generate"});
  ASSERT_EQ(prompt.exit_code, 0) << prompt.err;
  EXPECT_TRUE(contains(prompt.out, marker)) << prompt.out.substr(0, 2000);
  EXPECT_TRUE(contains(prompt.out, "cutegen_forward")) << prompt.out.substr(0, 2000);
}

}  // namespace
}  // namespace cutegen
