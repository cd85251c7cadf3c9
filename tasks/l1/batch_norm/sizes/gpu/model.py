import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Batch norm (inference, running statistics), 1 x 64 x 28 x 28."""

    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm2d(C)

    def forward(self, x):
        return self.bn(x)


C = 64
H = 28
W = 28


def get_inputs():
    return [torch.randn(1, C, H, W)]


def get_init_inputs():
    return []
