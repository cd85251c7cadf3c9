import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Batched matmul, 16 x (64 x 32) @ (32 x 64)."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, a, b):
        return torch.bmm(a, b)


B = 16
M = 64
K = 32
N = 64


def get_inputs():
    return [torch.randn(B, M, K), torch.randn(B, K, N)]


def get_init_inputs():
    return []
