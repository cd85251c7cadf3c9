import torch
import torch.nn as nn


class Model(nn.Module):
    """Grouped 3x3 convolution (ResNeXt style, no bias), batch norm, ReLU."""

    def __init__(self, channels, groups):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size=3, padding=1, groups=groups, bias=False)
        self.bn = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU()

    def forward(self, x):
        return self.relu(self.bn(self.conv(x)))


batch_size = 1
channels = 64
groups = 4
height = 28
width = 28


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels, groups]
