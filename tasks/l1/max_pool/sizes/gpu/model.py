import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """2-D max pooling, 3x3 window, stride 2, 1 x 64 x 56 x 56."""

    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)

    def forward(self, x):
        return self.pool(x)


C = 64
H = 56
W = 56


def get_inputs():
    return [torch.randn(1, C, H, W)]


def get_init_inputs():
    return []
