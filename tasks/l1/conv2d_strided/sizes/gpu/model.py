import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """3x3 convolution, stride 2, 32 -> 64 channels, 56 x 56 -> 28 x 28."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(CIN, COUT, kernel_size=3, stride=2, padding=1, bias=True)

    def forward(self, x):
        return self.conv(x)


CIN = 32
COUT = 64
H = 56
W = 56


def get_inputs():
    return [torch.randn(1, CIN, H, W)]


def get_init_inputs():
    return []
