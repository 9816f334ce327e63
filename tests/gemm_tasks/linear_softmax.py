"""softmax(x @ W^T + b): a GEMM followed by a row stage (a chain: the GEMM, then a softmax kernel)."""
import torch
import torch.nn as nn

BATCH, IN, OUT = 128, 256, 512


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(IN, OUT)

    def forward(self, x):
        return torch.softmax(self.fc(x), dim=1)


def get_inputs():
    return [torch.randn(BATCH, IN)]


def get_init_inputs():
    return []
