"""LayerNorm over the last three dims of a [16, 64, 256, 256] tensor: 16 rows of 4M elements,
so each row must be split across many blocks."""
import torch
import torch.nn as nn

BATCH = 16
SHAPE = (64, 256, 256)


class Model(nn.Module):
    def __init__(self, shape):
        super().__init__()
        self.norm = nn.LayerNorm(shape)

    def forward(self, x):
        return self.norm(x)


def get_inputs():
    return [torch.randn(BATCH, *SHAPE)]


def get_init_inputs():
    return [SHAPE]
