"""GPU-minded code (.cuda(), device="cuda", .to("cuda")) that must still be described on meta."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(features, device="cuda"))

    def forward(self, x):
        return x * self.scale.to("cuda")


def get_inputs():
    return [torch.randn(32, 64).cuda()]


def get_init_inputs():
    return [64]
