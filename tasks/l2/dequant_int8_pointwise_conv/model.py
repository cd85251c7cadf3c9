import torch
import torch.nn as nn


class Model(nn.Module):
    """Dequantized 1x1 convolution: int8 weight values (stored as float32, rounded and clamped
    to [-128, 127] in forward) times a per-output-channel scale, applied as a matmul over
    channels at every pixel, plus bias, ReLU6."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.w_int = nn.Parameter(torch.zeros(out_channels, in_channels))
        self.w_scale = nn.Parameter(torch.ones(out_channels))
        self.bias = nn.Parameter(torch.zeros(out_channels))

    def forward(self, x):
        b, c, h, w = x.shape
        w_q = torch.clamp(torch.round(self.w_int * 16), -128, 127)
        weight = w_q * (self.w_scale[:, None] / 16)
        cols = x.reshape(b, c, h * w)
        y = torch.matmul(weight, cols) + self.bias[None, :, None]
        y = torch.clamp(y, 0.0, 6.0)
        return y.reshape(b, -1, h, w)


batch_size = 1
in_channels = 32
out_channels = 64
height = 16
width = 16


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels]
