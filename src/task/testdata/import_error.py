"""A task whose import fails: the bridge must report the exception in one line plus a short traceback."""
import torch
import torch.nn as nn

SIZE = 1024


def helper():
    raise ValueError("tile size must be a power of two")


TILE = helper()


class Model(nn.Module):
    def forward(self, x):
        return x


def get_inputs():
    return [torch.randn(SIZE)]


def get_init_inputs():
    return []
