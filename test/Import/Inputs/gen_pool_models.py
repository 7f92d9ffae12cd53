#!/usr/bin/env python3
"""Writes the models of test/Import/wide-pools.test and
test/Import/window-sums.test.

  wide_pool_cnn.onnx           WidePoolCnn: a convolution, then
                               AvgPool2d(12, ceil_mode=True) and
                               MaxPool2d(12, ceil_mode=True) of its 8 x 8
                               map (windows larger than the map, one output
                               each: Hugging Face's EfficientNet pools its
                               last map so), a Linear; the TorchScript
                               exporter, opset 17
  wide_pool_cnn_logits.npy     its logits on bn_cnn_x.npy before training
  wide_pool_cnn_torch_log.csv  its losses over 10 full-batch SGD steps (lr
                               0.1, momentum 0.9) on bn_cnn_rows.csv
  wide_pool_bad_stride.onnx    a window a stride or more larger than the
                               input (no output: an error)
  window_sums.onnx             AveragePool with dilations (1-D, 2-D, 3-D,
                               with and without count_include_pad and
                               ceil_mode) and with ceil_mode,
                               count_include_pad and pads; LpPool with
                               p = 1, 2, 3, pads, strides, dilations and
                               ceil_mode, 1-D to 3-D (opset 19)
  window_sums_x*.npy           their inputs
  window_sums_*.npy            their outputs: the averages by ONNX's
                               reference evaluator, LpPool's by
                               lp_pool_reference (the evaluator averages
                               LpPool's windows without their pads and
                               scales by the kernel, which is no sum where
                               a window reads pads)
  window_sums_grad.onnx        a Conv whose output goes through a dilated
                               LpPool and a dilated AveragePool, summed: a
                               loss for amp-grad-check
  ceil_pool_cnn.onnx           CeilPoolCnn: a convolution, AvgPool2d(3, 2,
                               padding=1, ceil_mode=True,
                               count_include_pad=True), a Linear; the
                               TorchScript exporter, opset 17
  ceil_pool_cnn_logits.npy     its logits on bn_cnn_x.npy before training
  ceil_pool_cnn_torch_log.csv  its losses over 10 full-batch SGD steps (lr
                               0.1, momentum 0.9) on bn_cnn_rows.csv
  lp_pool_bad_p.onnx           LpPool with p = 0 (an error)
  max_pool_indices_3d.onnx     a 3-D MaxPool with Indices (an error)
  pool_indices.onnx            MaxPool's Indices: pads, strides, dilations
                               with ceil_mode, storage_order 1, 1-D, and
                               ties (the first tap holding the maximum)
  pool_indices_*.npy           their inputs and ONNX's reference outputs,
                               but the ties' indices PyTorch's
                               (max_pool2d's return_indices plus each
                               plane's offset): ONNX's reference evaluator
                               gives indices outside the window there
  scatter_nd_mul_computed.onnx ScatterND, reduction mul, at indices computed
                               at run time (an error)
  unpool_cnn.onnx              UnpoolCnn: a convolution, MaxPool2d(2,
                               return_indices=True), MaxUnpool2d(2) at
                               those indices (SegNet's decoder), a
                               convolution, the mean over the map, a Linear;
                               the torch.export-based exporter (MaxPool's
                               Indices, ScatterND at indices computed at run
                               time), opset 18
  unpool_cnn_logits.npy        its logits on bn_cnn_x.npy before training
  unpool_cnn_torch_log.csv     its losses over 10 full-batch SGD steps (lr
                               0.1, momentum 0.9) on bn_cnn_rows.csv

Needs PyPI's torch and onnx, as gen_torch_models.py:

    /tmp/tv/bin/python test/Import/Inputs/gen_pool_models.py
"""

import itertools
import os

import numpy as np
import torch
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from torch import nn

from gen_torch_models import HERE, export_and_train, save_graph


class WidePoolCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.avg = nn.AvgPool2d(12, ceil_mode=True)
        self.max = nn.MaxPool2d(12, ceil_mode=True)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        h = torch.relu(self.conv(x))
        return self.fc(torch.cat([self.avg(h), self.max(h)], 1).flatten(1))


class CeilPoolCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.avg = nn.AvgPool2d(3, 2, padding=1, ceil_mode=True,
                                count_include_pad=True)
        self.fc = nn.Linear(8 * 5 * 5, 10)

    def forward(self, x):
        return self.fc(self.avg(torch.relu(self.conv(x))).flatten(1))


class UnpoolCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.pool = nn.MaxPool2d(2, return_indices=True)
        self.unpool = nn.MaxUnpool2d(2)
        self.out = nn.Conv2d(8, 8, 3, padding=1)
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        h, indices = self.pool(torch.relu(self.conv(x)))
        h = torch.relu(self.out(self.unpool(h, indices)))
        return self.fc(h.mean((2, 3)))


def lp_pool_reference(x, p, kernel, strides=None, dilations=None, pads=None,
                      ceil_mode=0):
    """LpPool as ONNX defines it: (sum over each window of |x|^p)^(1/p),
    the input padded with zeros, in float64; ceil_mode's last windows may
    pass the padded input (the positions past it read nothing)."""
    n = len(kernel)
    strides = strides or [1] * n
    dilations = dilations or [1] * n
    pads = pads or [0] * (2 * n)
    extents = [(k - 1) * d + 1 for k, d in zip(kernel, dilations)]
    spans = [x.shape[2 + i] + pads[i] + pads[n + i] - extents[i]
             for i in range(n)]
    outs = [(-(-s // st) if ceil_mode else s // st) + 1
            for s, st in zip(spans, strides)]
    padded = np.pad(np.abs(x.astype(np.float64)) ** p,
                    [(0, 0), (0, 0)] + [(pads[i], pads[n + i] + extents[i])
                                        for i in range(n)])
    y = np.zeros(x.shape[:2] + tuple(outs))
    for o in itertools.product(*[range(v) for v in outs]):
        for k in itertools.product(*[range(v) for v in kernel]):
            pos = [o[i] * strides[i] + k[i] * dilations[i] for i in range(n)]
            if all(pos[i] < x.shape[2 + i] + pads[i] + pads[n + i]
                   for i in range(n)):
                y[(slice(None), slice(None)) + tuple(o)] += \
                    padded[(slice(None), slice(None)) + tuple(pos)]
    return (y ** (1.0 / p)).astype(np.float32)


def write_window_sums():
    rng = np.random.default_rng(61)
    xs = {"x1": rng.standard_normal((2, 3, 20)),
          "x2": rng.standard_normal((2, 3, 9, 9)),
          "x3": rng.standard_normal((1, 2, 7, 8, 9))}
    xs = {k: v.astype(np.float32) for k, v in xs.items()}
    for k, v in xs.items():
        np.save(os.path.join(HERE, "window_sums_%s.npy" % k), v)
    avg = [("avg_dil2d", "x2", dict(kernel_shape=[3, 3], strides=[2, 2],
                                    dilations=[2, 2], pads=[1, 2, 1, 2])),
           ("avg_dil2d_incl", "x2", dict(kernel_shape=[3, 3], strides=[2, 2],
                                         dilations=[2, 2], pads=[1, 2, 1, 2],
                                         count_include_pad=1)),
           ("avg_ceil_incl", "x2", dict(kernel_shape=[3, 3], strides=[2, 2],
                                        pads=[1, 1, 0, 0], ceil_mode=1,
                                        count_include_pad=1)),
           ("avg_dil1d_ceil", "x1", dict(kernel_shape=[3], strides=[2],
                                         dilations=[2], pads=[1, 1],
                                         ceil_mode=1)),
           ("avg_dil3d", "x3", dict(kernel_shape=[2, 3, 2],
                                    strides=[2, 1, 2], dilations=[2, 1, 2],
                                    pads=[1, 1, 0, 0, 1, 1], ceil_mode=1,
                                    count_include_pad=1))]
    lp = [("lp2_pads", "x2", dict(p=2, kernel_shape=[3, 3], strides=[2, 2],
                                  pads=[1, 1, 1, 1])),
          ("lp1_dil", "x2", dict(p=1, kernel_shape=[2, 2],
                                 dilations=[2, 2])),
          ("lp3_ceil", "x2", dict(p=3, kernel_shape=[2, 2], strides=[2, 2],
                                  ceil_mode=1)),
          ("lp2_1d", "x1", dict(p=2, kernel_shape=[4], strides=[3])),
          ("lp2_3d", "x3", dict(p=2, kernel_shape=[2, 2, 2],
                                dilations=[1, 2, 1],
                                pads=[0, 1, 1, 1, 0, 1]))]
    nodes = [helper.make_node("AveragePool", [x], [name], name=name, **a)
             for name, x, a in avg]
    nodes += [helper.make_node("LpPool", [x], [name], name=name, **a)
              for name, x, a in lp]
    path = save_graph("window_sums", nodes, [
        helper.make_tensor_value_info(k, TensorProto.FLOAT, list(v.shape))
        for k, v in xs.items()], [
        helper.make_value_info(name, helper.TypeProto())
        for name, _, _ in avg + lp], opset=19, check=False)
    ref = ReferenceEvaluator(path).run([name for name, _, _ in avg], xs)
    for (name, _, _), value in zip(avg, ref):
        np.save(os.path.join(HERE, "window_sums_%s.npy" % name),
                np.asarray(value, np.float32))
    for name, x, a in lp:
        a = dict(a)
        np.save(os.path.join(HERE, "window_sums_%s.npy" % name),
                lp_pool_reference(xs[x], a.pop("p"), a.pop("kernel_shape"),
                                  **a))
    # A loss through both sums: sum(LpPool(conv)) + sum(AveragePool(conv)).
    w = numpy_helper.from_array(
        rng.standard_normal((2, 2, 3, 3)).astype(np.float32) * 0.3, "w")
    node = helper.make_node
    save_graph("window_sums_grad", [
        node("Conv", ["x", "w"], ["h"]),
        node("LpPool", ["h"], ["lp"], p=3, kernel_shape=[2, 2],
             dilations=[2, 1], pads=[1, 0, 0, 1]),
        node("AveragePool", ["h"], ["avg"], kernel_shape=[2, 3],
             strides=[1, 2], dilations=[2, 2], pads=[1, 1, 1, 1]),
        node("ReduceSum", ["lp"], ["lp_sum"], keepdims=0),
        node("ReduceSum", ["avg"], ["avg_sum"], keepdims=0),
        node("Add", ["lp_sum", "avg_sum"], ["loss"])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                       [1, 2, 7, 7])],
        [helper.make_tensor_value_info("loss", TensorProto.FLOAT, [])],
        inits=[w], opset=19)


def write_pool_indices():
    rng = np.random.default_rng(73)
    xs = {"x1": rng.standard_normal((2, 3, 11)).astype(np.float32),
          "x2": rng.standard_normal((2, 3, 7, 9)).astype(np.float32),
          # Values of a few levels: windows with ties.
          "xt": rng.integers(0, 3, (1, 2, 6, 6)).astype(np.float32)}
    for k, v in xs.items():
        np.save(os.path.join(HERE, "pool_indices_%s.npy" % k), v)
    cases = [("pads", "x2", dict(kernel_shape=[3, 3], strides=[2, 2],
                                 pads=[1, 1, 1, 1])),
             ("dil_ceil", "x2", dict(kernel_shape=[2, 2], strides=[2, 2],
                                     dilations=[2, 1], ceil_mode=1)),
             ("column", "x2", dict(kernel_shape=[2, 3], strides=[1, 2],
                                   storage_order=1)),
             ("one_d", "x1", dict(kernel_shape=[3], strides=[2],
                                  pads=[1, 1])),
             ("ties", "xt", dict(kernel_shape=[3, 3], strides=[1, 1]))]
    nodes = [helper.make_node("MaxPool", [x], [name + "_y", name + "_i"],
                              name=name, **a) for name, x, a in cases]
    outputs = [o for name, _, _ in cases for o in (name + "_y", name + "_i")]
    path = save_graph("pool_indices", nodes, [
        helper.make_tensor_value_info(k, TensorProto.FLOAT, list(v.shape))
        for k, v in xs.items()],
        [helper.make_value_info(o, helper.TypeProto()) for o in outputs],
        opset=19, check=False)
    for name, value in zip(outputs, ReferenceEvaluator(path).run(None, xs)):
        np.save(os.path.join(HERE, "pool_indices_%s.npy" % name),
                np.asarray(value))
    _, picks = nn.functional.max_pool2d(torch.tensor(xs["xt"]), 3, 1,
                                        return_indices=True)
    planes = np.arange(2).reshape(1, 2, 1, 1) * 36
    np.save(os.path.join(HERE, "pool_indices_ties_i.npy"),
            picks.numpy() + planes)


def write_errors():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 8, 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    save_graph("wide_pool_bad_stride", [helper.make_node(
        "MaxPool", ["x"], ["y"], name="pool", kernel_shape=[12, 12],
        strides=[2, 2], ceil_mode=1)], [x], [y], opset=17, check=False)
    save_graph("lp_pool_bad_p", [helper.make_node(
        "LpPool", ["x"], ["y"], name="pool", kernel_shape=[3, 3], p=0)],
        [x], [y], opset=18, check=False)
    i = helper.make_tensor_value_info("i", TensorProto.INT64, None)
    save_graph("max_pool_indices_3d", [helper.make_node(
        "MaxPool", ["x"], ["y", "i"], name="pool", kernel_shape=[2, 2, 2])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                       [1, 1, 4, 4, 4])], [y, i], opset=18,
        check=False)
    save_graph("scatter_nd_mul_computed", [helper.make_node(
        "ScatterND", ["data", "at", "updates"], ["y"], name="scatter",
        reduction="mul")],
        [helper.make_tensor_value_info("data", TensorProto.FLOAT, [4, 3]),
         helper.make_tensor_value_info("at", TensorProto.INT64, [2, 1]),
         helper.make_tensor_value_info("updates", TensorProto.FLOAT, [2, 3])],
        [y], opset=18, check=False)


if __name__ == "__main__":
    torch.manual_seed(59)
    export_and_train(WidePoolCnn(), "wide_pool_cnn", images=True, lr=0.1,
                     logits=True)
    torch.manual_seed(67)
    export_and_train(CeilPoolCnn(), "ceil_pool_cnn", images=True, lr=0.1,
                     logits=True)
    torch.manual_seed(71)
    export_and_train(UnpoolCnn(), "unpool_cnn", images=True, opset=18,
                     lr=0.1, logits=True, dynamo=True)
    write_window_sums()
    write_pool_indices()
    write_errors()
