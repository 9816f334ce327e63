"""C = A @ B in fp16 (fp32 accumulation is the kernel's choice): A is M x K, B is K x N."""
import torch
import torch.nn as nn

M = 4096
N = 4096
K = 4096
DTYPE = torch.float16


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.matmul(a, b)


def get_inputs():
    return [torch.randn(M, K, dtype=DTYPE), torch.randn(K, N, dtype=DTYPE)]


def get_init_inputs():
    return []
