import torch
import torch.nn as nn


class Model(nn.Module):
    """A GRU over a long sequence: cheap to run, but exported unrolled, one
    set of operators per time step, which TVM takes minutes to compile.
    --fit shortens the sequence and leaves the widths alone."""

    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.gru = nn.GRU(input_size, hidden_size, 1)

    def forward(self, x, h0):
        out, _ = self.gru(x, h0)
        return out


batch_size = 4
seq_len = 1024
input_size = 32
hidden_size = 64


def get_inputs():
    return [torch.randn(seq_len, batch_size, input_size), torch.randn(1, batch_size, hidden_size)]


def get_init_inputs():
    return [input_size, hidden_size]
