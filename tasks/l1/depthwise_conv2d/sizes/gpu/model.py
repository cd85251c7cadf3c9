import torch
import torch.nn as nn


class Model(nn.Module):
    """Depthwise 3x3 convolution (groups == channels), no bias."""

    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size=3, padding=1, groups=channels, bias=False)

    def forward(self, x):
        return self.conv(x)


batch_size = 1
channels = 64
height = 56
width = 56


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels]
