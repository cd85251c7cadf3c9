import math

import torch
import torch.nn as nn


class Model(nn.Module):
    """Cross-attention between two inputs: queries from x, keys and values from a context
    sequence, softmax(Q K^T / sqrt(head_dim)) V per head, output projection."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)
        self.proj = nn.Linear(dim, dim)
        self.scale = 1.0 / math.sqrt(self.head_dim)

    def forward(self, x, context):
        b, n, c = x.shape
        m = context.shape[1]
        q = self.q(x).reshape(b, n, self.heads, self.head_dim).transpose(1, 2)
        kv = self.kv(context).reshape(b, m, 2, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        k, v = kv[0], kv[1]
        attn = torch.softmax(torch.matmul(q, k.transpose(-2, -1)) * self.scale, dim=-1)
        y = torch.matmul(attn, v).transpose(1, 2).reshape(b, n, c)
        return self.proj(y)


batch_size = 1
query_tokens = 64
context_tokens = 96
dim = 128
heads = 4


def get_inputs():
    return [torch.randn(batch_size, query_tokens, dim), torch.randn(batch_size, context_tokens, dim)]


def get_init_inputs():
    return [dim, heads]
