import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Embedding lookup (gather), 128 token ids into a 1000 x 64 table."""

    def __init__(self):
        super().__init__()
        self.table = nn.Embedding(V, D)

    def forward(self, ids):
        return self.table(ids)


V = 1000
T = 128
D = 64


def get_inputs():
    return [torch.randint(0, V, (1, T))]


def get_init_inputs():
    return []
