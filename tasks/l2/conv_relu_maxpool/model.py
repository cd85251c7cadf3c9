import torch
import torch.nn as nn


class Model(nn.Module):
    """3x3 convolution with bias, ReLU, then 2x2 max pooling with stride 2."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)

    def forward(self, x):
        return self.pool(self.relu(self.conv(x)))


batch_size = 1
in_channels = 16
out_channels = 32
height = 48
width = 48


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels]
