"""gelu(x @ W^T) for a 3-D x through nn.Linear without bias: one GEMM with M = batch * seq."""
import torch
import torch.nn as nn

BATCH, SEQ, IN, OUT = 4, 100, 256, 320


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(IN, OUT, bias=False)

    def forward(self, x):
        return torch.nn.functional.gelu(self.proj(x))


def get_inputs():
    return [torch.randn(BATCH, SEQ, IN)]


def get_init_inputs():
    return []
