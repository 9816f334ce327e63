"""relu(conv2d(x)) in fp32 with the conv's bias, 3x3, padding 1 (an implicit GEMM on tensor cores,
TF32 as eager's cuDNN runs it, the bias and ReLU fused into its epilogue)."""
import torch
import torch.nn as nn

BATCH = 16
IN_CHANNELS = 64
OUT_CHANNELS = 128
SIZE = 128


class Model(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1, bias=True)

    def forward(self, x):
        return torch.relu(self.conv(x))


def get_inputs():
    return [torch.randn(BATCH, IN_CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS]
