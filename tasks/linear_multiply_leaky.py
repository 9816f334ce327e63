"""LeakyReLU((x @ W^T + b) * multiplier) in fp32: a level-2-style fusion whose two Python numbers
reach the model through its constructor (they become constants of the ABI)."""
import torch
import torch.nn as nn

BATCH = 1024
IN_FEATURES = 2048
OUT_FEATURES = 4096
multiplier = 2.0
negative_slope = 0.1


class Model(nn.Module):
    def __init__(self, in_features, out_features, multiplier, negative_slope):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.multiplier = multiplier
        self.leaky_relu = nn.LeakyReLU(negative_slope)

    def forward(self, x):
        return self.leaky_relu(self.gemm(x) * self.multiplier)


def get_inputs():
    return [torch.randn(BATCH, IN_FEATURES)]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES, multiplier, negative_slope]
