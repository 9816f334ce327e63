// The pointwise formulas, evaluated on the host, against PyTorch's definitions written out here
// independently (double precision, several points on both sides of each kink).
#include "expert/pointwise_ops.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>

namespace cutegen {
namespace {

GraphNode node(const std::string& op, std::vector<std::string> args, std::map<std::string, std::string> kwargs = {}) {
  GraphNode n{.op = op};
  for (auto& a : args)
    n.args.push_back(parse_graph_arg(a));
  for (auto& [k, v] : kwargs)
    n.kwargs[k] = parse_graph_arg(v);
  return n;
}

double eval(const GraphNode& n, double x) {
  auto e = pointwise_expr(n, [](const GraphArg& a) -> Result<ExprPtr> {
    if (a.kind == GraphArg::kConst) return constant(a.number);
    return leaf(0);
  });
  EXPECT_TRUE(e.ok()) << e.message();
  return e.ok() ? eval_host(*e, {x}) : NAN;
}

struct Case {
  const char* what;
  GraphNode node;
  std::function<double(double)> reference;
};

TEST(PointwiseOps, ActivationsMatchPyTorchFormulas) {
  const double selu_alpha = 1.6732632423543772848170429916717, selu_scale = 1.0507009873554804934193349852946;
  std::vector<Case> cases = {
      {"relu", node("aten.relu.default", {"in:x"}), [](double x) { return x > 0 ? x : 0; }},
      {"leaky 0.01 default", node("aten.leaky_relu.default", {"in:x"}), [](double x) { return x > 0 ? x : 0.01 * x; }},
      {"leaky 0.2", node("aten.leaky_relu.default", {"in:x", "const:0.2"}),
       [](double x) { return x > 0 ? x : 0.2 * x; }},
      {"sigmoid", node("aten.sigmoid.default", {"in:x"}), [](double x) { return 1 / (1 + std::exp(-x)); }},
      {"tanh", node("aten.tanh.default", {"in:x"}), [](double x) { return std::tanh(x); }},
      {"silu", node("aten.silu.default", {"in:x"}), [](double x) { return x / (1 + std::exp(-x)); }},
      {"gelu erf", node("aten.gelu.default", {"in:x"}),
       [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }},
      {"gelu tanh", node("aten.gelu.default", {"in:x"}, {{"approximate", "str:tanh"}}),
       [](double x) { return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x))); }},
      {"selu", node("aten.elu.default", {"in:x", "const:1.6732632423543772", "const:1.0507009873554805"}),
       [&](double x) { return selu_scale * (x > 0 ? x : selu_alpha * (std::exp(x) - 1)); }},
      {"elu 0.5", node("aten.elu.default", {"in:x", "const:0.5"}),
       [](double x) { return x > 0 ? x : 0.5 * (std::exp(x) - 1); }},
      {"hardsigmoid", node("aten.hardsigmoid.default", {"in:x"}),
       [](double x) { return std::clamp(x / 6 + 0.5, 0.0, 1.0); }},
      {"hardswish", node("aten.hardswish.default", {"in:x"}),
       [](double x) { return x * std::clamp(x + 3, 0.0, 6.0) / 6; }},
      {"softplus", node("aten.softplus.default", {"in:x"}),
       [](double x) { return x > 20 ? x : std::log(1 + std::exp(x)); }},
      {"softplus beta 2", node("aten.softplus.default", {"in:x", "const:2", "const:20"}),
       [](double x) { return 2 * x > 20 ? x : std::log(1 + std::exp(2 * x)) / 2; }},
      {"hardtanh", node("aten.hardtanh.default", {"in:x"}), [](double x) { return std::clamp(x, -1.0, 1.0); }},
      {"relu6", node("aten.hardtanh.default", {"in:x", "const:0.0", "const:6.0"}),
       [](double x) { return std::clamp(x, 0.0, 6.0); }},
      {"mish", node("aten.mish.default", {"in:x"}), [](double x) { return x * std::tanh(std::log1p(std::exp(x))); }},
      {"celu", node("aten.celu.default", {"in:x", "const:2.0"}),
       [](double x) { return std::max(0.0, x) + std::min(0.0, 2 * (std::exp(x / 2) - 1)); }},
      {"pow 3", node("aten.pow.Tensor_Scalar", {"in:x", "const:3.0"}), [](double x) { return x * x * x; }},
      {"scalar multiply", node("aten.mul.Tensor", {"in:x", "const:3.5"}), [](double x) { return 3.5 * x; }},
      {"add alpha", node("aten.add.Tensor", {"in:x", "const:2.0"}, {{"alpha", "const:3"}}),
       [](double x) { return x + 6; }},
      {"rsub", node("aten.rsub.Scalar", {"in:x", "const:1.0"}), [](double x) { return 1 - x; }},
      {"clamp", node("aten.clamp.default", {"in:x", "const:-0.5", "none"}), [](double x) { return std::max(x, -0.5); }},
  };
  for (auto& c : cases)
    for (double x : {-30.0, -3.0, -0.5, 0.0, 0.7, 2.5, 10.0, 25.0})
      EXPECT_NEAR(eval(c.node, x), c.reference(x), 1e-9 * (1 + std::fabs(c.reference(x)))) << c.what << " at " << x;
}

// Mish's factor tanh(softplus(x)) runs as n / (n + 2), n = e^x (e^x + 2): for aten.mish and where
// the trace spells it tanh(softplus(x)) (level 2's 52); a softplus off its defaults keeps the tanh.
TEST(PointwiseOps, TanhOfDefaultSoftplusIsOneExponentialAndADivision) {
  auto tanh_of = [](const GraphNode& softplus) {
    auto x = [](const GraphArg&) -> Result<ExprPtr> { return leaf(0); };
    ExprPtr s = *pointwise_expr(softplus, x);
    return *pointwise_expr(node("aten.tanh.default", {"in:s"}), [&](const GraphArg&) -> Result<ExprPtr> { return s; });
  };
  ExprPtr fused = tanh_of(node("aten.softplus.default", {"in:x"}));
  ExprPtr kept = tanh_of(node("aten.softplus.default", {"in:x", "const:2", "const:20"}));
  EXPECT_FALSE(contains(fused, Prim::kTanh) || contains(fused, Prim::kLogFast)) << describe(fused);
  EXPECT_TRUE(contains(kept, Prim::kTanh)) << describe(kept);
  for (double x : {-80.0, -30.0, -17.5, -3.0, -0.5, 0.0, 0.7, 2.5, 19.9, 20.1, 60.0})
    EXPECT_NEAR(eval_host(fused, {x}), std::tanh(std::log1p(std::exp(x))), 1e-12 * std::tanh(std::log1p(std::exp(x))))
        << x;
  // In float the terms are all positive: the quotient stays within a few ulp of the true factor, also
  // far below -17 where 1 + e^x rounds to 1 (the log form gave 0 there).
  double worst = 0;
  for (float x = -80.0f; x <= 20.0f; x += 0.0137f) {
    float u = std::exp(x), n = u * (u + 2.0f);
    double exact = std::tanh(std::log1p(std::exp(double(x))));
    worst = std::max(worst, std::fabs(n / (n + 2.0f) - exact) / exact);
  }
  EXPECT_LT(worst, 4e-7);
}

TEST(PointwiseOps, UnknownOpsAndArgumentsAreErrors) {
  auto operand = [](const GraphArg&) -> Result<ExprPtr> { return leaf(0); };
  auto mm = pointwise_expr(node("aten.mm.default", {"in:x", "in:y"}), operand);
  ASSERT_FALSE(mm.ok());
  EXPECT_NE(mm.message().find("aten.mm.default"), std::string::npos);
  auto floor_div =
      pointwise_expr(node("aten.div.Tensor_mode", {"in:x", "in:y"}, {{"rounding_mode", "str:floor"}}), operand);
  EXPECT_FALSE(floor_div.ok());
  auto gelu = pointwise_expr(node("aten.gelu.default", {"in:x"}, {{"approximate", "str:cubic"}}), operand);
  EXPECT_FALSE(gelu.ok());
}

TEST(PointwiseOps, CudaTextSpellsFloatMath) {
  auto e = pointwise_expr(node("aten.gelu.default", {"in:x"}, {{"approximate", "str:tanh"}}),
                          [](const GraphArg&) -> Result<ExprPtr> { return leaf(0); });
  ASSERT_TRUE(e.ok());
  std::string code = to_cuda(*e, {"v0"});
  EXPECT_NE(code.find("tanhf("), std::string::npos) << code;
  EXPECT_NE(code.find("0.044715f"), std::string::npos) << code;
  EXPECT_EQ(code.find("double"), std::string::npos) << code;
  EXPECT_EQ(to_cuda(constant(-2), {}), "(-2.0f)");
}

// torch.relu / maximum / clamp propagate NaN; fmaxf would return the other operand.
TEST(PointwiseOps, MaxAndMinPropagateNan) {
  auto relu = call(Prim::kMax, {leaf(0), constant(0)});
  EXPECT_TRUE(std::isnan(eval_host(relu, {std::nan("")})));
  EXPECT_TRUE(std::isnan(eval_host(call(Prim::kMin, {constant(1), leaf(0)}), {std::nan("")})));
  EXPECT_EQ(eval_host(relu, {-3.0}), 0.0);
  EXPECT_NE(to_cuda(relu, {"v0"}).find("nan_max("), std::string::npos);
}

}  // namespace
}  // namespace cutegen
