import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + self.eps) * self.weight


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat([-x[..., half:], x[..., :half]], dim=-1)


class Model(nn.Module):
    """One Qwen2 decoder block (inference, no KV cache): RMSNorm, causal
    grouped-query self-attention (4 query heads sharing 2 key/value heads,
    biases on the Q, K and V projections, none on the output), rotary position
    embeddings computed in forward from torch.arange (base 1000000), causal mask
    from torch.triu, residual add; RMSNorm, SwiGLU MLP, residual add."""

    def __init__(self, hidden, heads, kv_heads, intermediate):
        super().__init__()
        self.heads = heads
        self.kv_heads = kv_heads
        self.head_dim = hidden // heads
        self.input_norm = RMSNorm(hidden)
        self.q_proj = nn.Linear(hidden, heads * self.head_dim, bias=True)
        self.k_proj = nn.Linear(hidden, kv_heads * self.head_dim, bias=True)
        self.v_proj = nn.Linear(hidden, kv_heads * self.head_dim, bias=True)
        self.o_proj = nn.Linear(heads * self.head_dim, hidden, bias=False)
        self.post_norm = RMSNorm(hidden)
        self.gate_proj = nn.Linear(hidden, intermediate, bias=False)
        self.up_proj = nn.Linear(hidden, intermediate, bias=False)
        self.down_proj = nn.Linear(intermediate, hidden, bias=False)

    def rotary(self, seq):
        inv_freq = 1.0 / (1000000.0 ** (torch.arange(0, self.head_dim, 2, dtype=torch.float32) / self.head_dim))
        pos = torch.arange(seq, dtype=torch.float32)
        freqs = pos[:, None] * inv_freq[None, :]
        emb = torch.cat([freqs, freqs], dim=-1)
        return emb.cos(), emb.sin()

    def repeat_kv(self, x):
        b, hkv, t, d = x.shape
        n_rep = self.heads // hkv
        return x[:, :, None, :, :].expand(b, hkv, n_rep, t, d).reshape(b, hkv * n_rep, t, d)

    def forward(self, x):
        b, t, c = x.shape
        h = self.input_norm(x)
        q = self.q_proj(h).reshape(b, t, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(h).reshape(b, t, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(h).reshape(b, t, self.kv_heads, self.head_dim).transpose(1, 2)
        cos, sin = self.rotary(t)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k = self.repeat_kv(k)
        v = self.repeat_kv(v)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        mask = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)
        scores = scores.masked_fill(mask, -1e9)
        attn = torch.softmax(scores, dim=-1)
        y = torch.matmul(attn, v).transpose(1, 2).reshape(b, t, self.heads * self.head_dim)
        x = x + self.o_proj(y)
        h = self.post_norm(x)
        return x + self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))


batch_size = 1
seq_len = 64
hidden = 128
heads = 4
kv_heads = 2
intermediate = 352


def get_inputs():
    return [torch.randn(batch_size, seq_len, hidden)]


def get_init_inputs():
    return [hidden, heads, kv_heads, intermediate]
