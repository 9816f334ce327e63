"""Softmax over 37 rows of 1001 floats: rows shorter than one tile, odd lengths, few rows."""
import torch
import torch.nn as nn

ROWS = 37
COLS = 1001


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=-1)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
