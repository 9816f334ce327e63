"""relu(bmm(A, B^T)) in fp16: B stored batch x N x K (attention scores' layout)."""
import torch
import torch.nn as nn

BATCH, M, N, K = 8, 200, 136, 64


class Model(nn.Module):
    def forward(self, a, b):
        return torch.relu(torch.bmm(a, b.transpose(1, 2)))


def get_inputs():
    return [torch.randn(BATCH, M, K, dtype=torch.float16), torch.randn(BATCH, N, K, dtype=torch.float16)]


def get_init_inputs():
    return []
