import torch
import torch.nn as nn


class Model(nn.Module):
    """A linear layer sized for a large GPU (a 2048 x 4096 x 4096 GEMM, about
    69 GFLOP) whose constants must agree: the layer's input width is the
    input's last dimension, so halving one without the other breaks it."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return torch.relu(self.linear(x))


batch_size = 2048
in_features = 4096
out_features = 4096


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
