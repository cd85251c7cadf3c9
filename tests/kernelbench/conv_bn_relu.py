import torch
import torch.nn as nn


class Model(nn.Module):
    """Conv + batch norm (running statistics become parameters) + ReLU."""

    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))


batch_size = 1
cin = 8
cout = 16
size = 16


def get_inputs():
    return [torch.randn(batch_size, cin, size, size)]


def get_init_inputs():
    return [cin, cout]
