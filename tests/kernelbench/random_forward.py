import torch
import torch.nn as nn


class Model(nn.Module):
    """A random mask drawn from the input in forward: not a static program.
    (Draws from a fixed distribution, torch.randn and torch.rand, become
    inputs of the task; one whose distribution depends on the input
    cannot.)"""

    def forward(self, x):
        return x * torch.bernoulli(torch.sigmoid(x))


def get_inputs():
    return [torch.randn(64, 64)]


def get_init_inputs():
    return []
