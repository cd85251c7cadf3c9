import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Transposed convolution (upsampling x2), 32 -> 16 channels, 14 x 14 -> 28 x 28."""

    def __init__(self):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(CIN, COUT, kernel_size=4, stride=2, padding=1, bias=True)

    def forward(self, x):
        return self.deconv(x)


CIN = 32
COUT = 16
H = 14
W = 14


def get_inputs():
    return [torch.randn(1, CIN, H, W)]


def get_init_inputs():
    return []
