import torch
import torch.nn as nn


class Model(nn.Module):
    """3x3 convolution with bias, same padding."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1, bias=True)

    def forward(self, x):
        return self.conv(x)


batch_size = 1
in_channels = 32
out_channels = 32
height = 28
width = 28


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels]
