"""GELU with the tanh approximation, elementwise over a large fp32 matrix."""
import torch
import torch.nn as nn
import torch.nn.functional as F

ROWS = 4096
COLS = 65536


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.gelu(x, approximate="tanh")


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
