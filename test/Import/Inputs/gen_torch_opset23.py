#!/usr/bin/env python3
"""Writes the models of test/Import/torch-opset23.test: a small Llama-like
language model exported by PyTorch's torch.export-based exporter at opset
23, where F.scaled_dot_product_attention becomes ONNX's Attention and
nn.RMSNorm RMSNormalization (PyTorch 2.9 and later; written with PyTorch
2.15, onnxscript 0.7.2, onnx 1.23.2: pip install torch onnxscript onnx).

The model: token embeddings, 2 pre-norm blocks (nn.RMSNorm; grouped-query
attention with 4 query and 2 key/value heads, rotary embeddings computed
from cos/sin buffers, SDPA with enable_gqa; a SwiGLU MLP), a final
RMSNorm and an LM head. Two forms of the attention's mask:

  sdpa23_causal.onnx        forward(ids): is_causal=True
  sdpa23_mask.onnx          forward(ids, mask): the causal mask and the
                            padding of an INT64 attention mask (Hugging
                            Face's) as one boolean attn_mask computed at
                            run time
  sdpa23_causal_logits.npy, sdpa23_mask_logits.npy
                            their logits for bert_pad_ids.npy (and
                            hf_attn_mask.npy)
  sdpa23_mask_torch_log.csv PyTorch's losses of the masked model over 10
                            SGD steps (lr 0.1, momentum 0.9) on the first 40
                            rows of hf_gpt2_tokens.npz in order, 4 per step,
                            as amp-run --shuffle=false trains the import

    python3 test/Import/Inputs/gen_torch_opset23.py
"""
import os

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from gen_torch_models import VOCAB, train_lm_and_log

HERE = os.path.dirname(os.path.abspath(__file__))
D, HEADS, KV_HEADS, LAYERS, SEQ, FFN = 32, 4, 2, 2, 8, 64
HEAD = D // HEADS


def rotate(x, cos, sin):
    """Rotary embedding in halves (Llama's rotate_half)."""
    x1, x2 = x[..., :HEAD // 2], x[..., HEAD // 2:]
    return x * cos + torch.cat((-x2, x1), dim=-1) * sin


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn_norm = nn.RMSNorm(D, eps=1e-6)
        self.q = nn.Linear(D, HEADS * HEAD, bias=False)
        self.k = nn.Linear(D, KV_HEADS * HEAD, bias=False)
        self.v = nn.Linear(D, KV_HEADS * HEAD, bias=False)
        self.o = nn.Linear(D, D, bias=False)
        self.mlp_norm = nn.RMSNorm(D, eps=1e-6)
        self.gate = nn.Linear(D, FFN, bias=False)
        self.up = nn.Linear(D, FFN, bias=False)
        self.down = nn.Linear(FFN, D, bias=False)

    def forward(self, x, mask, cos, sin):
        b, s, _ = x.shape
        h = self.attn_norm(x)
        q = self.q(h).view(b, s, HEADS, HEAD).transpose(1, 2)
        k = self.k(h).view(b, s, KV_HEADS, HEAD).transpose(1, 2)
        v = self.v(h).view(b, s, KV_HEADS, HEAD).transpose(1, 2)
        q, k = rotate(q, cos, sin), rotate(k, cos, sin)
        if mask is None:
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True,
                                               enable_gqa=True)
        else:
            a = F.scaled_dot_product_attention(q, k, v, attn_mask=mask,
                                               enable_gqa=True)
        x = x + self.o(a.transpose(1, 2).reshape(b, s, D))
        h = self.mlp_norm(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


class TinyLm(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, D)
        self.blocks = nn.ModuleList(Block() for _ in range(LAYERS))
        self.norm = nn.RMSNorm(D, eps=1e-6)
        self.head = nn.Linear(D, VOCAB, bias=False)
        inv_freq = 1.0 / 10000 ** (torch.arange(0, HEAD, 2).float() / HEAD)
        angles = torch.outer(torch.arange(SEQ).float(), inv_freq)
        angles = torch.cat((angles, angles), dim=-1)
        self.register_buffer("rope_cos", angles.cos(), persistent=False)
        self.register_buffer("rope_sin", angles.sin(), persistent=False)

    def forward(self, ids, mask=None):
        if mask is not None:
            keys = mask.bool()[:, None, None, :]
            causal = torch.ones(SEQ, SEQ, dtype=torch.bool).tril()
            mask = keys & causal
        x = self.embed(ids)
        for block in self.blocks:
            x = block(x, mask, self.rope_cos, self.rope_sin)
        return self.head(self.norm(x))


class Causal(nn.Module):
    def __init__(self, lm):
        super().__init__()
        self.lm = lm

    def forward(self, ids):
        return self.lm(ids)


def main():
    torch.manual_seed(23)
    lm = TinyLm().eval()
    with torch.no_grad():
        for name, p in lm.named_parameters():
            # Weights of a trained model: norms that differ from one, and
            # peaked attention (the initial one is near uniform).
            if "norm" in name:
                p.normal_(1.0, 0.1)
            if name.endswith(("q.weight", "k.weight")):
                p.mul_(3.0)
    ids = torch.tensor(np.load(os.path.join(HERE, "bert_pad_ids.npy")))
    mask = torch.tensor(np.load(os.path.join(HERE, "hf_attn_mask.npy")))
    causal = Causal(lm).eval()
    with torch.no_grad():
        np.save(os.path.join(HERE, "sdpa23_causal_logits.npy"),
                causal(ids).numpy())
        np.save(os.path.join(HERE, "sdpa23_mask_logits.npy"),
                lm(ids, mask).numpy())
    torch.onnx.export(causal, (ids,), os.path.join(HERE, "sdpa23_causal.onnx"),
                      input_names=["ids"], output_names=["logits"],
                      dynamo=True, opset_version=23, external_data=False)
    torch.onnx.export(lm, (ids, mask), os.path.join(HERE, "sdpa23_mask.onnx"),
                      input_names=["ids", "mask"], output_names=["logits"],
                      dynamo=True, opset_version=23, external_data=False)
    train_lm_and_log(lm, "sdpa23_mask_torch_log.csv")


if __name__ == "__main__":
    main()
