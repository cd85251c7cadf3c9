import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Feature pyramid top-down step: lateral 1x1 conv on the fine feature map, nearest-neighbour
    2x upsampling of the coarser pyramid level, elementwise add, 3x3 smoothing conv."""

    def __init__(self, fine_channels, channels):
        super().__init__()
        self.lateral = nn.Conv2d(fine_channels, channels, kernel_size=1)
        self.smooth = nn.Conv2d(channels, channels, kernel_size=3, padding=1)

    def forward(self, fine, coarse):
        top = F.interpolate(coarse, scale_factor=2, mode="nearest")
        return self.smooth(self.lateral(fine) + top)


batch_size = 1
fine_channels = 64
channels = 32
height = 28
width = 28


def get_inputs():
    return [
        torch.randn(batch_size, fine_channels, height, width),
        torch.randn(batch_size, channels, height // 2, width // 2),
    ]


def get_init_inputs():
    return [fine_channels, channels]
