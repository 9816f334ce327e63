// The header is a contract the compiler enforces: force-included by the real Builder (nvcc, no
// GPU needed), a matching definition builds and a wrong signature is a compile error.
#include <gtest/gtest.h>

#include <filesystem>

#include "build/builder.h"
#include "sys/fs.h"
#include "task/abi.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

class AbiCompileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto tc = discover_toolchain("");
    ASSERT_TRUE(tc.ok()) << tc.message();
    cache_ = std::filesystem::temp_directory_path() / ("cutegen-abi-test-" + std::to_string(getpid()));
    builder_.emplace(*tc, BuilderOptions{.cache_dir = cache_.string()});
    header_ = header_for("linear_bias_relu.json");
  }
  static std::string header_for(const std::string& fixture) {
    auto spec = parse_task_spec(*read_file(std::string(CUTEGEN_SOURCE_DIR) + "/src/task/testdata/" + fixture));
    EXPECT_TRUE(spec.ok()) << spec.message();
    return spec.ok() ? abi_header(*spec) : "";
  }
  void TearDown() override { std::filesystem::remove_all(cache_); }
  // A candidate from src/task/testdata/abi/.
  BuildResult build(const std::string& file) {
    auto source = read_file(std::string(CUTEGEN_SOURCE_DIR) + "/src/task/testdata/abi/" + file);
    EXPECT_TRUE(source.ok()) << source.message();
    BuildRequest req{.source = source.ok() ? *source : "",
                     .display_name = "candidate.cu",
                     .target = Target{9, 0, true},
                     .force_include = header_};
    auto r = builder_->build(req);
    EXPECT_TRUE(r.ok()) << r.message();
    return r.ok() ? *r : BuildResult{};
  }
  std::filesystem::path cache_;
  std::optional<Builder> builder_;
  std::string header_;
};

TEST_F(AbiCompileTest, MatchingDefinitionBuilds) {
  auto r = build("matching.cu");
  EXPECT_TRUE(r.ok()) << r.message << "\n" << render_diagnostics(r.diagnostics, "candidate.cu");
}

TEST_F(AbiCompileTest, WrongSignatureIsACompileErrorNamingTheFunction) {
  auto r = build("wrong_signature.cu");
  EXPECT_EQ(r.outcome, BuildOutcome::kCompileError);
  std::string report = r.message + "\n" + render_diagnostics(r.diagnostics, "candidate.cu");
  EXPECT_NE(report.find("cutegen_forward"), std::string::npos) << report;
}

TEST_F(AbiCompileTest, ModelNumbersAreUsableConstants) {
  for (auto [fixture, source] : {std::pair{"linear_multiply_leaky.json", "uses_constants.cu"},
                                 std::pair{"odd_names.json", "odd_constants.cu"}}) {
    header_ = header_for(fixture);
    auto r = build(source);
    EXPECT_TRUE(r.ok()) << fixture << ": " << r.message << "\n" << render_diagnostics(r.diagnostics, "candidate.cu");
  }
}

}  // namespace
}  // namespace cutegen
