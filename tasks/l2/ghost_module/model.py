import torch
import torch.nn as nn


class Model(nn.Module):
    """GhostNet ghost module: a 1x1 primary conv makes half the output channels, a cheap
    depthwise 3x3 conv makes the other half from them, both with BN and ReLU, concatenated."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        init_channels = out_channels // 2
        self.primary = nn.Conv2d(in_channels, init_channels, kernel_size=1, bias=False)
        self.bn1 = nn.BatchNorm2d(init_channels)
        self.cheap = nn.Conv2d(init_channels, init_channels, kernel_size=3, padding=1, groups=init_channels, bias=False)
        self.bn2 = nn.BatchNorm2d(init_channels)
        self.relu = nn.ReLU()

    def forward(self, x):
        a = self.relu(self.bn1(self.primary(x)))
        b = self.relu(self.bn2(self.cheap(a)))
        return torch.cat([a, b], dim=1)


batch_size = 1
in_channels = 32
out_channels = 64
height = 28
width = 28


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels]
