// Integration: the real bridge (venv torch, no GPU) gives the parameters a model's constructor left
// constant random values before the correctness trials, so a LayerNorm kernel that ignores its
// weight and bias (ones and zeros as constructed) cannot pass. These run on the CPU; the GPU suite
// (tests/gpu/layernorm_rows_768, `scripts/gpu` stage suite) runs the same code on a model on a GPU.
#include <gtest/gtest.h>

#include "eval/bridge_python_test_support.h"

namespace cutegen {
namespace {

const char* const kModel = R"(
import torch
from cutegen_bridge.params import vary_constant_parameters

class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = torch.nn.LayerNorm(64)       # weight ones, bias zeros
        self.proj = torch.nn.Linear(64, 8)       # random already
        self.act = torch.nn.PReLU()              # one element, 0.25
        self.register_buffer("steps", torch.zeros(3))
)";

TEST(BridgeParams, ConstantParametersGetRandomValues) {
  auto lines = run_bridge_python(std::string(kModel) + R"(
m = Model()
proj = m.proj.weight.clone()
print(" ".join(sorted(vary_constant_parameters(m, 0))))
w, b, a = m.norm.weight, m.norm.bias, m.act.weight.item()
print(int(w.std() > 0.1), int(bool((w >= 0.5).all() and (w <= 1.5).all())))
print(int(b.std() > 0.1), int(bool((b.abs() <= 0.5).all())))
print(int(0.125 <= a <= 0.375 and a != 0.25))
print(int(torch.equal(m.proj.weight, proj)), int(m.steps.abs().sum().item() == 0))
)");
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0], "act.weight norm.bias norm.weight");
  EXPECT_EQ(lines[1], "1 1") << "LayerNorm's weight: c * U(0.5, 1.5), its sign kept";
  EXPECT_EQ(lines[2], "1 1") << "LayerNorm's bias: U(-0.5, 0.5)";
  EXPECT_EQ(lines[3], "1") << "a one-element parameter counts as constant";
  EXPECT_EQ(lines[4], "1 1") << "random parameters and buffers are left alone";
}

TEST(BridgeParams, TheSameSeedGivesTheSameValues) {
  auto lines = run_bridge_python(std::string(kModel) + R"(
a, b, c = Model(), Model(), Model()
for m, seed in ((a, 7), (b, 7), (c, 8)):
    vary_constant_parameters(m, seed)
print(int(torch.equal(a.norm.weight, b.norm.weight)), int(torch.equal(a.norm.weight, c.norm.weight)))
)");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "1 0");
}

}  // namespace
}  // namespace cutegen
