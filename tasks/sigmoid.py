"""Sigmoid, elementwise over a large fp32 matrix."""
import torch
import torch.nn as nn

ROWS = 8192
COLS = 32768


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.sigmoid(x)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
