#!/usr/bin/env python3
"""Writes the models of test/Import/grid-sample.test.

  grid_net.onnx                        GridNet: a convolution's features of
                                       the [16, 1, 8, 8] images of
                                       bn_cnn_x.npy sampled with
                                       F.grid_sample at a grid computed from
                                       the image (tanh of a Linear, times
                                       1.25, so that some positions fall
                                       outside), in four ways: bilinear with
                                       zero padding, bilinear with border
                                       padding and align_corners, bicubic
                                       with zero padding, nearest with
                                       reflection; the TorchScript exporter,
                                       opset 17
  grid_net_dynamo.onnx                 the same model exported by the
                                       torch.export-based exporter (opset
                                       18)
  grid_net_logits.npy                  its logits before training
  grid_net_torch_log.csv               its losses over 10 full-batch SGD
                                       steps (lr 0.1, momentum 0.9)
  stn.onnx                             Stn: a spatial transformer
                                       (F.affine_grid of a computed theta,
                                       F.grid_sample of the image); the
                                       TorchScript exporter, opset 20
                                       (AffineGrid)
  stn_dynamo.onnx                      the same by the torch.export-based
                                       exporter (opset 18), which writes
                                       F.affine_grid as its ops (Unsqueeze,
                                       Mul, ReduceSum)
  stn_logits.npy, stn_torch_log.csv    its logits and its losses over 10
                                       SGD steps (lr 0.05, momentum 0.9)
  grid_modes.onnx, grid_modes_<name>.npy
                                       GridSample (opset 20) in every mode,
                                       padding and align_corners of one
                                       [2, 3, 4, 5] input at one grid
                                       reaching past the borders, the
                                       outputs ONNX's reference
                                       implementation's
  grid_dims.onnx, grid_dims_<name>.npy
                                       the same for 3-D, 1-D and one-pixel
                                       inputs
  grid_bad_<case>.onnx                 GridSample and AffineGrid nodes the
                                       importer rejects

Needs PyPI's torch and onnx, as gen_torch_models.py:

    /tmp/tv/bin/python test/Import/Inputs/gen_grid_sample_models.py
"""

import os

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator
from torch import nn

from gen_torch_models import HERE, export_and_train, save_graph

FLOAT = TensorProto.FLOAT


class GridNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.loc = nn.Linear(64, 6 * 6 * 2)
        self.head = nn.Linear(4 * 4 * 36, 4)

    def forward(self, x):
        feat = torch.relu(self.conv(x))
        grid = torch.tanh(self.loc(x.flatten(1))).reshape(-1, 6, 6, 2) * 1.25
        ys = [
            F.grid_sample(feat, grid, mode="bilinear", padding_mode="zeros",
                          align_corners=False),
            F.grid_sample(feat, grid, mode="bilinear", padding_mode="border",
                          align_corners=True),
            F.grid_sample(feat, grid, mode="bicubic", padding_mode="zeros",
                          align_corners=False),
            F.grid_sample(feat, grid, mode="nearest",
                          padding_mode="reflection", align_corners=False),
        ]
        return self.head(torch.cat([y.flatten(1) for y in ys], 1))


class Stn(nn.Module):
    """A spatial transformer: theta from a Linear (initialized near the
    identity), F.affine_grid, F.grid_sample of the image, a convolution."""

    def __init__(self):
        super().__init__()
        self.loc = nn.Linear(64, 6)
        with torch.no_grad():
            self.loc.weight.mul_(0.1)
            self.loc.bias.copy_(torch.tensor([1.1, 0.1, 0.0, -0.1, 0.9, 0.1]))
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.head = nn.Linear(4 * 64, 4)

    def forward(self, x):
        theta = self.loc(x.flatten(1)).reshape(-1, 2, 3)
        grid = F.affine_grid(theta, [x.shape[0], 1, 8, 8],
                             align_corners=False)
        y = F.grid_sample(x, grid, align_corners=False)
        return self.head(torch.relu(self.conv(y)).flatten(1))


def export_dynamo(model, stem):
    """`model` exported by the torch.export-based exporter (opset 18) as
    <stem>_dynamo.onnx, before export_and_train trains it."""
    x = torch.tensor(np.load(os.path.join(HERE, "bn_cnn_x.npy")))
    torch.onnx.export(model, (x,), os.path.join(HERE, stem + "_dynamo.onnx"),
                      input_names=["x"], output_names=["logits"],
                      dynamo=True, opset_version=18, external_data=False)


def write_stn():
    torch.manual_seed(32)
    model = Stn()
    export_dynamo(model, "stn")
    export_and_train(model, "stn", images=True, logits=True, lr=0.05,
                     opset=20)


def write_grid_net():
    torch.manual_seed(31)
    model = GridNet()
    export_dynamo(model, "grid_net")
    export_and_train(model, "grid_net", images=True, logits=True, lr=0.05)


def save(stem, nodes, inputs, outputs, inits=(), check=True):
    """GridSample's opset 20 models (save_graph)."""
    return save_graph(stem, nodes, inputs, outputs, inits, opset=20,
                      check=check)


def vi(name, shape):
    return helper.make_tensor_value_info(name, FLOAT, shape)


def node(x, grid, y, mode, padding, align):
    return helper.make_node("GridSample", [x, grid], [y], name=y, mode=mode,
                            padding_mode=padding, align_corners=align)


def grid_values(rng, shape):
    """Positions up to 2.5 times past the borders, and the borders."""
    grid = rng.uniform(-2.5, 2.5, shape).astype(np.float32)
    grid.reshape(-1)[:4] = [-1.0, 1.0, 0.0, -1.0]
    return grid


def write_with_reference(stem, nodes, inputs):
    """`stem`.onnx of `nodes` on the arrays `inputs`, the inputs and ONNX's
    reference outputs as <stem>_<name>.npy."""
    outs = [n.output[0] for n in nodes]
    path = save(stem, nodes, [vi(k, v.shape) for k, v in inputs.items()],
                [vi(y, None) for y in outs], check=False)
    ys = ReferenceEvaluator(onnx.load(path)).run(None, inputs)
    for name, value in list(inputs.items()) + list(zip(outs, ys)):
        np.save(os.path.join(HERE, "%s_%s.npy" % (stem, name)),
                np.ascontiguousarray(value))


def write_nodes():
    """Every mode, padding and align_corners on one 2-D input and grid
    (grid_modes), and 1-D, 3-D and one-pixel inputs (grid_dims), against
    ONNX's reference."""
    rng = np.random.default_rng(17)
    nodes = [node("x", "grid", "%s_%s_%d" % (mode, padding, align), mode,
                  padding, align)
             for mode in ("nearest", "linear", "cubic")
             for padding in ("zeros", "border", "reflection")
             for align in (0, 1)]
    write_with_reference("grid_modes", nodes, dict(
        x=rng.standard_normal((2, 3, 4, 5)).astype(np.float32),
        grid=grid_values(rng, (2, 3, 4, 2))))
    nodes = [node("x3", "g3", "linear_3d", "linear", "reflection", 0),
             node("x3", "g3", "nearest_3d", "nearest", "border", 1),
             node("x1", "g1", "cubic_1d", "cubic", "reflection", 0),
             node("xp", "gp", "linear_1px", "linear", "reflection", 0)]
    write_with_reference("grid_dims", nodes, dict(
        x3=rng.standard_normal((1, 2, 3, 4, 2)).astype(np.float32),
        g3=grid_values(rng, (1, 2, 3, 2, 3)),
        x1=rng.standard_normal((2, 2, 5)).astype(np.float32),
        g1=grid_values(rng, (2, 7, 1)),
        xp=rng.standard_normal((1, 1, 1, 3)).astype(np.float32),
        gp=grid_values(rng, (1, 2, 2, 2))))


def write_bad():
    """GridSample nodes the importer rejects."""
    for stem, xshape, gshape, attrs in (
            ("mode", (1, 1, 2, 2), (1, 2, 2, 2), dict(mode="area")),
            ("padding", (1, 1, 2, 2), (1, 2, 2, 2),
             dict(padding_mode="wrap")),
            ("grid", (1, 1, 2, 2), (1, 2, 2, 3), {}),
            ("rank", (1, 1, 2, 2, 2, 2), (1, 2, 2, 2, 2, 4), {}),
            ("empty", (1, 1, 0, 2), (1, 2, 2, 2), {}),
            ("batch", (2 ** 26, 1, 1, 1), (2 ** 26, 1, 1, 2), {})):
        save("grid_bad_" + stem, [helper.make_node(
            "GridSample", ["x", "grid"], ["y"], name="gs", **attrs)],
            [vi("x", xshape), vi("grid", gshape)], [vi("y", None)],
            check=False)


def write_bad_affine():
    """AffineGrid nodes the importer rejects: a size computed at run time,
    theta of the wrong shape."""
    node = helper.make_node("AffineGrid", ["theta", "size"], ["grid"],
                            name="ag")
    size = helper.make_tensor_value_info("size", TensorProto.INT64, [4])
    save("grid_bad_affine_size", [node], [vi("theta", (1, 2, 3)), size],
         [vi("grid", None)], check=False)
    size = onnx.numpy_helper.from_array(np.array([1, 1, 4, 4], np.int64),
                                        "size")
    save("grid_bad_affine_theta", [node], [vi("theta", (1, 2, 2))],
         [vi("grid", None)], [size], check=False)
    size = onnx.numpy_helper.from_array(np.array([1, 1, 0, 4], np.int64),
                                        "size")
    save("grid_bad_affine_dims", [node], [vi("theta", (1, 2, 3))],
         [vi("grid", None)], [size], check=False)


def main():
    write_grid_net()
    write_stn()
    write_nodes()
    write_bad()
    write_bad_affine()


if __name__ == "__main__":
    main()
