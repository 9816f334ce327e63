"""A depthwise separable convolution in fp32: a depthwise 3x3 convolution (groups == channels) and a
pointwise 1x1 one after it. The expert runs the depthwise one ahead as the chain's prologue, writing
the pointwise one's input into a buffer (TF32 tensor cores over its 64 channels)."""
import torch
import torch.nn as nn

BATCH = 8
CHANNELS = 64
OUT_CHANNELS = 128
SIZE = 128


class Model(nn.Module):
    def __init__(self, channels, out_channels):
        super().__init__()
        self.depthwise = nn.Conv2d(channels, channels, kernel_size=3, padding=1, groups=channels, bias=False)
        self.pointwise = nn.Conv2d(channels, out_channels, kernel_size=1, bias=False)

    def forward(self, x):
        return self.pointwise(self.depthwise(x))


def get_inputs():
    return [torch.randn(BATCH, CHANNELS, SIZE, SIZE)]


def get_init_inputs():
    return [CHANNELS, OUT_CHANNELS]
