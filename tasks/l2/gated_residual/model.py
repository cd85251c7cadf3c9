import torch
import torch.nn as nn


class Model(nn.Module):
    """Gated residual unit: a two-layer MLP branch f(x), scaled elementwise by a sigmoid gate
    computed from x, added back to x."""

    def __init__(self, dim, hidden):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.fc2 = nn.Linear(hidden, dim)
        self.gate = nn.Linear(dim, dim)

    def forward(self, x):
        f = self.fc2(torch.relu(self.fc1(x)))
        g = torch.sigmoid(self.gate(x))
        return x + g * f


batch_size = 1
tokens = 64
dim = 128
hidden = 256


def get_inputs():
    return [torch.randn(batch_size, tokens, dim)]


def get_init_inputs():
    return [dim, hidden]
