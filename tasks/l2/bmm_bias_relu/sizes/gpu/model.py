import torch
import torch.nn as nn


class Model(nn.Module):
    """Batched matrix multiply of two inputs, a learned bias broadcast over the last axis, ReLU."""

    def __init__(self, n):
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(n))

    def forward(self, a, b):
        return torch.relu(torch.bmm(a, b) + self.bias)


batch_size = 4
m = 64
k = 128
n = 64


def get_inputs():
    return [torch.randn(batch_size, m, k), torch.randn(batch_size, k, n)]


def get_init_inputs():
    return [n]
