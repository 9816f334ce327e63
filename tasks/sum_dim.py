"""Sum over the middle dimension of a [batch, reduced, inner] tensor, keeping the dimension."""
import torch
import torch.nn as nn

BATCH = 64
REDUCED = 2048
INNER = 2047  # odd on purpose: no vector width divides the rows


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.sum(x, dim=self.dim, keepdim=True)


def get_inputs():
    return [torch.randn(BATCH, REDUCED, INNER)]


def get_init_inputs():
    return [1]
