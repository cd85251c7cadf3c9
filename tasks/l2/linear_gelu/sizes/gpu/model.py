import torch
import torch.nn as nn


class Model(nn.Module):
    """Matmul plus bias (a Linear layer) followed by the exact (erf) GELU."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)
        self.act = nn.GELU()

    def forward(self, x):
        return self.act(self.fc(x))


batch_size = 1
tokens = 64
in_features = 128
out_features = 256


def get_inputs():
    return [torch.randn(batch_size, tokens, in_features)]


def get_init_inputs():
    return [in_features, out_features]
