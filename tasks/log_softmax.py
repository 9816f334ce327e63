"""Log-softmax over long rows (262,144 floats: larger than any SM's shared memory)."""
import torch
import torch.nn as nn

ROWS = 1024
COLS = 262144


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.log_softmax(x, dim=1)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
