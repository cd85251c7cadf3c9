import torch
import torch.nn as nn


class Model(nn.Module):
    """Transformer feed-forward sublayer with pre-norm: LayerNorm, Linear, GELU, Linear, residual add."""

    def __init__(self, dim, hidden):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x):
        return x + self.fc2(self.act(self.fc1(self.norm(x))))


batch_size = 1
tokens = 64
dim = 128
hidden = 256


def get_inputs():
    return [torch.randn(batch_size, tokens, dim)]


def get_init_inputs():
    return [dim, hidden]
