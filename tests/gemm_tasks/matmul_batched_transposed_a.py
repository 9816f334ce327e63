"""A^T @ B per batch, A stored batch x K x M (einsum 'bkm,bkn->bmn'), plus a residual."""
import torch
import torch.nn as nn

BATCH, M, N, K = 6, 40, 72, 56


class Model(nn.Module):
    def forward(self, a, b, r):
        return torch.einsum("bkm,bkn->bmn", a, b) + r


def get_inputs():
    return [torch.randn(BATCH, K, M), torch.randn(BATCH, K, N), torch.randn(BATCH, M, N)]


def get_init_inputs():
    return []
