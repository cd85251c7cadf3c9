import torch
import torch.nn as nn


class Model(nn.Module):
    """2x upsampling by a transposed convolution (kernel 4, stride 2, padding 1), batch norm, ReLU
    (segmentation / keypoint decoder style)."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(in_channels, out_channels, kernel_size=4, stride=2, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(out_channels)
        self.relu = nn.ReLU()

    def forward(self, x):
        return self.relu(self.bn(self.deconv(x)))


batch_size = 1
in_channels = 64
out_channels = 32
height = 14
width = 14


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels]
