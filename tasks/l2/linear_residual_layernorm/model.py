import torch
import torch.nn as nn


class Model(nn.Module):
    """Linear projection added back to its input, then LayerNorm (post-norm transformer sublayer)."""

    def __init__(self, features):
        super().__init__()
        self.fc = nn.Linear(features, features)
        self.norm = nn.LayerNorm(features)

    def forward(self, x):
        return self.norm(x + self.fc(x))


batch_size = 1
tokens = 64
features = 128


def get_inputs():
    return [torch.randn(batch_size, tokens, features)]


def get_init_inputs():
    return [features]
