"""C = A^T @ B in fp16: A is stored K x M, so the GEMM's A operand is column-major."""
import torch
import torch.nn as nn

M, N, K = 512, 384, 256


class Model(nn.Module):
    def forward(self, a, b):
        return a.t() @ b


def get_inputs():
    return [torch.randn(K, M, dtype=torch.float16), torch.randn(K, N, dtype=torch.float16)]


def get_init_inputs():
    return []
