import torch
import torch.nn as nn


class Model(nn.Module):
    """RMS normalisation of an input just under kwb's default size bound of
    256 MiB of inputs and parameters: the import holds it, PyTorch's outputs
    and TVM's buffers for one seed at a time and must not run out of memory
    before the bound it enforces does."""

    def __init__(self, eps):
        super().__init__()
        self.eps = eps

    def forward(self, x):
        return x / torch.sqrt(torch.mean(x * x, dim=1, keepdim=True) + self.eps)


batch_size = 4
features = 64
dim1 = 504
dim2 = 512


def get_inputs():
    return [torch.randn(batch_size, features, dim1, dim2)]


def get_init_inputs():
    return [1e-5]
