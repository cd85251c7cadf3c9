import torch
import torch.nn as nn


class Model(nn.Module):
    """PointNet-style point cloud encoder: a per-point MLP, a symmetric max over the points,
    and a Linear layer on the global feature."""

    def __init__(self, in_dim, hidden1, hidden2, out_dim):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden1)
        self.fc2 = nn.Linear(hidden1, hidden2)
        self.head = nn.Linear(hidden2, out_dim)

    def forward(self, points):
        y = torch.relu(self.fc1(points))
        y = torch.relu(self.fc2(y))
        g = y.max(dim=1)[0]
        return self.head(g)


batch_size = 2
num_points = 512
in_dim = 3
hidden1 = 64
hidden2 = 128
out_dim = 32


def get_inputs():
    return [torch.randn(batch_size, num_points, in_dim)]


def get_init_inputs():
    return [in_dim, hidden1, hidden2, out_dim]
