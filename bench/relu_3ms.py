"""ReLU at KernelBench level-1 size (4096 x 393216 fp32, 6 GiB each way): about 3 ms eager on an
H200. Used to benchmark the evaluator's own cost per candidate; the honest kernel reads its size
from the ABI header, so tests/gpu/relu/honest_relu.cu serves this task too."""
import torch
import torch.nn as nn

ROWS = 4096
COLS = 393216


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
