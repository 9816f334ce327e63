"""B @ diag(d): a column scaling of B, not a GEMM."""
import torch
import torch.nn as nn

N, M = 768, 1024


class Model(nn.Module):
    def forward(self, b, d):
        return torch.matmul(b, torch.diag(d))


def get_inputs():
    return [torch.randn(N, M), torch.randn(M)]


def get_init_inputs():
    return []
