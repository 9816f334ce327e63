"""LeakyReLU(x * scale + bias) with a per-column bias vector broadcast over rows."""
import torch
import torch.nn as nn
import torch.nn.functional as F

ROWS = 16384
COLS = 8192
SLOPE = 0.2
SCALE = 1.5


class Model(nn.Module):
    def __init__(self, cols, slope, scale):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(cols))
        self.slope = slope
        self.scale = scale

    def forward(self, x):
        return F.leaky_relu(x * self.scale + self.bias, negative_slope=self.slope)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return [COLS, SLOPE, SCALE]
