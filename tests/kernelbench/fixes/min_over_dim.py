import torch
import torch.nn as nn


class Model(nn.Module):
    """torch.min over a dimension (values and indices), which TVM's
    frontend does not convert."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.min(x, dim=self.dim)[0]


batch_size = 16
dim1 = 256
dim2 = 256


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return [1]
