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

constexpr const char* kMatching = R"(
__global__ void fused(const float* x, const float* w, const float* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fmaxf(x[i] * w[i] + b[i % 4096], 0.0f);
}
extern "C" void cutegen_forward(const float* x, const float* linear_weight, const float* linear_bias, float* out,
                                cudaStream_t stream) {
  int n = 4096 * 4096;
  fused<<<(n + 255) / 256, 256, 0, stream>>>(x, linear_weight, linear_bias, out, n);
}
)";

// Forgets the bias: same name, different parameter list.
constexpr const char* kWrongSignature = R"(
__global__ void fused(const float* x, const float* w, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fmaxf(x[i] * w[i], 0.0f);
}
extern "C" void cutegen_forward(const float* x, const float* linear_weight, float* out, cudaStream_t stream) {
  int n = 4096 * 4096;
  fused<<<(n + 255) / 256, 256, 0, stream>>>(x, linear_weight, out, n);
}
)";

class AbiCompileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto tc = discover_toolchain("");
    ASSERT_TRUE(tc.ok()) << tc.message();
    cache_ = std::filesystem::temp_directory_path() / ("cutegen-abi-test-" + std::to_string(getpid()));
    builder_.emplace(*tc, BuilderOptions{.cache_dir = cache_.string()});
    auto spec = parse_task_spec(
        *read_file(std::string(CUTEGEN_SOURCE_DIR) + "/src/task/testdata/linear_bias_relu.json"));
    ASSERT_TRUE(spec.ok()) << spec.message();
    header_ = abi_header(*spec);
  }
  void TearDown() override { std::filesystem::remove_all(cache_); }
  BuildResult build(const char* source) {
    BuildRequest req{.source = source, .display_name = "candidate.cu", .target = Target{9, 0, true},
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
  auto r = build(kMatching);
  EXPECT_TRUE(r.ok()) << r.message << "\n" << render_diagnostics(r.diagnostics, "candidate.cu");
}

TEST_F(AbiCompileTest, WrongSignatureIsACompileErrorNamingTheFunction) {
  auto r = build(kWrongSignature);
  EXPECT_EQ(r.outcome, BuildOutcome::kCompileError);
  std::string report = r.message + "\n" + render_diagnostics(r.diagnostics, "candidate.cu");
  EXPECT_NE(report.find("cutegen_forward"), std::string::npos) << report;
}

}  // namespace
}  // namespace cutegen
