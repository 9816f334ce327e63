// Recognition on the op graphs the real bridge records for our tasks, and on hand-written graphs
// (including the declines: matmul, odd arguments, zero-size tensors, scalar forward arguments).
#include "expert/recognize.h"

#include <gtest/gtest.h>

#include <cmath>

#include "expert/test_support.h"

namespace cutegen {
namespace {

using testing_support::hand_spec;
using testing_support::task_spec;
using testing_support::tensor_json;

Recipe recognized(const std::string& task) {
  auto spec = task_spec(task);
  EXPECT_TRUE(spec.ok()) << spec.message();
  if (!spec.ok()) return {};
  auto r = recognize(*spec);
  EXPECT_TRUE(r.ok()) << task << ": " << r.message();
  return r.ok() ? *r : Recipe{};
}

TEST(Recognize, ElementwiseTasks) {
  auto relu = recognized("relu");
  EXPECT_EQ(relu.kind, TemplateKind::kElementwise);
  EXPECT_EQ(describe(relu.expr), "max(x0, 0)");
  auto gelu = recognized("new_gelu");  // eight aten ops fused into one expression over one operand
  EXPECT_EQ(gelu.kind, TemplateKind::kElementwise);
  ASSERT_EQ(gelu.operands.size(), 1u);
  EXPECT_TRUE(gelu.operands[0].dense);
  double x = 0.8;
  EXPECT_NEAR(eval_host(gelu.expr, {x}), 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x))),
              1e-12);
  auto tanh_gelu = recognized("gelu_tanh");
  EXPECT_NEAR(eval_host(tanh_gelu.expr, {x}), eval_host(gelu.expr, {x}), 1e-12);
  auto selu = recognized("selu");
  EXPECT_EQ(selu.operands[0].c_type, "__nv_bfloat16");
  EXPECT_NEAR(eval_host(selu.expr, {-1.0}), 1.0507009873554805 * 1.6732632423543772 * (std::exp(-1.0) - 1), 1e-12);
  EXPECT_EQ(recognized("sigmoid").kind, TemplateKind::kElementwise);
}

TEST(Recognize, BroadcastOperandGetsZeroStrides) {
  auto r = recognized("scale_bias_leaky");
  ASSERT_EQ(r.operands.size(), 2u);
  EXPECT_TRUE(r.operands[0].dense);
  EXPECT_FALSE(r.operands[1].dense);  // bias [8192] over [16384, 8192]
  EXPECT_EQ(r.operands[1].strides, (std::vector<int64_t>{0, 1}));
  EXPECT_NEAR(eval_host(r.expr, {-2.0, 1.0}), 0.2 * (-2.0 * 1.5 + 1.0), 1e-12);
}

TEST(Recognize, Reductions) {
  auto sum = recognized("sum_dim");
  EXPECT_EQ(sum.kind, TemplateKind::kReduce);
  EXPECT_EQ(sum.reduce, ReduceOp::kSum);
  EXPECT_EQ(sum.rows.outer, 64);
  EXPECT_EQ(sum.rows.extent, 2048);
  EXPECT_EQ(sum.rows.inner, 2047);
  auto argmax = recognized("argmax_dim");
  EXPECT_EQ(argmax.reduce, ReduceOp::kArgMax);
  EXPECT_EQ(argmax.out_type, "int64_t");
  EXPECT_EQ(argmax.rows.inner, 1);
  EXPECT_EQ(argmax.rows.extent, 2048);
}

TEST(Recognize, Normalizations) {
  auto softmax = recognized("softmax");
  EXPECT_EQ(softmax.norm, NormKind::kSoftmax);
  EXPECT_EQ(recognized("log_softmax").norm, NormKind::kLogSoftmax);
  auto ln = recognized("layernorm_long");
  EXPECT_EQ(ln.norm, NormKind::kLayerNorm);
  EXPECT_EQ(ln.rows.outer, 16);
  EXPECT_EQ(ln.rows.extent, 64 * 256 * 256);
  EXPECT_EQ(ln.weight_name, "norm_weight");
  EXPECT_EQ(ln.bias_name, "norm_bias");
  EXPECT_DOUBLE_EQ(ln.eps, 1e-5);
  auto rms = recognized("rmsnorm");
  EXPECT_EQ(rms.norm, NormKind::kScale);
  EXPECT_EQ(rms.rows.inner, 256 * 256);
  EXPECT_EQ(rms.rows.extent, 64);
  // pre = x^2, stat = mean → post = x / sqrt(stat / 64 + eps)
  EXPECT_NEAR(eval_host(rms.pre, {3.0}), 9.0, 1e-12);
  EXPECT_NEAR(eval_host(rms.post, {2.0, 64.0 * 4.0}), 2.0 / std::sqrt(4.0 + 1e-5), 1e-9);
  auto l2 = recognized("l2norm");
  EXPECT_NEAR(eval_host(l2.post, {3.0, 16.0}), 0.75, 1e-12);
  auto fro = recognized("frobenius_norm");
  EXPECT_EQ(fro.rows.outer, 1);
  EXPECT_EQ(fro.rows.extent, 32LL * 64 * 256 * 256);
}

// A matmul is a GEMM recipe (its declines, with reasons: recognize_gemm_test.cc).
TEST(Recognize, MatmulIsAGemm) {
  auto spec = task_spec("matmul_fp32");
  ASSERT_TRUE(spec.ok()) << spec.message();
  auto r = recognize(*spec);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->kind, TemplateKind::kGemm);
  EXPECT_TRUE(r->summary.starts_with("gemm float32 (3xTF32): M=4096 N=4096 K=4096")) << r->summary;
}

TEST(Recognize, HandWrittenGraphs) {
  std::string x = tensor_json("x", "[4, 6]", "[6, 1]"),
              out = tensor_json("out", "[4, 6]", "[6, 1]", "float32", "output");
  auto swish = recognize(hand_spec("[" + x + "]", out, R"(["aten.sigmoid.default", "aten.mul.Tensor"])",
                                   R"([{"op": "aten.sigmoid.default", "args": ["in:x"]},
                                       {"op": "aten.mul.Tensor", "args": ["in:x", "op:0"]},
                                       {"op": "output", "args": ["op:1"]}])"));
  ASSERT_TRUE(swish.ok()) << swish.message();
  EXPECT_NEAR(eval_host(swish->expr, {1.5}), 1.5 / (1 + std::exp(-1.5)), 1e-12);

  auto softsign =
      recognize(hand_spec("[" + x + "]", out, R"(["aten.abs.default", "aten.add.Tensor", "aten.div.Tensor"])",
                          R"([{"op": "aten.abs.default", "args": ["in:x"]},
                                          {"op": "aten.add.Tensor", "args": ["op:0", "const:1"]},
                                          {"op": "aten.div.Tensor", "args": ["in:x", "op:1"]},
                                          {"op": "output", "args": ["op:2"]}])"));
  ASSERT_TRUE(softsign.ok()) << softsign.message();
  EXPECT_NEAR(eval_host(softsign->expr, {-3.0}), -0.75, 1e-12);

  auto cumsum = recognize(hand_spec("[" + x + "]", out, R"(["aten.cumsum.default"])",
                                    R"([{"op": "aten.cumsum.default", "args": ["in:x", "const:1"]},
                                        {"op": "output", "args": ["op:0"]}])"));
  ASSERT_FALSE(cumsum.ok());
  EXPECT_NE(cumsum.message().find("aten.cumsum.default is not pointwise"), std::string::npos) << cumsum.message();
}

TEST(Recognize, DeclinesZeroSizeAndScalarInputsAndMissingGraphArguments) {
  std::string z = tensor_json("x", "[0, 6]", "[6, 1]"),
              zout = tensor_json("out", "[0, 6]", "[6, 1]", "float32", "output");
  auto zero =
      recognize(hand_spec("[" + z + "]", zout, R"(["aten.relu.default"])",
                          R"([{"op": "aten.relu.default", "args": ["in:x"]}, {"op": "output", "args": ["op:0"]}])"));
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(zero.message().find("zero elements"), std::string::npos) << zero.message();

  std::string x = tensor_json("x", "[4, 6]", "[6, 1]"),
              out = tensor_json("out", "[4, 6]", "[6, 1]", "float32", "output");
  std::string s = R"({"name": "s", "kind": "scalar", "ctype": "double", "value": 2.0})";
  auto scalar = recognize(
      hand_spec("[" + x + ", " + s + "]", out, R"(["aten.mul.Tensor"])",
                R"([{"op": "aten.mul.Tensor", "args": ["in:x", "const:2.0"]}, {"op": "output", "args": ["op:0"]}])"));
  ASSERT_FALSE(scalar.ok());
  EXPECT_NE(scalar.message().find("scalar `s`"), std::string::npos) << scalar.message();

  // An older spec without "graph": argument-free chains still work, gelu (which has arguments) declines.
  auto relu = parse_task_spec(R"({"name": "r", "path": "/r.py", "seed": 0, "init_args": [], "inputs": [)" + x +
                              R"(], "params": [], "outputs": [)" + out +
                              R"(], "ops": ["aten.relu.default"], "flops": 0, "min_bytes": 0})");
  ASSERT_TRUE(relu.ok()) << relu.message();
  EXPECT_TRUE(recognize(*relu).ok());
  auto gelu = parse_task_spec(R"({"name": "g", "path": "/g.py", "seed": 0, "init_args": [], "inputs": [)" + x +
                              R"(], "params": [], "outputs": [)" + out +
                              R"(], "ops": ["aten.gelu.default"], "flops": 0, "min_bytes": 0})");
  auto declined = recognize(*gelu);
  ASSERT_FALSE(declined.ok());
  EXPECT_NE(declined.message().find("graph"), std::string::npos) << declined.message();
}

}  // namespace
}  // namespace cutegen
