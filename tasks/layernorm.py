"""LayerNorm over the last dimension, with learned weight and bias (nn.LayerNorm parameters)."""
import torch
import torch.nn as nn

ROWS = 32768
HIDDEN = 8192
EPS = 1e-5


class Model(nn.Module):
    def __init__(self, hidden, eps):
        super().__init__()
        self.norm = nn.LayerNorm(hidden, eps=eps)

    def forward(self, x):
        return self.norm(x)


def get_inputs():
    return [torch.randn(ROWS, HIDDEN)]


def get_init_inputs():
    return [HIDDEN, EPS]
