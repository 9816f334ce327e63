#include "eval/static_gate.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "build/builder.h"
#include "sys/fs.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

// A candidate of the GPU suite tests/gpu/FOLDER.
std::string suite(const std::string& name, const std::string& folder = "relu") {
  auto text = read_file(std::string(CUTEGEN_SOURCE_DIR) + "/tests/gpu/" + folder + "/" + name);
  EXPECT_TRUE(text.ok()) << text.message();
  return text.ok() ? *text : "";
}

std::string first_rule(const std::string& kernel) {
  auto f = check_source(suite(kernel), true);
  return f.empty() ? "" : f[0].rule;
}

TEST(StaticGate, HonestKernelIsCleanAndUsesCute) {
  auto src = suite("honest_relu.cu");
  EXPECT_TRUE(check_source(src, true).empty());
  auto usage = cute_usage(src);
  EXPECT_GT(usage["tiled copy"], 0);
  EXPECT_GT(usage["Tensor"], 0);
  EXPECT_NE(describe_usage(usage).find("tiled copy x"), std::string::npos);
}

TEST(StaticGate, BulkCopiesCountAsTma) {
  auto usage = cute_usage("SM90_BULK_COPY_G2S::copy(src, &bar, dst, bytes); make_tensor(p, s);");
  EXPECT_EQ(usage["TMA"], 1);
  EXPECT_EQ(usage["Tensor"], 1);
}

TEST(StaticGate, SourceRulesCatchTheCheats) {
  EXPECT_EQ(first_rule("cheat_side_stream.cu"), "side stream");
  EXPECT_EQ(first_rule("cheat_default_stream.cu"), "side stream");
  EXPECT_EQ(first_rule("cheat_torch.cu"), "forbidden include");
  EXPECT_EQ(first_rule("cheat_dlopen.cu"), "dynamic loading");
  EXPECT_EQ(first_rule("cheat_cublas.cu"), "library call");
  EXPECT_EQ(first_rule("cheat_no_cute.cu"), "no CuTe");
  // Cheats that only running can expose pass the static gate.
  for (auto k : {"cheat_half_written.cu", "cheat_zero_output.cu", "cheat_hang.cu", "cheat_precision.cu"})
    EXPECT_EQ(first_rule(k), "") << k;
}

TEST(StaticGate, LayerNormSuitePassesIt) {
  // Ignoring LayerNorm's weight and bias shows only when run with varied values (bridge/params.py).
  for (auto k : {"honest_layernorm.cu", "cheat_ignores_params.cu"})
    EXPECT_TRUE(check_source(suite(k, "layernorm_rows_768"), true).empty()) << k;
}

TEST(StaticGate, CommentsDoNotCount) {
  std::string src = "// cudaStreamCreate(&s); make_tensor\n__global__ void k() {}\n";
  auto f = check_source(src, true);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].rule, "no CuTe");
}

TEST(StaticGate, LaunchStreamArgumentIsChecked) {
  EXPECT_EQ(check_source("k<<<g, b, 0, stream>>>(x); make_tensor", true).size(), 0u);
  EXPECT_EQ(check_source("k<<<dim3(a, b), t, smem, stream>>>(x); make_tensor", true).size(), 0u);
  EXPECT_EQ(check_source("k<<<g, b, 0, 0>>>(x); make_tensor", true)[0].rule, "side stream");
  EXPECT_EQ(check_source("k<<<g, b, smem>>>(x); make_tensor", true)[0].rule, "side stream");
}

TEST(StaticGate, SymbolProvenanceComesFromVersionTags) {
  std::vector<std::string> defined = {"cutegen_forward"};
  EXPECT_TRUE(check_symbols({"memcpy@GLIBC_2.14", "_ZNSt8ios_base4InitC1Ev@GLIBCXX_3.4", "__gmon_start__",
                             "__cxa_guard_acquire@CXXABI_1.3", "_Unwind_Resume@GCC_3.0"},
                            defined, {})
                  .empty());
  auto f = check_symbols({"cublasSgemm_v2", "cudnnCreate@libcudnn.so.9", "_ZN2at4reluERKNS_6TensorE"}, defined, {});
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].rule, "forbidden symbol");
  EXPECT_NE(f[0].detail.find("cublasSgemm_v2"), std::string::npos);
  EXPECT_EQ(check_symbols({}, {}, {})[0].rule, "no entry point");
  EXPECT_EQ(check_symbols({}, defined, {"xx libcublasLt.so.13 yy"})[0].rule, "forbidden library");
}

// The symbol gate on a real binary: the cuBLAS cheat declares cuBLAS by hand, so only the
// library's undefined symbols give it away once the source rules are out of the picture.
TEST(StaticGate, CompiledCublasCheatHasForbiddenSymbols) {
  auto tc = discover_toolchain("");
  ASSERT_TRUE(tc.ok()) << tc.message();
  auto cache = std::filesystem::temp_directory_path() / ("cutegen-gate-test-" + std::to_string(getpid()));
  Builder builder(*tc, {.cache_dir = cache.string()});
  auto r = builder.build({.source = suite("cheat_cublas.cu"), .display_name = "cheat_cublas.cu"});
  ASSERT_TRUE(r.ok() && r->ok()) << (r.ok() ? r->message : r.message());
  auto syms = read_library_symbols(r->library_path);
  ASSERT_TRUE(syms.ok()) << syms.message();
  auto f = check_symbols(syms->undefined, syms->defined, syms->strings);
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(f[0].rule, "forbidden symbol");
  EXPECT_NE(f[0].detail.find("cublas"), std::string::npos) << f[0].detail;
  std::filesystem::remove_all(cache);
}

}  // namespace
}  // namespace cutegen
