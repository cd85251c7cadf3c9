import torch
import torch.nn as nn


class Model(nn.Module):
    """MLP whose weights are int8 values (stored as float32, rounded and clamped to [-128, 127]
    in forward) dequantized with a per-output-channel scale, then matmul + bias; ReLU between."""

    def __init__(self, dim, hidden):
        super().__init__()
        self.w1_int = nn.Parameter(torch.zeros(hidden, dim))
        self.w1_scale = nn.Parameter(torch.ones(hidden))
        self.b1 = nn.Parameter(torch.zeros(hidden))
        self.w2_int = nn.Parameter(torch.zeros(dim, hidden))
        self.w2_scale = nn.Parameter(torch.ones(dim))
        self.b2 = nn.Parameter(torch.zeros(dim))

    def dequant(self, w_int, scale):
        w_q = torch.clamp(torch.round(w_int * 16), -128, 127)
        return w_q * (scale[:, None] / 16)

    def forward(self, x):
        w1 = self.dequant(self.w1_int, self.w1_scale)
        w2 = self.dequant(self.w2_int, self.w2_scale)
        h = torch.relu(torch.matmul(x, w1.t()) + self.b1)
        return torch.matmul(h, w2.t()) + self.b2


batch_size = 1
tokens = 64
dim = 128
hidden = 256


def get_inputs():
    return [torch.randn(batch_size, tokens, dim)]


def get_init_inputs():
    return [dim, hidden]
