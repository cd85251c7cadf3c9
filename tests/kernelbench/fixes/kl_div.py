import torch
import torch.nn as nn


class Model(nn.Module):
    """KL divergence of probabilities: its log is undefined on kwb's default
    standard-normal inputs, so the import draws them as the file does
    (non-negative, from the file's own least to greatest value)."""

    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        return torch.nn.functional.kl_div(torch.log(predictions), targets, reduction="batchmean")


batch_size = 64
dim = 4096


def get_inputs():
    return [torch.rand(batch_size, dim).softmax(dim=-1), torch.rand(batch_size, dim).softmax(dim=-1)]


def get_init_inputs():
    return []
