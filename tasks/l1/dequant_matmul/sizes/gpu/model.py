import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Dequantize-then-matmul: x (64 x 256) @ (int8 weights 256 x 128 times per-column scales)."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, x, w, scale):
        return torch.matmul(x, w.to(torch.float32) * scale)


M = 64
K = 256
N = 128


def get_inputs():
    return [torch.randn(M, K), torch.randint(-128, 128, (K, N), dtype=torch.int8), torch.rand(N)]


def get_init_inputs():
    return []
