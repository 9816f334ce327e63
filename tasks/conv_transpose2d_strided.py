"""conv_transpose2d(x) in fp32, stride 5, a 3x3 kernel at dilation 2, padding 1: each output pixel
takes at most one tap per dim (the expert's gathered transposed template serves it beside the phases'
GEMMs)."""
import torch
import torch.nn as nn

BATCH = 4
IN_CHANNELS = 32
OUT_CHANNELS = 32
HEIGHT = 48
WIDTH = 96


class Model(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.ConvTranspose2d(in_channels, out_channels, kernel_size=3, stride=5, padding=1, dilation=2,
                                       bias=False)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS]
