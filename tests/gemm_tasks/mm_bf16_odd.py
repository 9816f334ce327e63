"""C = A @ B in bf16 at odd sizes (predicated tails): A is M x K, B is K x N, both row-major."""
import torch
import torch.nn as nn

M, N, K = 1000, 777, 515


class Model(nn.Module):
    def forward(self, a, b):
        return torch.mm(a, b)


def get_inputs():
    return [torch.randn(M, K, dtype=torch.bfloat16), torch.randn(K, N, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
