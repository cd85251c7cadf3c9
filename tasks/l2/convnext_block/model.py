import torch
import torch.nn as nn


class Model(nn.Module):
    """ConvNeXt block: depthwise 7x7 conv, LayerNorm over channels (channels-last via permute),
    pointwise MLP with GELU (expansion 4), permute back, residual add."""

    def __init__(self, dim):
        super().__init__()
        self.dwconv = nn.Conv2d(dim, dim, kernel_size=7, padding=3, groups=dim)
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.pwconv1 = nn.Linear(dim, 4 * dim)
        self.act = nn.GELU()
        self.pwconv2 = nn.Linear(4 * dim, dim)

    def forward(self, x):
        y = self.dwconv(x)
        y = y.permute(0, 2, 3, 1)
        y = self.norm(y)
        y = self.pwconv2(self.act(self.pwconv1(y)))
        y = y.permute(0, 3, 1, 2)
        return x + y


batch_size = 1
dim = 48
height = 14
width = 14


def get_inputs():
    return [torch.randn(batch_size, dim, height, width)]


def get_init_inputs():
    return [dim]
