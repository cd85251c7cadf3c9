import torch
import torch.nn as nn


class Model(nn.Module):
    """SqueezeNet fire module: 1x1 squeeze + ReLU, then parallel 1x1 and 3x3 expands + ReLU, concatenated."""

    def __init__(self, in_channels, squeeze_channels, expand_channels):
        super().__init__()
        self.squeeze = nn.Conv2d(in_channels, squeeze_channels, kernel_size=1)
        self.expand1x1 = nn.Conv2d(squeeze_channels, expand_channels, kernel_size=1)
        self.expand3x3 = nn.Conv2d(squeeze_channels, expand_channels, kernel_size=3, padding=1)
        self.relu = nn.ReLU()

    def forward(self, x):
        s = self.relu(self.squeeze(x))
        return torch.cat([self.relu(self.expand1x1(s)), self.relu(self.expand3x3(s))], dim=1)


batch_size = 1
in_channels = 64
squeeze_channels = 16
expand_channels = 64
height = 24
width = 24


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, squeeze_channels, expand_channels]
