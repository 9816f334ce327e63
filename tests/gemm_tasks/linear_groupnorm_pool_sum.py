"""A level-2 chain: a linear layer, a group norm with its affine parameters, a 1-D max pool over the
features, a sigmoid, and a sum over them scaled (three stage kernels after the GEMM)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features, out_features, groups):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.norm = nn.GroupNorm(groups, out_features)
        self.pool = nn.MaxPool1d(2)

    def forward(self, x):
        x = self.norm(self.linear(x))
        x = torch.sigmoid(self.pool(x.unsqueeze(1)).squeeze(1))
        return torch.sum(x, dim=1) * 0.5


def get_inputs():
    return [torch.randn(512, 1024)]


def get_init_inputs():
    return [1024, 2048, 16]
