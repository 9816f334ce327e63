"""A task whose inputs cannot fit on one GPU (ReLU over 200 GB): the evaluator must say so in one line."""
import torch
import torch.nn as nn

ROWS = 50000
COLS = 1000000


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
