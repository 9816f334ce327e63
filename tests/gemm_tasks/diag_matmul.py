"""diag(d) @ B: a row scaling of B, not a GEMM."""
import torch
import torch.nn as nn

N, M = 1024, 768


class Model(nn.Module):
    def forward(self, d, b):
        return torch.diag(d) @ b


def get_inputs():
    return [torch.randn(N), torch.randn(N, M)]


def get_init_inputs():
    return []
