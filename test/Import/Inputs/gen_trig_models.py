#!/usr/bin/env python3
"""Writes the models of test/Import/trig-hyperbolic.test.

  angle_mlp.onnx                       AngleMlp: a hidden layer h, then
                                       torch.atan2 of its halves, tan, asin,
                                       acos, atanh of 0.9 tanh(h), sinh and
                                       cosh of h / 2, asinh of 3h, acosh of
                                       1 + softplus(h), a Linear; the
                                       torch.export-based exporter, opset 18
  angle_mlp_logits.npy                 its logits on the 16 rows of
                                       bn_cnn_rows.csv (/ 16) before training
  angle_mlp_torch_log.csv              its losses over 10 full-batch SGD
                                       steps (lr 0.02, momentum 0.9)
  angle_mlp_torch_bf16_log.csv         the same under torch.autocast bf16
  trig_domains.onnx                    the nine ops of one input, as NumPy
                                       computes them (trig_domains_x.npy,
                                       trig_domains_y<i>.npy), at and past
                                       the ends of the inverse functions'
                                       domains
  trig_bad_int.onnx                    Atanh of an INT64 input (an error)

Needs PyPI's torch and onnx, as gen_torch_models.py:

    /tmp/tv/bin/python test/Import/Inputs/gen_trig_models.py
"""

import os

import numpy as np
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper
from torch import nn

from gen_torch_models import HERE, save_graph, train_and_log

OPS = ("Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh",
       "Atanh")


class AngleMlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 24)
        self.head = nn.Linear(12 + 7 * 24, 4)

    def forward(self, x):
        h = self.fc1(x)
        t = 0.9 * torch.tanh(h)
        feats = [torch.atan2(h[:, :12], h[:, 12:]), torch.tan(t),
                 torch.asin(t), torch.acos(t), torch.atanh(t),
                 torch.sinh(0.5 * h), torch.cosh(0.5 * h),
                 torch.asinh(3.0 * h), torch.acosh(1.0 + F.softplus(h))]
        feats = feats[:5] + [feats[5] + feats[6]] + feats[7:]
        return self.head(torch.cat(feats, 1))


def write_angle_mlp():
    """The torch.export-based exporter (PyTorch's default); the TorchScript
    exporter has no Atanh."""
    torch.manual_seed(43)
    model = AngleMlp()
    rows = np.loadtxt(os.path.join(HERE, "bn_cnn_rows.csv"), delimiter=",")
    x = torch.tensor(rows[:, :64] / 16.0, dtype=torch.float32)
    y = torch.tensor(rows[:, 64], dtype=torch.int64)
    torch.onnx.export(model, (x,), os.path.join(HERE, "angle_mlp.onnx"),
                      input_names=["x"], output_names=["logits"],
                      dynamo=True, opset_version=18, external_data=False)
    with torch.no_grad():
        np.save(os.path.join(HERE, "angle_mlp_logits.npy"), model(x).numpy())
    start = {k: v.clone() for k, v in model.state_dict().items()}
    train_and_log(model, x, y,
                  torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9),
                  "angle_mlp_torch_log.csv")
    # The same steps under PyTorch's bf16 autocast: the losses part from
    # f32's by 4% at the last step, where the training is sensitive, and
    # amp's bf16 AMP follows these.
    model.load_state_dict(start)
    opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
    with open(os.path.join(HERE, "angle_mlp_torch_bf16_log.csv"), "w") as log:
        log.write("step,loss\n")
        for step in range(1, 11):
            with torch.autocast("cpu", dtype=torch.bfloat16):
                loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            log.write(f"{step},{loss.item():.9g}\n")


def write_domains():
    """Each op of one FLOAT input: inside, at and past the inverse
    functions' domains, and infinities; NumPy's values (in f64, rounded to
    f32) are the references."""
    x = np.array([-np.inf, -2.0, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 1.0, 1.5,
                  2.0, 30.0, np.inf, np.nan], np.float32)
    np.save(os.path.join(HERE, "trig_domains_x.npy"), x)
    funcs = (np.tan, np.arcsin, np.arccos, np.arctan, np.sinh, np.cosh,
             np.arcsinh, np.arccosh, np.arctanh)
    with np.errstate(all="ignore"):
        for i, f in enumerate(funcs):
            np.save(os.path.join(HERE, f"trig_domains_y{i}.npy"),
                    f(x.astype(np.float64)).astype(np.float32))
    shape = [len(x)]
    save_graph("trig_domains",
               [helper.make_node(op, ["x"], [f"y{i}"], name=op)
                for i, op in enumerate(OPS)],
               [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
               [helper.make_tensor_value_info(f"y{i}", TensorProto.FLOAT,
                                              shape)
                for i in range(len(OPS))],
               [], opset=17)


def write_bad():
    """Atanh of a run-time INT64 input, which nn's float ops do not take."""
    save_graph("trig_bad_int",
               [helper.make_node("Atanh", ["x"], ["y"], name="n")],
               [helper.make_tensor_value_info("x", TensorProto.INT64, [3])],
               [helper.make_tensor_value_info("y", TensorProto.INT64, [3])],
               [], opset=17, check=False)


def main():
    write_angle_mlp()
    write_domains()
    write_bad()


if __name__ == "__main__":
    main()
