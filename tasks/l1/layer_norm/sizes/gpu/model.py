import torch
import torch.nn as nn


class Model(nn.Module):
    """LayerNorm over the feature axis, with a learned scale and shift."""

    def __init__(self, features):
        super().__init__()
        self.norm = nn.LayerNorm(features)

    def forward(self, x):
        return self.norm(x)


batch_size = 16
tokens = 64
features = 256


def get_inputs():
    return [torch.randn(batch_size, tokens, features)]


def get_init_inputs():
    return [features]
