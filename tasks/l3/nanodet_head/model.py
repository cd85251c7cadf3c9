import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_bn_relu(cin, cout, kernel_size=3, stride=1, groups=1):
    return nn.Sequential(
        nn.Conv2d(cin, cout, kernel_size, stride, (kernel_size - 1) // 2, groups=groups, bias=False),
        nn.BatchNorm2d(cout),
        nn.LeakyReLU(0.1),
    )


def dw_separable(cin, cout, stride=1):
    return nn.Sequential(conv_bn_relu(cin, cin, 3, stride, groups=cin), conv_bn_relu(cin, cout, 1))


class Model(nn.Module):
    """NanoDet-style detector (inference): a small depthwise-separable backbone
    giving stride-8/16/32 feature maps, a PAN-lite neck (1x1 lateral convs to a
    common width, top-down nearest upsampling + add, bottom-up bilinear
    downsampling + add), and a head shared across the three levels: two
    depthwise-separable conv blocks, then a 1x1 conv producing class scores and
    GFL box-distribution logits (4 x (reg_max + 1)) per location. Returns the
    class scores (1, locations, classes) and box logits (1, locations, 4 x 8)
    of all levels concatenated."""

    def __init__(self, num_classes, neck_channels, reg_max):
        super().__init__()
        self.num_classes = num_classes
        self.stem = conv_bn_relu(3, 16, 3, 2)                                      # /2
        self.stage1 = nn.Sequential(dw_separable(16, 24, 2), dw_separable(24, 24))  # /4
        self.stage2 = nn.Sequential(dw_separable(24, 48, 2), dw_separable(48, 48))  # /8
        self.stage3 = nn.Sequential(dw_separable(48, 96, 2), dw_separable(96, 96))  # /16
        self.stage4 = nn.Sequential(dw_separable(96, 192, 2), dw_separable(192, 192))  # /32
        self.lateral = nn.ModuleList([conv_bn_relu(c, neck_channels, 1) for c in (48, 96, 192)])
        self.head = nn.Sequential(dw_separable(neck_channels, neck_channels), dw_separable(neck_channels, neck_channels))
        self.out = nn.Conv2d(neck_channels, num_classes + 4 * (reg_max + 1), 1)

    def forward(self, x):
        x = self.stem(x)
        c3 = self.stage2(self.stage1(x))
        c4 = self.stage3(c3)
        c5 = self.stage4(c4)
        p3, p4, p5 = self.lateral[0](c3), self.lateral[1](c4), self.lateral[2](c5)
        # top-down
        p4 = p4 + F.interpolate(p5, scale_factor=2.0, mode="nearest")
        p3 = p3 + F.interpolate(p4, scale_factor=2.0, mode="nearest")
        # bottom-up
        p4 = p4 + F.interpolate(p3, scale_factor=0.5, mode="bilinear", align_corners=False)
        p5 = p5 + F.interpolate(p4, scale_factor=0.5, mode="bilinear", align_corners=False)
        outs = []
        for p in (p3, p4, p5):
            y = self.out(self.head(p))
            outs.append(y.flatten(2))
        y = torch.cat(outs, dim=2).transpose(1, 2)
        cls_scores = torch.sigmoid(y[:, :, : self.num_classes])
        box_logits = y[:, :, self.num_classes :]
        return cls_scores, box_logits


batch_size = 1
num_classes = 20
neck_channels = 64
reg_max = 7
height = 128
width = 128


def get_inputs():
    return [torch.randn(batch_size, 3, height, width)]


def get_init_inputs():
    return [num_classes, neck_channels, reg_max]
