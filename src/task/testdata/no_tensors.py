"""forward returns a Python number, so there is nothing for a kernel to write."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return len(x.shape)


def get_inputs():
    return [torch.randn(8, 8)]


def get_init_inputs():
    return []
