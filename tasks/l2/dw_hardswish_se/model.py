import torch
import torch.nn as nn


class Model(nn.Module):
    """MobileNetV3 style: depthwise 3x3 conv, BN, hardswish, then squeeze-and-excitation with
    1x1 convolutions, ReLU and a hard-sigmoid gate."""

    def __init__(self, channels, squeeze_channels):
        super().__init__()
        self.dw = nn.Conv2d(channels, channels, kernel_size=3, padding=1, groups=channels, bias=False)
        self.bn = nn.BatchNorm2d(channels)
        self.act = nn.Hardswish()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc1 = nn.Conv2d(channels, squeeze_channels, kernel_size=1)
        self.fc2 = nn.Conv2d(squeeze_channels, channels, kernel_size=1)
        self.gate = nn.Hardsigmoid()

    def forward(self, x):
        y = self.act(self.bn(self.dw(x)))
        s = self.gate(self.fc2(torch.relu(self.fc1(self.pool(y)))))
        return y * s


batch_size = 1
channels = 48
squeeze_channels = 12
height = 28
width = 28


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels, squeeze_channels]
