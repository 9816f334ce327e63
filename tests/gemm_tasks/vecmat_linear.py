"""relu(x @ W^T + b) for a single row x (M == 1): vector-matrix, memory-bound."""
import torch
import torch.nn as nn

IN, OUT = 2048, 1536


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(IN, OUT)

    def forward(self, x):
        return torch.relu(self.fc(x))


def get_inputs():
    return [torch.randn(1, IN)]


def get_init_inputs():
    return []
