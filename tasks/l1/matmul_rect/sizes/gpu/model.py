import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Rectangular matmul, (128 x 512) @ (512 x 256)."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, a, b):
        return torch.matmul(a, b)


M = 128
K = 512
N = 256


def get_inputs():
    return [torch.randn(M, K), torch.randn(K, N)]


def get_init_inputs():
    return []
