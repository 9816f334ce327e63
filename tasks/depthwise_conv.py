"""A depthwise 3x3 convolution in fp32 (groups == channels): too few multiply-adds per byte for
tensor cores, so the expert's memory-bound template in exact fp32."""
import torch
import torch.nn as nn

BATCH = 16
CHANNELS = 64
SIZE = 256


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size=3, groups=channels, bias=False)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS]
