"""Scalars, *args, a buffer, two outputs and a name that collides with C: exercises the ABI."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, features, momentum):
        super().__init__()
        self.proj = nn.Linear(features, features, bias=False)
        self.register_buffer("running_mean", torch.zeros(features))
        self.momentum = momentum

    def forward(self, x, stream, use_mean, *rest):
        y = self.proj(x.to(torch.float32)) * stream
        if use_mean:
            y = y - self.running_mean
        return y.to(torch.bfloat16), rest[0] + rest[1]


def get_inputs():
    return [torch.randn(128, 256, dtype=torch.float16), 0.5, True, torch.ones(4, dtype=torch.int64), 7]


def get_init_inputs():
    return [256, 0.1]
