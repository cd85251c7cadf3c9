import torch
import torch.nn as nn


class Model(nn.Module):
    """Anchor-based detection head on one feature level: a shared 3x3 conv with ReLU, then
    two 1x1 convs giving class logits and box regression deltas per anchor (two outputs)."""

    def __init__(self, channels, anchors, classes):
        super().__init__()
        self.shared = nn.Conv2d(channels, channels, kernel_size=3, padding=1)
        self.relu = nn.ReLU()
        self.cls = nn.Conv2d(channels, anchors * classes, kernel_size=1)
        self.box = nn.Conv2d(channels, anchors * 4, kernel_size=1)

    def forward(self, x):
        y = self.relu(self.shared(x))
        return self.cls(y), self.box(y)


batch_size = 1
channels = 48
anchors = 3
classes = 8
height = 20
width = 20


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels, anchors, classes]
