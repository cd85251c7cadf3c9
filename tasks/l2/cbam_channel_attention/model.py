import torch
import torch.nn as nn


class Model(nn.Module):
    """CBAM channel attention: global average and global max pooling, one shared MLP applied
    to both, their sum through a sigmoid scales each channel."""

    def __init__(self, channels, reduction):
        super().__init__()
        self.fc1 = nn.Linear(channels, channels // reduction)
        self.fc2 = nn.Linear(channels // reduction, channels)

    def mlp(self, s):
        return self.fc2(torch.relu(self.fc1(s)))

    def forward(self, x):
        avg = x.mean(dim=(2, 3))
        mx = x.flatten(2).max(dim=-1)[0]
        w = torch.sigmoid(self.mlp(avg) + self.mlp(mx))
        return x * w[:, :, None, None]


batch_size = 1
channels = 64
reduction = 8
height = 28
width = 28


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels, reduction]
