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
  for (auto& p : abi_params(s)) out.push_back(p.c_decl);
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
       {"#ifndef CUTEGEN_ABI_LINEAR_BIAS_RELU_H_", "#define CUTEGEN_ABI_LINEAR_BIAS_RELU_H_", "#include <cuda_runtime.h>",
        "#include <cuda_fp16.h>", "#include <cuda_bf16.h>", "#include <cstdint>", "extern \"C\" void cutegen_forward(",
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
  for (auto& line : split_lines(h)) EXPECT_FALSE(line.ends_with('\\')) << line;
  EXPECT_NE(h.find("#ifndef CUTEGEN_ABI_ODD_NAMES_H_"), std::string::npos);
}

}  // namespace
}  // namespace cutegen
