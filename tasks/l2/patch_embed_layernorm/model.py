import torch
import torch.nn as nn


class Model(nn.Module):
    """Patch embedding: convolution with kernel = stride = patch size, flatten the patch grid
    into a token sequence, LayerNorm over the embedding."""

    def __init__(self, in_channels, embed_dim, patch):
        super().__init__()
        self.proj = nn.Conv2d(in_channels, embed_dim, kernel_size=patch, stride=patch)
        self.norm = nn.LayerNorm(embed_dim)

    def forward(self, x):
        y = self.proj(x)
        y = y.flatten(2).transpose(1, 2)
        return self.norm(y)


batch_size = 1
in_channels = 3
embed_dim = 96
patch = 7
height = 56
width = 56


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, embed_dim, patch]
