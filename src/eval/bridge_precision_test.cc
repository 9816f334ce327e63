// The bridge's TF32 rounding (bridge/cutegen_bridge/precision.py), in the real bridge on CPU torch: the
// baseline's tf32_rel_err, from which the expert picks a convolution's precision, rests on it.
#include <gtest/gtest.h>

#include "eval/bridge_python_test_support.h"

namespace cutegen {
namespace {

const char* const kScript = R"(
import copy, torch
from cutegen_bridge import precision as p
u = 2.0 ** -10  # tf32's unit in the last place at 1
def show(name, x): print(name, repr(float(p.round_tf32(torch.tensor([x], dtype=torch.float64))[0])))
show("exact", 1 + u)
show("half_down", 1 + u / 2)                 # a tie: to the even neighbour, 1
show("half_up", 1 + 3 * u / 2)               # a tie: to the even neighbour, 1 + 2u
show("above_half", 1 + u / 2 + 2.0 ** -20)
show("negative", -(1 + 3 * u / 2))
print("scaled", int(float(p.round_tf32(torch.tensor([2.0 ** -100 * (1 + 3 * u / 2)]))[0]) == 2.0 ** -100 * (1 + 2 * u)))
torch.manual_seed(0)
conv = torch.nn.Sequential(torch.nn.Conv2d(16, 32, 3), torch.nn.ReLU()).double()
x = torch.rand(2, 16, 12, 12, dtype=torch.float64).float().double()
torch.set_grad_enabled(False)
ref = conv(x)
w0 = conv[0].weight.clone()
def rel(a): return float((a - ref).norm() / ref.norm())
print("conv_exact", rel(conv(x)))
rounded = p.round_layers_tf32(copy.deepcopy(conv))
err = rel(rounded(*p.round_inputs_tf32([x])))
print("conv_tf32", "%.1e" % err, int(1e-5 < err < 2e-3))
print("original_untouched", int(torch.equal(conv[0].weight, w0)), int(not torch.equal(rounded[0].weight, w0)))
print("bias_kept", int(torch.equal(rounded[0].bias, conv[0].bias)))
)";

TEST(BridgePrecision, Tf32RoundsToNearestEvenAndTheRoundedModelShowsTf32sError) {
  auto got = run_bridge_python_named(kScript);
  EXPECT_EQ(got["exact"], "1.0009765625");
  EXPECT_EQ(got["half_down"], "1.0");
  EXPECT_EQ(got["half_up"], "1.001953125");
  EXPECT_EQ(got["above_half"], "1.0009765625");
  EXPECT_EQ(got["negative"], "-1.001953125");
  EXPECT_EQ(got["scaled"], "1");  // any exponent alike
  EXPECT_EQ(got["conv_exact"], "0.0");
  // Ten mantissa bits on both operands of 144-term sums: relative errors of a few 1e-4.
  EXPECT_EQ(got["conv_tf32"].substr(got["conv_tf32"].find(' ') + 1), "1") << got["conv_tf32"];
  EXPECT_EQ(got["original_untouched"], "1 1");  // the copy's weights rounded, the model's as they were
  EXPECT_EQ(got["bias_kept"], "1");
}

}  // namespace
}  // namespace cutegen
