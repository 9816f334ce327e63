// Real nvcc builds (no GPU needed): a CuTe kernel compiles, a cache hit compiles nothing, a CuTe
// error condenses to a short report naming the user's line, and only the source's own errors are
// cached.
#include "build/builder.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "sys/fs.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

std::string testdata(const std::string& name) {
  return std::string(CUTEGEN_SOURCE_DIR) + "/src/build/testdata/" + name;
}

class BuilderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto tc = discover_toolchain("");
    ASSERT_TRUE(tc.ok()) << tc.message();
    cache_ = std::filesystem::temp_directory_path() / ("cutegen-build-test-" + std::to_string(getpid()));
    builder_.emplace(*tc, BuilderOptions{.cache_dir = cache_.string()});
  }
  void TearDown() override { std::filesystem::remove_all(cache_); }
  BuildRequest request(const std::string& file) {
    return {.source = *read_file(testdata(file)), .display_name = file, .target = Target{9, 0, true}};
  }
  std::filesystem::path cache_;
  std::optional<Builder> builder_;
};

TEST_F(BuilderTest, CompilesCuteKernelThenHitsCache) {
  auto first = builder_->build(request("scale.cu"));
  ASSERT_TRUE(first.ok()) << first.message();
  ASSERT_TRUE(first->ok()) << first->message << "\n" << render_diagnostics(first->diagnostics, "scale.cu");
  EXPECT_FALSE(first->cache_hit);
  EXPECT_TRUE(file_exists(first->library_path));
  ASSERT_EQ(first->kernels.size(), 1u);
  EXPECT_NE(first->kernels[0].name.find("scale_kernel"), std::string::npos);
  EXPECT_GT(first->kernels[0].registers, 0);

  auto second = builder_->build(request("scale.cu"));
  ASSERT_TRUE(second.ok());
  EXPECT_TRUE(second->cache_hit);
  EXPECT_EQ(second->library_path, first->library_path);
  EXPECT_EQ(second->kernels.size(), 1u);

  // A different force-included header is a different binary.
  auto req = request("scale.cu");
  req.force_include = "#define CUTEGEN_TEST_MARK 1\n";
  EXPECT_NE(builder_->cache_key(req), first->key);
}

TEST_F(BuilderTest, ARelativeCacheFolderStillBuilds) {
  // `--set build.cache_dir=rel/dir`: nvcc runs in the build's folder, so the path must be absolute by then.
  auto tc = discover_toolchain("");
  ASSERT_TRUE(tc.ok()) << tc.message();
  std::filesystem::path here = std::filesystem::current_path();
  std::filesystem::current_path(cache_.parent_path());
  Builder relative(*tc, BuilderOptions{.cache_dir = cache_.filename().string() + "/relative"});
  auto built = relative.build(request("scale.cu"));
  std::filesystem::current_path(here);
  ASSERT_TRUE(built.ok()) << built.message();
  EXPECT_TRUE(built->ok()) << built->message;
  EXPECT_TRUE(built->library_path.starts_with(cache_.string() + "/relative/")) << built->library_path;
}

TEST_F(BuilderTest, CuteErrorIsCondensedToTheUsersLine) {
  auto r = builder_->build(request("cute_error.cu"));
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->outcome, BuildOutcome::kCompileError);
  auto raw = read_file(r->log_path);
  ASSERT_TRUE(raw.ok());
  std::string text = render_diagnostics(r->diagnostics, "cute_error.cu");
  EXPECT_NE(text.find("cute_error.cu:8"), std::string::npos) << text;
  EXPECT_NE(text.find("Too many modes in tiler"), std::string::npos) << text;
  EXPECT_NE(text.find("> Tensor u = local_tile("), std::string::npos) << text;
  EXPECT_LT(text.size(), 6000u);
  EXPECT_LT(text.size() * 2, raw->size()) << "condensed report should be far smaller than the raw log";
}

// A header missing at compile time (moved or reinstalled mid-build) is the machine's fault, not the
// source's: the failure is reported but not cached, so the same source builds once the file is back.
TEST_F(BuilderTest, MissingHeaderFailureIsNotCached) {
  const std::string header = (cache_ / "late.h").string();
  BuildRequest req{.source = "#include \"" + header + "\"\n__global__ void k(float* p) { p[0] = kLate; }\n",
                   .display_name = "late.cu",
                   .target = Target{9, 0, true}};
  auto missing = builder_->build(req);
  ASSERT_TRUE(missing.ok()) << missing.message();
  EXPECT_EQ(missing->outcome, BuildOutcome::kCompileError);
  EXPECT_NE(missing->message.find("late.h"), std::string::npos) << missing->message;

  ASSERT_TRUE(write_file_atomic(header, "constexpr float kLate = 1.0f;\n").ok());
  auto back = builder_->build(req);
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_FALSE(back->cache_hit);
  EXPECT_TRUE(back->ok()) << back->message;
  EXPECT_TRUE(builder_->build(req)->cache_hit);
}

// A deterministic error (the source's own) is cached: the second build compiles nothing.
TEST_F(BuilderTest, SourceErrorIsCached) {
  BuildRequest req{.source = "__global__ void k(float* p) { p[0] = undeclared_name; }\n",
                   .display_name = "bad.cu",
                   .target = Target{9, 0, true}};
  auto first = builder_->build(req);
  ASSERT_TRUE(first.ok()) << first.message();
  EXPECT_EQ(first->outcome, BuildOutcome::kCompileError);
  auto second = builder_->build(req);
  ASSERT_TRUE(second.ok());
  EXPECT_TRUE(second->cache_hit);
  EXPECT_EQ(second->outcome, BuildOutcome::kCompileError);
}

TEST_F(BuilderTest, PlainSm90IsRefusedForWgmmaCode) {
  BuildRequest req{.source = "__global__ void k() { /* SM90_64x128x16_F32BF16BF16_SS */ }",
                   .display_name = "k.cu",
                   .target = Target{9, 0, false}};
  auto r = builder_->build(req);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->outcome, BuildOutcome::kRefused);
  EXPECT_NE(r->message.find("sm_90a"), std::string::npos);
}

TEST_F(BuilderTest, BuildAllCompilesIdenticalRequestsOnce) {
  auto reqs = std::vector<BuildRequest>{request("scale.cu"), request("scale.cu")};
  reqs[0].force_include = reqs[1].force_include = "// build_all\n";
  auto results = builder_->build_all(reqs);
  ASSERT_EQ(results.size(), 2u);
  ASSERT_TRUE(results[0].ok() && results[1].ok());
  EXPECT_TRUE(results[0]->ok());
  EXPECT_EQ(results[0]->library_path, results[1]->library_path);
  int builds = 0;
  for (auto& e : std::filesystem::recursive_directory_iterator(cache_))
    builds += e.path().filename() == "build.json";
  EXPECT_EQ(builds, 1);
}

}  // namespace
}  // namespace cutegen
