#include "expert/expr.h"

#include <gtest/gtest.h>

namespace cutegen {
namespace {

TEST(ToCuda, FastSpellsIntrinsicsOnlyWhenAsked) {
  // selu's negative branch: expm1(x) * c, and a tanh, a log1p around it.
  auto e = call(Prim::kAdd, {call(Prim::kMul, {call(Prim::kExpm1, {leaf(0)}), constant(2)}),
                             call(Prim::kTanh, {call(Prim::kLog1p, {leaf(0)})})});
  EXPECT_EQ(to_cuda(e, {"v0"}), "((expm1f(v0) * 2.0f) + tanhf(log1pf(v0)))");
  EXPECT_EQ(to_cuda(e, {"v0"}, true),
            "(((__expf(v0) - 1.0f) * 2.0f) + (1.0f - __fdividef(2.0f, __expf(2.0f * __logf(1.0f + v0)) + 1.0f)))");
  // Primitives without an intrinsic keep their accurate spelling.
  EXPECT_EQ(to_cuda(call(Prim::kErf, {leaf(0)}), {"v0"}, true), "erff(v0)");
}

}  // namespace
}  // namespace cutegen
