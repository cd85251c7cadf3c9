import torch
import torch.nn as nn


class Model(nn.Module):
    """ShuffleNetV1 unit (stride 1): grouped 1x1 conv, BN, ReLU, channel shuffle,
    depthwise 3x3, BN, grouped 1x1 conv, BN, add the input, ReLU."""

    def __init__(self, channels, bottleneck, groups):
        super().__init__()
        self.groups = groups
        self.gconv1 = nn.Conv2d(channels, bottleneck, kernel_size=1, groups=groups, bias=False)
        self.bn1 = nn.BatchNorm2d(bottleneck)
        self.dw = nn.Conv2d(bottleneck, bottleneck, kernel_size=3, padding=1, groups=bottleneck, bias=False)
        self.bn2 = nn.BatchNorm2d(bottleneck)
        self.gconv2 = nn.Conv2d(bottleneck, channels, kernel_size=1, groups=groups, bias=False)
        self.bn3 = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU()

    def channel_shuffle(self, x):
        b, c, h, w = x.shape
        x = x.reshape(b, self.groups, c // self.groups, h, w)
        x = x.transpose(1, 2)
        return x.reshape(b, c, h, w)

    def forward(self, x):
        y = self.relu(self.bn1(self.gconv1(x)))
        y = self.channel_shuffle(y)
        y = self.bn2(self.dw(y))
        y = self.bn3(self.gconv2(y))
        return self.relu(x + y)


batch_size = 1
channels = 64
bottleneck = 32
groups = 4
height = 28
width = 28


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels, bottleneck, groups]
