import torch
import torch.nn as nn


class Model(nn.Module):
    """DS-CNN keyword spotter (inference), as in "Hello Edge": a 10x4 stride-2
    conv over a 49-frame x 10-coefficient MFCC map + BN + ReLU, four
    depthwise-separable blocks (depthwise 3x3 + BN + ReLU, pointwise 1x1 + BN +
    ReLU), global average pool and a linear layer to 12 keyword classes."""

    def __init__(self, channels, blocks, num_classes):
        super().__init__()
        layers = [
            nn.Conv2d(1, channels, (10, 4), stride=(2, 2), padding=(5, 1), bias=False),
            nn.BatchNorm2d(channels),
            nn.ReLU(),
        ]
        for _ in range(blocks):
            layers += [
                nn.Conv2d(channels, channels, 3, padding=1, groups=channels, bias=False),
                nn.BatchNorm2d(channels),
                nn.ReLU(),
                nn.Conv2d(channels, channels, 1, bias=False),
                nn.BatchNorm2d(channels),
                nn.ReLU(),
            ]
        self.features = nn.Sequential(*layers)
        self.fc = nn.Linear(channels, num_classes)

    def forward(self, x):
        x = self.features(x)
        return self.fc(x.mean(dim=(2, 3)))


batch_size = 1
frames = 49
mfcc = 10
channels = 64
blocks = 4
num_classes = 12


def get_inputs():
    return [torch.randn(batch_size, 1, frames, mfcc)]


def get_init_inputs():
    return [channels, blocks, num_classes]
