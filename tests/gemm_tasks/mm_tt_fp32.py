"""C = A^T @ B^T in fp32 (both operands transposed), scaled by 0.125."""
import torch
import torch.nn as nn

M, N, K = 300, 200, 100


class Model(nn.Module):
    def forward(self, a, b):
        return (a.T @ b.mT) * 0.125


def get_inputs():
    return [torch.randn(K, M), torch.randn(N, K)]


def get_init_inputs():
    return []
