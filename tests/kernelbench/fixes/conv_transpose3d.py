import torch
import torch.nn as nn


class Model(nn.Module):
    """A strided, padded, grouped 3D transposed convolution, which TVM's
    frontend does not convert."""

    def __init__(self, cin, cout, kernel_size, stride, padding, output_padding, groups):
        super().__init__()
        self.conv = nn.ConvTranspose3d(cin, cout, kernel_size, stride=stride, padding=padding,
                                       output_padding=output_padding, groups=groups)

    def forward(self, x):
        return self.conv(x)


batch_size = 2
in_channels = 8
out_channels = 8
kernel_size = (3, 5, 3)
stride = (2, 2, 2)
padding = (1, 2, 1)
output_padding = (1, 1, 1)
groups = 2
depth = 8
height = 12
width = 8


def get_inputs():
    return [torch.randn(batch_size, in_channels, depth, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, stride, padding, output_padding, groups]
