"""Argmax over the last dimension (int64 indices, first occurrence on ties)."""
import torch
import torch.nn as nn

BATCH = 128
ROWS = 1024
COLS = 2048


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.argmax(x, dim=self.dim)


def get_inputs():
    return [torch.randn(BATCH, ROWS, COLS)]


def get_init_inputs():
    return [-1]
