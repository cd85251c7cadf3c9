import torch
import torch.nn as nn


class Model(nn.Module):
    """A recurrent cell that keeps its hidden state as a plain tensor
    attribute and replaces it in forward (KernelBench's 33_VanillaRNN):
    torch.export refuses it, and each call starts where the last ended. The
    state a call starts from becomes an input of the task."""

    def __init__(self, input_size, hidden_size, output_size):
        super().__init__()
        self.hidden = torch.randn((batch_size, hidden_size))
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)

    def forward(self, x):
        self.hidden = self.hidden.to(x.device)
        self.hidden = torch.tanh(self.i2h(torch.cat((x, self.hidden), dim=1)))
        return self.h2o(self.hidden)


batch_size = 8
input_size = 64
hidden_size = 128
output_size = 32


def get_inputs():
    return [torch.randn(batch_size, input_size)]


def get_init_inputs():
    return [input_size, hidden_size, output_size]
