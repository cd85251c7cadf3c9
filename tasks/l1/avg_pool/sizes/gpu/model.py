import torch
import torch.nn as nn


class Model(nn.Module):
    """2-D average pooling, 3x3 window, stride 2, padding 1."""

    def __init__(self):
        super().__init__()
        self.pool = nn.AvgPool2d(kernel_size=3, stride=2, padding=1)

    def forward(self, x):
        return self.pool(x)


batch_size = 1
channels = 64
height = 56
width = 56


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return []
