// The ABI header's text: argument order, C types, constness, names, comments.
#include "task/abi.h"

#include <gtest/gtest.h>

#include "core/strings.h"
#include "sys/fs.h"
#include "cutegen_paths.h"

namespace cutegen {
namespace {

TaskSpec fixture(const std::string& name) {
  auto s = parse_task_spec(*read_file(std::string(CUTEGEN_SOURCE_DIR) + "/src/task/testdata/" + name));
  EXPECT_TRUE(s.ok()) << s.message();
  return *s;
}

std::vector<std::string> decls(const TaskSpec& s) {
  std::vector<std::string> out;
  for (auto& p : abi_params(s))
    out.push_back(p.c_decl);
  return out;
}

TEST(AbiTest, CIdentifiers) {
  EXPECT_EQ(c_identifier("linear.weight"), "linear_weight");
  EXPECT_EQ(c_identifier("blocks.0.attn-qkv"), "blocks_0_attn_qkv");
  EXPECT_EQ(c_identifier("0start"), "_0start");
  EXPECT_EQ(c_identifier("int"), "int_");
  EXPECT_EQ(c_identifier("stream"), "stream_");
  EXPECT_EQ(c_identifier(""), "_");
}

TEST(AbiTest, InputsThenParametersThenOutputs) {
  EXPECT_EQ(decls(fixture("linear_bias_relu.json")),
            (std::vector<std::string>{"const float* x", "const float* linear_weight", "const float* linear_bias",
                                      "float* out"}));
  EXPECT_EQ(decls(fixture("mixed_io.json")),
            (std::vector<std::string>{"const __half* x", "double stream_", "bool use_mean", "const int64_t* arg3",
                                      "int64_t arg4", "const float* running_mean", "const float* proj_weight",
                                      "__nv_bfloat16* out0", "int64_t* out1"}));
}

TEST(AbiTest, CollidingNamesAreMadeUnique) {
  EXPECT_EQ(decls(fixture("odd_names.json")),
            (std::vector<std::string>{"const uint8_t* int_", "int64_t _0start", "const bool* a_b",
                                      "const double* a_b_2", "const int32_t* blocks_0_weight", "int8_t* out"}));
}

TEST(AbiTest, HeaderDeclaresAnnotatedForward) {
  auto h = abi_header(fixture("linear_bias_relu.json"));
  for (auto needle :
       {"#ifndef CUTEGEN_ABI_LINEAR_BIAS_RELU_H_", "#define CUTEGEN_ABI_LINEAR_BIAS_RELU_H_",
        "#include <cuda_runtime.h>", "#include <cuda_fp16.h>", "#include <cuda_bf16.h>", "#include <cstdint>",
        "extern \"C\" void cutegen_forward(",
        "    const float* x,  // input x: float32 [4096, 4096] strides [4096, 1]\n",
        "    const float* linear_weight,  // parameter linear.weight: float32 [4096, 4096] strides [4096, 1]\n",
        "    float* out,  // output out: float32 [4096, 4096] strides [4096, 1]\n", "    cudaStream_t stream);\n",
        "//   [0] 4096\n", "//   [1] 4096\n", "#endif  // CUTEGEN_ABI_LINEAR_BIAS_RELU_H_\n"})
    EXPECT_NE(h.find(needle), std::string::npos) << needle << "\n" << h;
}

TEST(AbiTest, ScalarsAndInitArgsStayInsideComments) {
  auto h = abi_header(fixture("odd_names.json"));
  EXPECT_NE(h.find("int64_t _0start,  // scalar 0start: int64_t (example value 3)"), std::string::npos) << h;
  EXPECT_NE(h.find("//   [0] tensor([[1., 2.],\n//               [3., 4.]])\n"), std::string::npos) << h;
  EXPECT_NE(h.find("buffer a.b: float64 [5] strides [1]"), std::string::npos) << h;
  // A comment must never end in a backslash: the next line would be swallowed into it.
  for (auto& line : split_lines(h))
    EXPECT_FALSE(line.ends_with('\\')) << line;
  EXPECT_NE(h.find("#ifndef CUTEGEN_ABI_ODD_NAMES_H_"), std::string::npos);
}

TEST(AbiTest, ConstructorScalarsAreNamedConstants) {
  auto h = abi_header(fixture("linear_multiply_leaky.json"));
  for (auto needle : {"constexpr double multiplier = 2.0;  // constructor argument multiplier\n",
                      "constexpr double negative_slope = 0.1;  // constructor argument negative_slope\n",
                      "constexpr int64_t in_features = 2048;  // constructor argument in_features\n",
                      "constexpr double leaky_relu_negative_slope = 0.1;  // attribute leaky_relu.negative_slope\n",
                      "constexpr bool leaky_relu_inplace = false;  // attribute leaky_relu.inplace\n",
                      "constexpr int64_t gemm_weight_dim1 = 2048;\n"})
    EXPECT_NE(h.find(needle), std::string::npos) << needle << "\n" << h;
  // Inside the namespace, after the sizes.
  EXPECT_LT(h.find("namespace cutegen_abi {"), h.find("gemm_weight_dim1"));
  EXPECT_LT(h.find("gemm_weight_dim1"), h.find("constexpr double multiplier"));
  EXPECT_LT(h.find("constexpr double multiplier"), h.find("}  // namespace cutegen_abi"));
}

TEST(AbiTest, FixedScalarInputsAreConstantsToo) {
  auto h = abi_header(fixture("mixed_io.json"));
  EXPECT_NE(h.find("constexpr double stream_ = 0.5;  // scalar input stream (also passed by value)\n"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("constexpr bool use_mean = true;"), std::string::npos) << h;
  EXPECT_NE(h.find("constexpr double momentum = 0.1;"), std::string::npos) << h;
  // A scalar input the spec does not call fixed stays a run-time argument only.
  auto odd = abi_header(fixture("odd_names.json"));
  EXPECT_EQ(odd.find("_0start ="), std::string::npos) << odd;
}

TEST(AbiTest, ConstantNamesNeverClashAndNonFiniteValuesAreConstantExpressions) {
  std::vector<std::string> names;
  for (auto& c : abi_constants(fixture("odd_names.json")))
    names.push_back(c.c_name);
  EXPECT_EQ(names, (std::vector<std::string>{"int__numel", "int__dim0", "int__dim1", "a_b_numel", "a_b_2_numel",
                                             "a_b_2_dim0", "blocks_0_weight_numel", "blocks_0_weight_dim0",
                                             "blocks_0_weight_dim1", "out_numel", "out_dim0", "out_dim1", "a_b_numel_2",
                                             "limit", "act_double", "act_inplace"}));
  auto h = abi_header(fixture("odd_names.json"));
  EXPECT_NE(h.find("constexpr double limit = -__builtin_huge_val();"), std::string::npos) << h;
  EXPECT_NE(h.find("constexpr double act_double = __builtin_nan(\"\");"), std::string::npos) << h;
}

}  // namespace
}  // namespace cutegen
