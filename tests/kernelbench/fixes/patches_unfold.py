import torch
import torch.nn as nn


class Model(nn.Module):
    """Tensor.unfold, which TVM's frontend lacks: a vision transformer's
    patches (windows that tile the image), and overlapping windows along a
    row, whose count does not divide it."""

    def __init__(self, patch):
        super().__init__()
        self.patch = patch

    def forward(self, x):
        p = self.patch
        patches = x.unfold(2, p, p).unfold(3, p, p)  # [B, C, H/p, W/p, p, p]
        patches = patches.reshape(x.shape[0], x.shape[1], -1, p * p).sum(-1)
        windows = x.unfold(-1, 5, 3).amax(-1)  # [B, C, H, (W - 5) // 3 + 1]
        return patches, windows


batch_size = 2
channels = 3
height = 32
width = 32


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [8]
