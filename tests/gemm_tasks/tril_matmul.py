"""tril(A @ B, -1): the product's strictly lower triangle."""
import torch
import torch.nn as nn

N = 512


class Model(nn.Module):
    def forward(self, a, b):
        return torch.tril(a @ b, diagonal=-1)


def get_inputs():
    return [torch.randn(N, N), torch.randn(N, N)]


def get_init_inputs():
    return []
