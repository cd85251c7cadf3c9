import math

import torch
import torch.nn as nn


class Model(nn.Module):
    """Multi-head self-attention written out: QKV projection, split into heads,
    softmax(Q K^T / sqrt(head_dim)) V per head, merge heads, output projection."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.scale = 1.0 / math.sqrt(self.head_dim)

    def forward(self, x):
        b, n, c = x.shape
        qkv = self.qkv(x).reshape(b, n, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = torch.softmax(torch.matmul(q, k.transpose(-2, -1)) * self.scale, dim=-1)
        y = torch.matmul(attn, v).transpose(1, 2).reshape(b, n, c)
        return self.proj(y)


batch_size = 2
tokens = 64
dim = 128
heads = 4


def get_inputs():
    return [torch.randn(batch_size, tokens, dim)]


def get_init_inputs():
    return [dim, heads]
