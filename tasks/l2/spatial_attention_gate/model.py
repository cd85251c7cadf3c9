import torch
import torch.nn as nn


class Model(nn.Module):
    """Spatial attention gate: a 3x3 conv feature with ReLU, a 1x1 conv to a single-channel
    attention map, sigmoid, and the features scaled by the map at every pixel."""

    def __init__(self, in_channels, channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, channels, kernel_size=3, padding=1)
        self.relu = nn.ReLU()
        self.attn = nn.Conv2d(channels, 1, kernel_size=1)

    def forward(self, x):
        y = self.relu(self.conv(x))
        return y * torch.sigmoid(self.attn(y))


batch_size = 1
in_channels = 32
channels = 32
height = 28
width = 28


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, channels]
