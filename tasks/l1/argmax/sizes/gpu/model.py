import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Argmax over the last axis of a 256 x 1024 tensor (int64 output, exact)."""

    def __init__(self):
        super().__init__()
        pass

    def forward(self, x):
        return torch.argmax(x, dim=-1)


R = 256
C = 1024


def get_inputs():
    return [torch.randn(R, C)]


def get_init_inputs():
    return []
