import torch
import torch.nn as nn


class Model(nn.Module):
    """Batched matrix multiply, as in attention scores."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.bmm(a, b)


batch_size = 8
m = 128
k = 64
n = 128


def get_inputs():
    return [torch.randn(batch_size, m, k), torch.randn(batch_size, k, n)]


def get_init_inputs():
    return []
