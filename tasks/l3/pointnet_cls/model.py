import torch
import torch.nn as nn
import torch.nn.functional as F


def max_over_points(x):
    # (B, C, N) -> (B, C): a max pool whose window covers every point
    return F.max_pool1d(x, kernel_size=x.shape[-1]).flatten(1)


def mlp1d(sizes):
    layers = []
    for cin, cout in zip(sizes[:-1], sizes[1:]):
        layers += [nn.Conv1d(cin, cout, 1, bias=False), nn.BatchNorm1d(cout), nn.ReLU()]
    return nn.Sequential(*layers)


class TNet(nn.Module):
    """Predicts a k x k alignment matrix (identity plus a learned offset)."""

    def __init__(self, k):
        super().__init__()
        self.k = k
        self.features = mlp1d([k, 32, 64, 128])
        self.fc = nn.Sequential(nn.Linear(128, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, k * k))

    def forward(self, x):
        g = max_over_points(self.features(x))
        idx = torch.arange(self.k)
        eye = (idx[:, None] == idx[None, :]).to(x.dtype).reshape(1, self.k * self.k)
        return (self.fc(g) + eye).reshape(-1, self.k, self.k)


class Model(nn.Module):
    """PointNet classifier (inference) on a point cloud of shape (1, 3, N): an
    input T-Net aligning the xyz coordinates, a shared per-point MLP (1x1
    Conv1d + BN + ReLU, 3 -> 64 -> 64 -> 128 -> 256), max pooling over points
    to a global feature, and an MLP head 256 -> 128 -> 64 -> classes with batch
    norm."""

    def __init__(self, num_classes):
        super().__init__()
        self.tnet = TNet(3)
        self.features = mlp1d([3, 64, 64, 128, 256])
        self.head = nn.Sequential(
            nn.Linear(256, 128), nn.BatchNorm1d(128), nn.ReLU(),
            nn.Linear(128, 64), nn.BatchNorm1d(64), nn.ReLU(),
            nn.Linear(64, num_classes),
        )

    def forward(self, x):
        t = self.tnet(x)
        x = torch.bmm(t.transpose(1, 2), x)
        g = max_over_points(self.features(x))
        return self.head(g)


batch_size = 1
num_points = 256
num_classes = 40


def get_inputs():
    return [torch.randn(batch_size, 3, num_points)]


def get_init_inputs():
    return [num_classes]
