#include "expert/expr.h"

#include <gtest/gtest.h>

namespace cutegen {
namespace {

TEST(ToCuda, FastSpellsIntrinsicsOnlyWhenAsked) {
  // selu's negative branch: expm1(x) * c, and a tanh, a log1p around it.
  auto e = call(Prim::kAdd, {call(Prim::kMul, {call(Prim::kExpm1, {leaf(0)}), constant(2)}),
                             call(Prim::kTanh, {call(Prim::kLog1p, {leaf(0)})})});
  EXPECT_EQ(to_cuda(e, {"v0"}), "((expm1f(v0) * 2.0f) + tanhf(log1pf(v0)))");
  EXPECT_EQ(to_cuda(e, {"v0"}, {.fast = true}),
            "(((__expf(v0) - 1.0f) * 2.0f) + (1.0f - __fdividef(2.0f, __expf(2.0f * __logf(1.0f + v0)) + 1.0f)))");
  // Primitives without an intrinsic keep their accurate spelling.
  EXPECT_EQ(to_cuda(call(Prim::kErf, {leaf(0)}), {"v0"}, {.fast = true}), "erff(v0)");
}

TEST(ToCuda, DividesWithoutTheIeeeSlowPathAndByConstantsAsProducts) {
  auto sigmoid = call(
      Prim::kDiv, {constant(1), call(Prim::kAdd, {constant(1), call(Prim::kExpFast, {call(Prim::kNeg, {leaf(0)})})})});
  EXPECT_EQ(to_cuda(sigmoid, {"v0"}), "cg_expert::div_full(1.0f, (1.0f + __expf((-v0))))");
  EXPECT_EQ(to_cuda(call(Prim::kDiv, {leaf(0), constant(6)}), {"v0"}), "(v0 * 0.166666667f)");
  EXPECT_EQ(to_cuda(call(Prim::kDiv, {leaf(0), constant(-0.5)}), {"v0"}), "(v0 * (-2.0f))");
  // By zero the quotient keeps its infinities and NaN.
  EXPECT_EQ(to_cuda(call(Prim::kDiv, {leaf(0), constant(0)}), {"v0"}), "cg_expert::div_full(v0, 0.0f)");
  EXPECT_EQ(to_cuda(call(Prim::kDiv, {leaf(0), constant(6)}), {"v0"}, {.ieee_div = true}), "(v0 / 6.0f)");
}

TEST(ToCuda, SelectsUnlessASideCallsALibraryFunction) {
  auto softplus =
      call(Prim::kSelectGt, {leaf(0), constant(20), leaf(0),
                             call(Prim::kLogFast, {call(Prim::kAdd, {constant(1), call(Prim::kExpFast, {leaf(0)})})})});
  EXPECT_EQ(to_cuda(softplus, {"v0"}), "cg_expert::select_gt(v0, 20.0f, v0, __logf((1.0f + __expf(v0))))");
  auto elu = call(Prim::kSelectGt, {leaf(0), constant(0), leaf(0), call(Prim::kExpm1, {leaf(0)})});
  EXPECT_EQ(to_cuda(elu, {"v0"}), "((v0) > (0.0f) ? (v0) : (expm1f(v0)))");
  // With fast intrinsics expm1 is __expf(x) - 1: both sides cheap, so a select.
  EXPECT_EQ(to_cuda(elu, {"v0"}, {.fast = true}), "cg_expert::select_gt(v0, 0.0f, v0, (__expf(v0) - 1.0f))");
}

}  // namespace
}  // namespace cutegen
