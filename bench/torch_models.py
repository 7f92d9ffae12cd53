"""The PyTorch mirrors of the models amp's benchmarks train.

Imported by the PyTorch workers of bench/cpu_backend_bench.py (CPU) and
bench/gpu_step_bench.py (CUDA); only those workers need torch. Each model
mirrors the nn-dialect model that scripts/gen_training_graph.py writes (or
the example it wrote): same shapes, same layers, same optimizer. Init and
data differ, which does not change a step's time.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Mlp(nn.Module):
    """emit_mlp: `hidden` layers of matmul + bias + relu, then the head."""

    def __init__(self, width, hidden, classes, inputs):
        super().__init__()
        dims = [inputs] + [width] * hidden
        self.hidden = nn.ModuleList(
            nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.head = nn.Linear(dims[-1], classes)

    def forward(self, x):
        for layer in self.hidden:
            x = F.relu(layer(x))
        return self.head(x)


class Attention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.q, self.k, self.v, self.o = (nn.Linear(d, d) for _ in range(4))

    def forward(self, x):
        b, s, d = x.shape
        h = self.heads
        split = lambda t: t.view(b, s, h, d // h).transpose(1, 2)
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        z = q @ k.transpose(-1, -2) / (d // h) ** 0.5
        y = torch.softmax(z, dim=-1) @ v
        return self.o(y.transpose(1, 2).reshape(b, s, d))


class Block(nn.Module):
    def __init__(self, d, heads, ffn, pre_ln):
        super().__init__()
        self.pre_ln = pre_ln
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = Attention(d, heads)
        self.fc1, self.fc2 = nn.Linear(d, ffn), nn.Linear(ffn, d)

    def mlp(self, x):
        return self.fc2(F.gelu(self.fc1(x), approximate="tanh"))

    def forward(self, x):
        if self.pre_ln:
            x = x + self.attn(self.ln1(x))
            return x + self.mlp(self.ln2(x))
        x = self.ln1(x + self.attn(x))
        return self.ln2(x + self.mlp(x))


class Lm(nn.Module):
    """emit_transformer (pre_ln) and emit_bert (post-LN, embedding LN)."""

    def __init__(self, layers, d, heads, ffn, vocab, seq, pre_ln):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(seq, d) * 0.02)
        self.emb_ln = None if pre_ln else nn.LayerNorm(d)
        self.blocks = nn.ModuleList(
            Block(d, heads, ffn, pre_ln) for _ in range(layers))
        self.lnf = nn.LayerNorm(d) if pre_ln else None
        self.head = nn.Linear(d, vocab, bias=not pre_ln)

    def forward(self, ids):
        x = self.tok(ids) + self.pos
        if self.emb_ln is not None:
            x = self.emb_ln(x)
        for block in self.blocks:
            x = block(x)
        if self.lnf is not None:
            x = self.lnf(x)
        return self.head(x).flatten(0, 1)


def mlp(width, hidden, batch, classes=10):
    """(model, data) for an MLP whose input is as wide as its layers; data()
    returns one CPU batch (features, labels)."""
    model = Mlp(width, hidden, classes, width)
    return model, lambda: (torch.rand(batch, width),
                           torch.randint(0, classes, (batch,)))


def lm(layers, d, heads, ffn, vocab, batch, seq, pre_ln):
    """(model, data) for a language model over `vocab` tokens; data() returns
    one CPU batch (token ids, next-token labels)."""
    model = Lm(layers, d, heads, ffn, vocab, seq, pre_ln)
    return model, lambda: (torch.randint(0, vocab, (batch, seq)),
                           torch.randint(0, vocab, (batch * seq,)))


def optimizer(name, model):
    """The update nn-autodiff builds for the benchmark's options: SGD with
    momentum 0.9 at lr 0.05 for the MLPs, AdamW at lr 3e-4 otherwise."""
    if name.startswith("mlp"):
        return torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    return torch.optim.AdamW(model.parameters(), lr=3e-4)


def train_step(forward, opt, scaler, x, y, device, dtype):
    """One training step as the benchmarks time it: forward and loss (under
    autocast to `dtype` unless it is None), backward (through `scaler`, a
    GradScaler or None), the optimizer update, and the loss read back."""
    with torch.autocast(device, dtype=dtype or torch.bfloat16,
                        enabled=dtype is not None):
        loss = F.cross_entropy(forward(x), y)
    opt.zero_grad(set_to_none=True)
    if scaler:
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
    else:
        loss.backward()
        opt.step()
    return loss.item()
