import torch
import torch.nn as nn


class Model(nn.Module):
    """SELU, which torch decomposes to elu with a scale that TVM's converter drops."""

    def __init__(self):
        super().__init__()
        self.act = nn.SELU()

    def forward(self, x):
        return self.act(x)


batch_size = 128
dim = 4096


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
