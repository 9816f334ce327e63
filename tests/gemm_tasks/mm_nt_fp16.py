"""C = A @ B^T in fp16 (B stored N x K, column-major as the GEMM's B operand)."""
import torch
import torch.nn as nn

M, N, K = 512, 384, 256


class Model(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b.transpose(0, 1))


def get_inputs():
    return [torch.randn(M, K, dtype=torch.float16), torch.randn(N, K, dtype=torch.float16)]


def get_init_inputs():
    return []
