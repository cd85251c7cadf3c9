import math

import torch
import torch.nn as nn


class Model(nn.Module):
    """Rotary position embedding: project Q and K, rotate them by position-dependent angles
    (cos/sin tables computed from positions in forward), then scaled attention scores Q K^T."""

    def __init__(self, dim, heads, base):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.base = base
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)

    def rotate_half(self, x):
        half = self.head_dim // 2
        x1 = x[..., :half]
        x2 = x[..., half:]
        return torch.cat((-x2, x1), dim=-1)

    def forward(self, x):
        b, n, c = x.shape
        q = self.q(x).reshape(b, n, self.heads, self.head_dim).transpose(1, 2)
        k = self.k(x).reshape(b, n, self.heads, self.head_dim).transpose(1, 2)
        idx = torch.arange(0, self.head_dim, 2, dtype=torch.float32)
        inv_freq = 1.0 / (self.base ** (idx / self.head_dim))
        pos = torch.arange(n, dtype=torch.float32)
        freqs = pos[:, None] * inv_freq[None, :]
        emb = torch.cat((freqs, freqs), dim=-1)
        cos = emb.cos()
        sin = emb.sin()
        q = q * cos + self.rotate_half(q) * sin
        k = k * cos + self.rotate_half(k) * sin
        return torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(self.head_dim))


batch_size = 1
tokens = 64
dim = 128
heads = 4
base = 10000


def get_inputs():
    return [torch.randn(batch_size, tokens, dim)]


def get_init_inputs():
    return [dim, heads, base]
