"""leaky_relu(baddbmm(bias, A, B)) with a bias broadcast over the batch and the rows."""
import torch
import torch.nn as nn

BATCH, M, N, K = 4, 64, 80, 48


class Model(nn.Module):
    def forward(self, bias, a, b):
        return torch.nn.functional.leaky_relu(torch.baddbmm(bias, a, b), 0.2)


def get_inputs():
    return [torch.randn(N), torch.randn(BATCH, M, K), torch.randn(BATCH, K, N)]


def get_init_inputs():
    return []
