"""SELU on a bf16 tensor (computed in fp32 by kernels, stored as bf16)."""
import torch
import torch.nn as nn

ROWS = 8192
COLS = 32768


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.selu(x)


def get_inputs():
    return [torch.randn(ROWS, COLS, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
