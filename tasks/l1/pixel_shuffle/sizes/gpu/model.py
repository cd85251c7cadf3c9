import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Pixel shuffle (reshape + transpose), 1 x 64 x 16 x 16 -> 1 x 16 x 32 x 32."""

    def __init__(self):
        super().__init__()
        self.shuffle = nn.PixelShuffle(2)

    def forward(self, x):
        return self.shuffle(x)


C = 64
H = 16
W = 16


def get_inputs():
    return [torch.randn(1, C, H, W)]


def get_init_inputs():
    return []
