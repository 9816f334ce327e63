"""A @ B on 4-D operands (two batch dims), B's batch dims broadcast from [1, H]: a batched GEMM."""
import torch
import torch.nn as nn

B0, H, M, N, K = 2, 3, 64, 48, 32


class Model(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)


def get_inputs():
    return [torch.randn(B0, H, M, K), torch.randn(1, H, K, N)]


def get_init_inputs():
    return []
