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

// Reads the model's numbers from cutegen_abi in device code and checks them at compile time.
constexpr const char* kUsesConstants = R"(
static_assert(cutegen_abi::in_features == 2048 && cutegen_abi::leaky_relu_inplace == false);
__global__ void epilogue(const float* y, float* out, int64_t n) {
  int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i < n) {
    float v = y[i] * float(cutegen_abi::multiplier);
    out[i] = v > 0 ? v : v * float(cutegen_abi::negative_slope);
  }
}
extern "C" void cutegen_forward(const float* x, const float* gemm_weight, const float* gemm_bias, float* out,
                                cudaStream_t stream) {
  epilogue<<<(cutegen_abi::out_numel + 255) / 256, 256, 0, stream>>>(x, out, cutegen_abi::out_numel);
}
)";

// Non-finite constants are constant expressions, and a clashing name got a suffix.
constexpr const char* kOddConstants = R"(
static_assert(cutegen_abi::limit < 0 && cutegen_abi::act_double != cutegen_abi::act_double);
static_assert(cutegen_abi::a_b_numel == 1 && cutegen_abi::a_b_numel_2 == 9);
extern "C" void cutegen_forward(const uint8_t* int_, int64_t _0start, const bool* a_b, const double* a_b_2,
                                const int32_t* blocks_0_weight, int8_t* out, cudaStream_t stream) {}
)";

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

TEST_F(AbiCompileTest, ModelNumbersAreUsableConstants) {
  for (auto [fixture, source] : {std::pair{"linear_multiply_leaky.json", kUsesConstants},
                                 std::pair{"odd_names.json", kOddConstants}}) {
    header_ = header_for(fixture);
    auto r = build(source);
    EXPECT_TRUE(r.ok()) << fixture << ": " << r.message << "\n" << render_diagnostics(r.diagnostics, "candidate.cu");
  }
}

}  // namespace
}  // namespace cutegen
