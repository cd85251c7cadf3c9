import torch
import torch.nn as nn


class Model(nn.Module):
    """ResNet bottleneck block: 1x1 reduce, 3x3, 1x1 expand, each with BN (ReLU after the
    first two), add the identity, ReLU."""

    def __init__(self, channels, width):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, width, kernel_size=1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width, kernel_size=3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(width)
        self.conv3 = nn.Conv2d(width, channels, kernel_size=1, bias=False)
        self.bn3 = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU()

    def forward(self, x):
        y = self.relu(self.bn1(self.conv1(x)))
        y = self.relu(self.bn2(self.conv2(y)))
        y = self.bn3(self.conv3(y))
        return self.relu(x + y)


batch_size = 1
channels = 128
bottleneck_width = 32
height = 14
width = 14


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels, bottleneck_width]
