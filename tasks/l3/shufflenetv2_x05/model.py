import torch
import torch.nn as nn


def channel_shuffle(x, groups):
    b, c, h, w = x.shape
    x = x.reshape(b, groups, c // groups, h, w).transpose(1, 2)
    return x.reshape(b, c, h, w)


class ShuffleUnit(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.stride = stride
        branch = cout // 2
        if stride > 1:
            self.branch1 = nn.Sequential(
                nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False),
                nn.BatchNorm2d(cin),
                nn.Conv2d(cin, branch, 1, bias=False),
                nn.BatchNorm2d(branch),
                nn.ReLU(),
            )
        b2_in = cin if stride > 1 else branch
        self.branch2 = nn.Sequential(
            nn.Conv2d(b2_in, branch, 1, bias=False),
            nn.BatchNorm2d(branch),
            nn.ReLU(),
            nn.Conv2d(branch, branch, 3, stride, 1, groups=branch, bias=False),
            nn.BatchNorm2d(branch),
            nn.Conv2d(branch, branch, 1, bias=False),
            nn.BatchNorm2d(branch),
            nn.ReLU(),
        )

    def forward(self, x):
        if self.stride == 1:
            x1, x2 = x.chunk(2, dim=1)
            out = torch.cat([x1, self.branch2(x2)], dim=1)
        else:
            out = torch.cat([self.branch1(x), self.branch2(x)], dim=1)
        return channel_shuffle(out, 2)


class Model(nn.Module):
    """ShuffleNetV2 x0.5 (inference): 3x3 stride-2 stem + BN + ReLU, 3x3 max
    pool, three stages (4, 8, 4 units) of ShuffleNetV2 units (channel split,
    1x1 / depthwise 3x3 / 1x1 branch with batch norm, concat, channel shuffle;
    a two-branch stride-2 unit opens each stage), 1x1 conv to 1024 channels,
    global average pool, linear classifier."""

    def __init__(self, num_classes):
        super().__init__()
        channels = [24, 48, 96, 192, 1024]
        repeats = [4, 8, 4]
        self.conv1 = nn.Sequential(nn.Conv2d(3, channels[0], 3, 2, 1, bias=False), nn.BatchNorm2d(channels[0]), nn.ReLU())
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        units = []
        cin = channels[0]
        for n, cout in zip(repeats, channels[1:4]):
            units.append(ShuffleUnit(cin, cout, 2))
            for _ in range(n - 1):
                units.append(ShuffleUnit(cout, cout, 1))
            cin = cout
        self.stages = nn.Sequential(*units)
        self.conv5 = nn.Sequential(nn.Conv2d(cin, channels[4], 1, bias=False), nn.BatchNorm2d(channels[4]), nn.ReLU())
        self.fc = nn.Linear(channels[4], num_classes)

    def forward(self, x):
        x = self.maxpool(self.conv1(x))
        x = self.conv5(self.stages(x))
        x = x.mean(dim=(2, 3))
        return self.fc(x)


batch_size = 1
num_classes = 100
height = 64
width = 64


def get_inputs():
    return [torch.randn(batch_size, 3, height, width)]


def get_init_inputs():
    return [num_classes]
