import torch
import torch.nn as nn


class Model(nn.Module):
    """InstanceNorm without affine parameters (its unit scale and zero shift
    become tensor constants in the converted module), then a per-channel
    gain held as a plain tensor attribute (a non-uniform tensor constant)."""

    def __init__(self, channels):
        super().__init__()
        self.norm = nn.InstanceNorm2d(channels)
        self.gain = torch.linspace(0.5, 1.5, channels).reshape(1, channels, 1, 1)

    def forward(self, x):
        return self.norm(x) * self.gain


batch_size = 2
channels = 8
height = 16
width = 16


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels]
