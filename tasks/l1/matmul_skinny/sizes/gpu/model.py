import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Tall-skinny matmul, (64 x 1024) @ (1024 x 64)."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, a, b):
        return torch.matmul(a, b)


M = 64
K = 1024
N = 64


def get_inputs():
    return [torch.randn(M, K), torch.randn(K, N)]


def get_init_inputs():
    return []
