import torch
import torch.nn as nn


class Model(nn.Module):
    """RMSNorm written by hand (x * rsqrt(mean(x^2) + eps) * weight), then a Linear projection."""

    def __init__(self, dim, out_features, eps):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))
        self.proj = nn.Linear(dim, out_features, bias=False)

    def forward(self, x):
        x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight
        return self.proj(x)


batch_size = 1
tokens = 64
dim = 256
out_features = 256
eps = 1e-6


def get_inputs():
    return [torch.randn(batch_size, tokens, dim)]


def get_init_inputs():
    return [dim, out_features, eps]
