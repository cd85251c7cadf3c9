import math

import torch
import torch.nn as nn


class Model(nn.Module):
    """Single-head self-attention: one Linear producing Q, K and V, softmax(Q K^T / sqrt(d)) V,
    then an output projection."""

    def __init__(self, dim):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.scale = 1.0 / math.sqrt(dim)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        attn = torch.softmax(torch.matmul(q, k.transpose(-2, -1)) * self.scale, dim=-1)
        return self.proj(torch.matmul(attn, v))


batch_size = 1
tokens = 64
dim = 128


def get_inputs():
    return [torch.randn(batch_size, tokens, dim)]


def get_init_inputs():
    return [dim]
