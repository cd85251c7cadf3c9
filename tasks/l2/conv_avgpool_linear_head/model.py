import torch
import torch.nn as nn


class Model(nn.Module):
    """Classification head: 1x1 convolution with ReLU, global average pooling, flatten, Linear."""

    def __init__(self, in_channels, hidden_channels, num_classes):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, hidden_channels, kernel_size=1)
        self.relu = nn.ReLU()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(hidden_channels, num_classes)

    def forward(self, x):
        y = self.pool(self.relu(self.conv(x)))
        return self.fc(torch.flatten(y, 1))


batch_size = 4
in_channels = 64
hidden_channels = 128
num_classes = 10
height = 14
width = 14


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, hidden_channels, num_classes]
