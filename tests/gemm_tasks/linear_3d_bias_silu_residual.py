"""silu(x @ W^T + b) + residual for a 3-D x, every tensor bf16."""
import torch
import torch.nn as nn

BATCH, SEQ, IN, OUT = 2, 77, 128, 192


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(IN, OUT).to(torch.bfloat16)

    def forward(self, x, residual):
        return torch.nn.functional.silu(self.proj(x)) + residual


def get_inputs():
    return [torch.randn(BATCH, SEQ, IN, dtype=torch.bfloat16), torch.randn(BATCH, SEQ, OUT, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
