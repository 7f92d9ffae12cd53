#!/usr/bin/env python3
"""Writes the models of test/Import/mod.test.

  mod_mlp.onnx                         ModMlp: a hidden layer h; torch.fmod
                                       and torch.remainder of h by 0.7;
                                       bucket ids (x * 16) // 3 % 5 and
                                       (x * 16 - 8) // 3 % 5 (negative ones
                                       too) computed at run time, looked up
                                       in an embedding; a Linear; the
                                       torch.export-based exporter, opset 18
  mod_mlp_script.onnx                  the same model exported by the
                                       TorchScript exporter, opset 17
  mod_mlp_script_onnx_logits.npy       its logits by ONNX's reference
                                       evaluator
  mod_mlp_logits.npy                   its logits on the 16 rows of
                                       bn_cnn_rows.csv (/ 16) before training
  mod_mlp_torch_log.csv                its losses over 10 full-batch SGD
                                       steps (lr 0.01, momentum 0.9)
  mod_values.onnx                      Mod (fmod 0 and 1) and Div of INT64
                                       and INT32 inputs and Mod (fmod 1) of
                                       FLOAT ones at run time, with NumPy's
                                       values (mod_values_*.npy)
  mod_bad_float.onnx                   Mod with fmod 0 of FLOAT inputs (an
                                       error)

Needs PyPI's torch and onnx, as gen_torch_models.py:

    /tmp/tv/bin/python test/Import/Inputs/gen_mod_models.py
"""

import os

import numpy as np
import torch
from onnx import TensorProto, helper
from torch import nn

from gen_torch_models import HERE, save_graph, train_and_log


class ModMlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 24)
        self.buckets = nn.Embedding(5, 8)
        self.head = nn.Linear(24 + 24 + 32 * 8, 4)

    def forward(self, x):
        h = self.fc1(x)
        ids = (x * 16).long()
        up = ids[:, ::4] // 3 % 5
        down = (ids[:, 1::4] - 8) // 3 % 5
        e = self.buckets(torch.cat([up, down], 1)).flatten(1)
        return self.head(torch.cat([torch.fmod(h, 0.7),
                                    torch.remainder(h, 0.7), e], 1))


def write_mod_mlp():
    torch.manual_seed(47)
    model = ModMlp()
    rows = np.loadtxt(os.path.join(HERE, "bn_cnn_rows.csv"), delimiter=",")
    x = torch.tensor(rows[:, :64] / 16.0, dtype=torch.float32)
    y = torch.tensor(rows[:, 64], dtype=torch.int64)
    names = dict(input_names=["x"], output_names=["logits"])
    torch.onnx.export(model, (x,), os.path.join(HERE, "mod_mlp.onnx"),
                      dynamo=True, opset_version=18, external_data=False,
                      **names)
    torch.onnx.export(model, (x,), os.path.join(HERE, "mod_mlp_script.onnx"),
                      dynamo=False, opset_version=17, **names)
    with torch.no_grad():
        np.save(os.path.join(HERE, "mod_mlp_logits.npy"), model(x).numpy())
    # The TorchScript exporter writes PyTorch's integer // as Div, which
    # truncates: its model differs from PyTorch where ids are negative, so
    # its reference is ONNX's evaluator.
    from onnx.reference import ReferenceEvaluator
    script = ReferenceEvaluator(os.path.join(HERE, "mod_mlp_script.onnx"))
    np.save(os.path.join(HERE, "mod_mlp_script_onnx_logits.npy"),
            script.run(None, {"x": x.numpy()})[0])
    train_and_log(model, x, y,
                  torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9),
                  "mod_mlp_torch_log.csv")


def write_values():
    """Integer Div and Mod at run time against NumPy: truncating division,
    both remainders' signs, INT64's extremes, zero divisors (0, NumPy's
    result); float fmod."""
    lo = np.iinfo(np.int64).min
    a = np.array([7, -7, 7, -7, 5, lo, lo, 0, 6, 9], np.int64)
    b = np.array([2, 2, -2, -2, 0, -1, 3, -5, 3, -4], np.int64)
    a32, b32 = a.astype(np.int32), b.astype(np.int32)
    a32[5] = a32[6] = np.iinfo(np.int32).min
    f = np.array([5.5, -5.5, 5.5, -5.5, 4.0, -4.0, 1.0, 0.3], np.float32)
    g = np.array([2.0, 2.0, -2.0, -2.0, 2.0, 2.0, np.inf, 0.7], np.float32)
    arrays = dict(a=a, b=b, a32=a32, b32=b32, f=f, g=g)
    for k, v in arrays.items():
        np.save(os.path.join(HERE, f"mod_values_{k}.npy"), v)

    def trunc_div(p, q):
        with np.errstate(all="ignore"):
            r = np.where(q == 0, 0, np.fmod(p, np.where(q == 0, 1, q)))
            d = np.where(q == 0, 0, (p - r) // np.where(q == 0, 1, q))
        return d.astype(p.dtype)

    with np.errstate(all="ignore"):
        outs = dict(
            mod=np.mod(a, b), fmod=np.fmod(a, b), div=trunc_div(a, b),
            mod32=np.mod(a32, b32), fmod32=np.fmod(a32, b32),
            div32=trunc_div(a32, b32), ffmod=np.fmod(f, g))
    for k, v in outs.items():
        np.save(os.path.join(HERE, f"mod_values_{k}.npy"), v)
    I64, I32, F = TensorProto.INT64, TensorProto.INT32, TensorProto.FLOAT
    nodes = [helper.make_node("Mod", ["a", "b"], ["mod"], name="mod"),
             helper.make_node("Mod", ["a", "b"], ["fmod"], name="fmod",
                              fmod=1),
             helper.make_node("Div", ["a", "b"], ["div"], name="div"),
             helper.make_node("Mod", ["a32", "b32"], ["mod32"], name="mod32"),
             helper.make_node("Mod", ["a32", "b32"], ["fmod32"],
                              name="fmod32", fmod=1),
             helper.make_node("Div", ["a32", "b32"], ["div32"], name="div32"),
             helper.make_node("Mod", ["f", "g"], ["ffmod"], name="ffmod",
                              fmod=1)]
    types = dict(a=I64, b=I64, a32=I32, b32=I32, f=F, g=F, mod=I64, fmod=I64,
                 div=I64, mod32=I32, fmod32=I32, div32=I32, ffmod=F)
    vi = lambda k, n: helper.make_tensor_value_info(k, types[k], [n])
    save_graph("mod_values", nodes,
               [vi(k, len(v)) for k, v in arrays.items()],
               [vi(k, len(v)) for k, v in outs.items()], [], opset=17)
    save_graph("mod_bad_float",
               [helper.make_node("Mod", ["f", "g"], ["y"], name="n")],
               [vi("f", 8), vi("g", 8)],
               [helper.make_tensor_value_info("y", F, [8])], [], opset=17,
               check=False)


def main():
    write_mod_mlp()
    write_values()


if __name__ == "__main__":
    main()
