import torch
import torch.nn as nn


class SqueezeExcite(nn.Module):
    def __init__(self, channels, reduced):
        super().__init__()
        self.reduce = nn.Conv2d(channels, reduced, 1)
        self.expand = nn.Conv2d(reduced, channels, 1)
        self.act = nn.SiLU()

    def forward(self, x):
        s = x.mean(dim=(2, 3), keepdim=True)
        s = torch.sigmoid(self.expand(self.act(self.reduce(s))))
        return x * s


class MBConv(nn.Module):
    def __init__(self, cin, cout, kernel_size, stride, expand_ratio):
        super().__init__()
        hidden = cin * expand_ratio
        self.use_residual = stride == 1 and cin == cout
        layers = []
        if expand_ratio != 1:
            layers += [nn.Conv2d(cin, hidden, 1, bias=False), nn.BatchNorm2d(hidden), nn.SiLU()]
        layers += [
            nn.Conv2d(hidden, hidden, kernel_size, stride, kernel_size // 2, groups=hidden, bias=False),
            nn.BatchNorm2d(hidden),
            nn.SiLU(),
            SqueezeExcite(hidden, max(1, cin // 4)),
            nn.Conv2d(hidden, cout, 1, bias=False),
            nn.BatchNorm2d(cout),
        ]
        self.block = nn.Sequential(*layers)

    def forward(self, x):
        if self.use_residual:
            return x + self.block(x)
        return self.block(x)


class Model(nn.Module):
    """EfficientNet-B0-style network at half width (inference): 3x3 stride-2
    stem + BN + SiLU, seven stages of MBConv blocks (1x1 expand, depthwise 3x3
    or 5x5, squeeze-and-excitation with SiLU and a sigmoid gate, linear 1x1
    projection, batch norm, residual where shapes match), 1x1 head conv to 640
    channels, global average pool, linear classifier."""

    def __init__(self, num_classes):
        super().__init__()
        stages = [
            # expand ratio, channels, repeats, first stride, kernel
            [1, 8, 1, 1, 3],
            [6, 12, 2, 2, 3],
            [6, 20, 2, 2, 5],
            [6, 40, 2, 2, 3],
            [6, 56, 2, 1, 5],
            [6, 96, 2, 2, 5],
            [6, 160, 1, 1, 3],
        ]
        cin = 16
        self.stem = nn.Sequential(nn.Conv2d(3, cin, 3, 2, 1, bias=False), nn.BatchNorm2d(cin), nn.SiLU())
        blocks = []
        for t, c, n, s, k in stages:
            for i in range(n):
                blocks.append(MBConv(cin, c, k, s if i == 0 else 1, t))
                cin = c
        self.blocks = nn.Sequential(*blocks)
        self.head = nn.Sequential(nn.Conv2d(cin, 640, 1, bias=False), nn.BatchNorm2d(640), nn.SiLU())
        self.classifier = nn.Linear(640, num_classes)

    def forward(self, x):
        x = self.head(self.blocks(self.stem(x)))
        return self.classifier(x.mean(dim=(2, 3)))


batch_size = 1
num_classes = 100
height = 96
width = 96


def get_inputs():
    return [torch.randn(batch_size, 3, height, width)]


def get_init_inputs():
    return [num_classes]
