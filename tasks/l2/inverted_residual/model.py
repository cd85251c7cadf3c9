import torch
import torch.nn as nn


class Model(nn.Module):
    """MobileNetV2 inverted residual: 1x1 expand + BN + ReLU6, depthwise 3x3 + BN + ReLU6,
    1x1 linear projection + BN, added to the input."""

    def __init__(self, channels, expand_ratio):
        super().__init__()
        hidden = channels * expand_ratio
        self.expand = nn.Conv2d(channels, hidden, kernel_size=1, bias=False)
        self.bn1 = nn.BatchNorm2d(hidden)
        self.dw = nn.Conv2d(hidden, hidden, kernel_size=3, padding=1, groups=hidden, bias=False)
        self.bn2 = nn.BatchNorm2d(hidden)
        self.project = nn.Conv2d(hidden, channels, kernel_size=1, bias=False)
        self.bn3 = nn.BatchNorm2d(channels)
        self.act = nn.ReLU6()

    def forward(self, x):
        y = self.act(self.bn1(self.expand(x)))
        y = self.act(self.bn2(self.dw(y)))
        y = self.bn3(self.project(y))
        return x + y


batch_size = 1
channels = 24
expand_ratio = 6
height = 28
width = 28


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels, expand_ratio]
