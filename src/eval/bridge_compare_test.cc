// The judge's quick comparison of a timed call's output with eager's (float32, one synchronisation)
// against the full one (float64, per chunk), in the real bridge on CPU torch: it may only answer for
// outputs the full check calls correct, and answers as the full check would.
#include <gtest/gtest.h>

#include "eval/bridge_python_test_support.h"

namespace cutegen {
namespace {

// Each case: out and eager; prints "<name> quick=<None|bad count> full=<bad count> same=<0|1>".
const char* const kCases = R"(
import math, torch
from cutegen_bridge import compare as c
c.CHUNK = 1000  # several chunks even for small tensors
g = torch.Generator().manual_seed(0)
e = torch.randn(4321, generator=g)
atol = rtol = 0.01
def case(name, out, eager=e, atol=atol, rtol=rtol):
    q = c.compare_quick(out, eager, atol, rtol)
    f = c.compare_full(out, eager, None, atol, rtol)
    same = q is None or all(q[k] == f[k] for k in ("numel", "bad", "nan", "first_bad", "last_bad", "all_zero",
                                                   "eager_all_zero", "bad_stride", "transposed")) \
        and math.isclose(q["max_abs"], f["max_abs"], rel_tol=1e-6) and math.isclose(q["mean_abs"], f["mean_abs"], rel_tol=1e-6)
    print(name, "quick=" + ("None" if q is None else str(q["bad"])), "full=" + str(f["bad"]), "same=" + str(int(same)))
case("equal", e.clone())
case("close", e + 0.004 * torch.randn(4321, generator=g).clamp(-1, 1))
# Between the quick check's tighter bound and the full check's (tolerances wide enough that float32's
# rounding of out stays far inside that gap): close by the full check, too near its edge for the quick one.
bound = 0.5 + 0.5 * e.double().abs()
case("edge", (e.double() + bound * (1 - 5e-6)).float(), atol=0.5, rtol=0.5)
case("past_edge", (e.double() + bound * (1 + 5e-6)).float(), atol=0.5, rtol=0.5)
one = e.clone(); one[1234] += 1.0; case("one_bad", one)
nan = e.clone(); nan[7] = float("nan"); case("nan", nan)
both_nan = e.clone(); both_nan[7] = float("nan"); case("both_nan", both_nan.clone(), both_nan)
both_inf = e.clone(); both_inf[9] = float("inf"); case("both_inf", both_inf.clone(), both_inf)
case("zeros", torch.zeros(4321), torch.zeros(4321))
case("bf16", e.bfloat16(), e.bfloat16())
case("int", torch.arange(10), torch.arange(10))
)";

TEST(BridgeCompare, TheQuickCheckAnswersOnlyForCorrectOutputsAndAsTheFullCheckDoes) {
  auto got = run_bridge_python_named(kCases);
  EXPECT_EQ(got["equal"], "quick=0 full=0 same=1");
  EXPECT_EQ(got["close"], "quick=0 full=0 same=1");
  EXPECT_EQ(got["edge"], "quick=None full=0 same=1");  // too near the edge for float32: the full check decides
  EXPECT_EQ(got["past_edge"], "quick=None full=4321 same=1");
  EXPECT_EQ(got["one_bad"], "quick=None full=1 same=1");
  EXPECT_EQ(got["nan"], "quick=None full=1 same=1");
  EXPECT_EQ(got["both_nan"], "quick=None full=1 same=1");  // NaN equals nothing, not even eager's NaN
  EXPECT_EQ(got["both_inf"], "quick=None full=0 same=1");  // equal infinities are close: the full check says so
  EXPECT_EQ(got["zeros"], "quick=0 full=0 same=1");
  EXPECT_EQ(got["bf16"], "quick=0 full=0 same=1");
  EXPECT_EQ(got["int"], "quick=None full=0 same=1");  // not floating point: the full check
}

}  // namespace
}  // namespace cutegen
