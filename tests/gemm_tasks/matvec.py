"""y = A @ v with a 1-D v: matrix-vector, memory-bound."""
import torch
import torch.nn as nn

M, K = 4096, 3000


class Model(nn.Module):
    def forward(self, a, v):
        return torch.matmul(a, v)


def get_inputs():
    return [torch.randn(M, K), torch.randn(K)]


def get_init_inputs():
    return []
