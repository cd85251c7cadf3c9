import torch
import torch.nn as nn


class Model(nn.Module):
    """A single GRU cell step built from Linear layers: r = sigmoid(Wir x + Whr h),
    z = sigmoid(Wiz x + Whz h), n = tanh(Win x + r * (Whn h)), h' = (1 - z) * n + z * h."""

    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.x2h = nn.Linear(input_size, 3 * hidden_size)
        self.h2h = nn.Linear(hidden_size, 3 * hidden_size)

    def forward(self, x, h):
        xr, xz, xn = self.x2h(x).chunk(3, dim=-1)
        hr, hz, hn = self.h2h(h).chunk(3, dim=-1)
        r = torch.sigmoid(xr + hr)
        z = torch.sigmoid(xz + hz)
        n = torch.tanh(xn + r * hn)
        return (1 - z) * n + z * h


batch_size = 16
input_size = 64
hidden_size = 128


def get_inputs():
    return [torch.randn(batch_size, input_size), torch.randn(batch_size, hidden_size)]


def get_init_inputs():
    return [input_size, hidden_size]
