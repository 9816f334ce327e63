"""L1 normalization over rows of 65535 floats: every row but the first starts off a 16-byte boundary."""
import torch
import torch.nn as nn

ROWS = 2048
COLS = 65535


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x / torch.mean(torch.abs(x), dim=1, keepdim=True)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
