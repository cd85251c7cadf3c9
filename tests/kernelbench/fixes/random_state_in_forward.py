import torch
import torch.nn as nn


class Model(nn.Module):
    """An LSTM whose initial state is drawn in forward when none is given
    (KernelBench's 35_LSTM): each call computes something else. The draws
    become inputs of the task, drawn the same way on every seed."""

    def __init__(self, input_size, hidden_size, num_layers, output_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, output_size)

    def forward(self, x, h0=None, c0=None):
        if h0 is None:
            h0 = torch.randn(self.num_layers, x.size(0), self.hidden_size, device=x.device)
        if c0 is None:
            c0 = torch.randn(self.num_layers, x.size(0), self.hidden_size, device=x.device)
        out, _ = self.lstm(x, (h0, c0))
        return self.fc(out[:, -1, :])


batch_size = 4
sequence_length = 6
input_size = 16
hidden_size = 32
num_layers = 2
output_size = 8


def get_inputs():
    return [torch.rand(batch_size, sequence_length, input_size)]


def get_init_inputs():
    return [input_size, hidden_size, num_layers, output_size]
