"""ReLU over a large fp32 matrix: a pure bandwidth-bound elementwise task."""
import torch
import torch.nn as nn

ROWS = 4096
COLS = 65536


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
