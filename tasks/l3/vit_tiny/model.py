import math

import torch
import torch.nn as nn


class EncoderLayer(nn.Module):
    def __init__(self, dim, heads, mlp_dim):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.norm1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, mlp_dim)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(mlp_dim, dim)

    def forward(self, x):
        b, n, c = x.shape
        qkv = self.qkv(self.norm1(x)).reshape(b, n, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = torch.softmax(torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.head_dim), dim=-1)
        x = x + self.proj(torch.matmul(attn, v).transpose(1, 2).reshape(b, n, c))
        return x + self.fc2(self.act(self.fc1(self.norm2(x))))


class Model(nn.Module):
    """Tiny Vision Transformer (inference): 4x4 patch embedding conv (32 x 32
    image -> 64 patches), a learned class token and position embedding, four
    pre-norm encoder layers (LayerNorm, 4-head self-attention, residual;
    LayerNorm, GELU MLP, residual), final LayerNorm and a linear head on the
    class token."""

    def __init__(self, image_size, patch, dim, depth, heads, mlp_dim, num_classes):
        super().__init__()
        patches = (image_size // patch) ** 2
        self.patch_embed = nn.Conv2d(3, dim, patch, patch)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, patches + 1, dim))
        self.layers = nn.Sequential(*[EncoderLayer(dim, heads, mlp_dim) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        x = torch.cat([cls, x], dim=1) + self.pos_embed
        x = self.norm(self.layers(x))
        return self.head(x[:, 0])


batch_size = 1
image_size = 32
patch = 4
dim = 128
depth = 4
heads = 4
mlp_dim = 256
num_classes = 10


def get_inputs():
    return [torch.randn(batch_size, 3, image_size, image_size)]


def get_init_inputs():
    return [image_size, patch, dim, depth, heads, mlp_dim, num_classes]
