import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """5x5 convolution, 16 -> 32 channels, 32 x 32."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(CIN, COUT, kernel_size=5, padding=2, bias=True)

    def forward(self, x):
        return self.conv(x)


CIN = 16
COUT = 32
H = 32
W = 32


def get_inputs():
    return [torch.randn(1, CIN, H, W)]


def get_init_inputs():
    return []
