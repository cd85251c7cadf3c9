import torch
import torch.nn as nn


class Model(nn.Module):
    """Conv2d then GroupNorm with about 1M elements a group."""

    def __init__(self, cin, cout, groups):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3)
        self.gn = nn.GroupNorm(groups, cout)

    def forward(self, x):
        return self.gn(self.conv(x))


batch_size = 2
cin = 4
cout = 32
groups = 2
size = 256


def get_inputs():
    return [torch.randn(batch_size, cin, size, size)]


def get_init_inputs():
    return [cin, cout, groups]
