import torch
import torch.nn as nn


class Model(nn.Module):
    """Normalises by the Frobenius norm of 16M elements. TVM sums them in
    one float32 run (its running sum stops growing), and PyTorch's own
    float32 norm is 7e-4 off at this size, over the tolerance: the import
    needs kwb's staged sum and a reference computed in float64."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x / torch.norm(x, p="fro")


batch_size = 1
features = 64
dim1 = 512
dim2 = 512


def get_inputs():
    return [torch.randn(batch_size, features, dim1, dim2)]


def get_init_inputs():
    return []
