import torch
import torch.nn as nn


class Model(nn.Module):
    """Outputs of magnitude 1e-12: an all-zero candidate would pass an absolute tolerance."""

    def forward(self, x):
        return x * 1e-12


def get_inputs():
    return [torch.randn(64, 64)]


def get_init_inputs():
    return []
