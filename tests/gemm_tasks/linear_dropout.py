"""dropout(x @ W^T + b) in training mode: random numbers the evaluator cannot reproduce, so the
expert declines it (the declined task of the agent and CLI tests)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH, IN, OUT = 128, 256, 512


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(IN, OUT)

    def forward(self, x):
        return F.dropout(self.fc(x), p=0.5, training=True)


def get_inputs():
    return [torch.randn(BATCH, IN)]


def get_init_inputs():
    return []
