import torch
import torch.nn as nn


class Model(nn.Module):
    """Temporal convolutional block for sensor or audio sequences: dilated 1-D conv, BN, ReLU,
    1-D conv, BN, add the input, ReLU."""

    def __init__(self, channels, dilation):
        super().__init__()
        self.conv1 = nn.Conv1d(channels, channels, kernel_size=3, padding=dilation, dilation=dilation, bias=False)
        self.bn1 = nn.BatchNorm1d(channels)
        self.conv2 = nn.Conv1d(channels, channels, kernel_size=3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm1d(channels)
        self.relu = nn.ReLU()

    def forward(self, x):
        y = self.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return self.relu(x + y)


batch_size = 1
channels = 32
dilation = 2
steps = 128


def get_inputs():
    return [torch.randn(batch_size, channels, steps)]


def get_init_inputs():
    return [channels, dilation]
