#!/usr/bin/env python3
"""Writes the models of test/Import/int-types.test: the integer types the
importer lifts (INT8, INT16, UINT8, UINT16 to i32, UINT32 to i64).

  int_types.onnx              MaxPool, Add, Sub, Mul, Div, Neg, Abs, Cast,
                              Greater and ArgMax of UINT8, INT8, UINT16 and
                              UINT32 inputs at run time, and an Add of two
                              UINT8 initializers (folded), each chosen to
                              leave the type's range where it can
  int_types_in_*.npy          its inputs, of their NumPy types, and the
                              image as int64 (img64), with 2^40 (img_big)
  int_types_out_*.npy         its outputs by ONNX's reference evaluator
  byte_cnn.onnx               ByteCnn: a CNN whose input is the image's
                              UINT8 pixels (x.float() / 16 in the graph),
                              by the TorchScript exporter, opset 17
  byte_cnn_torch_log.csv      its losses over 10 full-batch SGD steps (lr
                              0.1, momentum 0.9) on bn_cnn_rows.csv
  pow_fold.onnx               Pow of constants, folded: FLOAT 16 ** INT64 2,
                              INT64 [3, 2] ** FLOAT 2.5 (truncated), UINT8
                              16 ** UINT8 2 (wraps to 0), a Reshape to
                              [16 ** 0.5, ...]; pow_fold_out_*.npy by ONNX's
                              reference evaluator
  int_pad.onnx                Pad (constant) of INT64 with -100 (Hugging
                              Face's causal LM loss pads its labels so), of
                              BOOL with true, of INT32 with the default 0,
                              of UINT8 with 255, and of INT64 cropped by a
                              negative pad; int_pad_*.npy its inputs and
                              outputs (np.pad)
  nonzero.onnx                NonZero of constants, folded: a FLOAT tensor
                              with NaN and -0.0, a 0-d one, Longformer's
                              ConstantOfShape of ones (its positions scale
                              the input), a BOOL mask (x[mask], GatherND);
                              nonzero_*.npy its input and outputs by ONNX's
                              reference evaluator
  nonzero_runtime.onnx        NonZero of x > 0, computed at run time (an
                              error)
  nonzero_param.onnx          NonZero of a FLOAT initializer (an error)
  input_uint64.onnx           a UINT64 graph input (an error)
  cast_uint64.onnx            a Cast to UINT64 (an error)

Needs PyPI's torch and onnx, as gen_torch_models.py:

    /tmp/tv/bin/python test/Import/Inputs/gen_int_models.py
"""

import os

import numpy as np
import torch
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from torch import nn

from gen_torch_models import HERE, save_graph, train_and_log

TP = TensorProto


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def write_int_types():
    inputs = {
        # A 4x4 image's bytes.
        "img": np.array([[[[0, 17, 200, 255], [56, 3, 99, 128],
                           [250, 1, 2, 60], [7, 8, 9, 10]]]], np.uint8),
        "a": np.array([-128, 127, -100, 5, 64, -1], np.int8),
        "b": np.array([-1, 1, 100, -3, 3, 127], np.int8),
        "u": np.array([65535, 300, 2, 40000], np.uint16),
        "w": np.array([4294967295, 7, 100, 3000000000], np.uint32),
        "f": np.array([0.5, 3.75, 254.9, 17.0], np.float32),
    }
    elem = {np.uint8: TP.UINT8, np.int8: TP.INT8, np.uint16: TP.UINT16,
            np.uint32: TP.UINT32, np.float32: TP.FLOAT}
    node = helper.make_node
    nodes = [
        node("MaxPool", ["img"], ["pooled"], name="pool",
             kernel_shape=[2, 2], strides=[2, 2]),
        node("Add", ["img", "c200"], ["img_plus"], name="img_plus"),
        node("Cast", ["img"], ["img_f"], name="img_f", to=TP.FLOAT),
        node("Div", ["img_f", "c255f"], ["scaled"], name="scaled"),
        node("Sub", ["a", "b"], ["a_minus_b"], name="a_minus_b"),
        node("Mul", ["a", "b"], ["a_times_b"], name="a_times_b"),
        node("Div", ["a", "b"], ["a_div_b"], name="a_div_b"),
        node("Neg", ["a"], ["neg_a"], name="neg_a"),
        node("Abs", ["a"], ["abs_a"], name="abs_a"),
        node("Mul", ["u", "u"], ["u_squared"], name="u_squared"),
        node("Greater", ["u", "c1000"], ["u_big"], name="u_big"),
        node("Sub", ["w", "c10"], ["w_minus"], name="w_minus"),
        node("ArgMax", ["w"], ["w_at"], name="w_at", keepdims=0),
        # ArgMax's index is INT64, not UINT32: 0 - 5 is -5.
        node("Sub", ["w_at", "c5"], ["w_at_minus"], name="w_at_minus"),
        node("Cast", ["f"], ["f_bytes"], name="f_bytes", to=TP.UINT8),
        node("Cast", ["a"], ["a_long"], name="a_long", to=TP.INT64),
        node("Add", ["a_long", "c300"], ["a_long_plus"], name="a_long_plus"),
        node("Cast", ["a_long_plus"], ["a_back"], name="a_back", to=TP.INT8),
        node("Add", ["c250", "c9"], ["folded"], name="folded"),
    ]
    inits = [
        numpy_helper.from_array(np.array(200, np.uint8), "c200"),
        numpy_helper.from_array(np.array(250, np.uint8), "c250"),
        numpy_helper.from_array(np.array(9, np.uint8), "c9"),
        numpy_helper.from_array(np.array(255, np.float32), "c255f"),
        numpy_helper.from_array(np.array(1000, np.uint16), "c1000"),
        numpy_helper.from_array(np.array(10, np.uint32), "c10"),
        numpy_helper.from_array(np.array(5, np.int64), "c5"),
        numpy_helper.from_array(np.array(300, np.int64), "c300"),
    ]
    outputs = ["pooled", "img_plus", "scaled", "a_minus_b", "a_times_b",
               "a_div_b", "neg_a", "abs_a", "u_squared", "u_big", "w_minus",
               "w_at_minus", "f_bytes", "a_back", "folded"]
    graph_inputs = [vi(k, elem[v.dtype.type], list(v.shape))
                    for k, v in inputs.items()]
    path = save_graph("int_types", nodes, graph_inputs,
                      [helper.make_value_info(o, helper.TypeProto())
                       for o in outputs], inits, opset=17, check=False)
    results = ReferenceEvaluator(path).run(None, inputs)
    for k, v in inputs.items():
        np.save(os.path.join(HERE, "int_types_in_%s.npy" % k), v)
    # The image as int64, and with a value no i32 holds.
    wide = inputs["img"].astype(np.int64)
    np.save(os.path.join(HERE, "int_types_in_img64.npy"), wide)
    wide[0, 0, 1, 2] = 1 << 40
    np.save(os.path.join(HERE, "int_types_in_img_big.npy"), wide)
    for name, value in zip(outputs, results):
        np.save(os.path.join(HERE, "int_types_out_%s.npy" % name),
                np.asarray(value))


class ByteCnn(nn.Module):
    """A digits CNN whose input is the image's UINT8 pixels (0..16)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.fc = nn.Linear(8 * 4 * 4, 10)

    def forward(self, x):
        h = nn.functional.max_pool2d(torch.relu(self.conv(x.float() / 16)), 2)
        return self.fc(h.flatten(1))


def write_byte_cnn():
    torch.manual_seed(53)
    model = ByteCnn()
    rows = np.loadtxt(os.path.join(HERE, "bn_cnn_rows.csv"), delimiter=",")
    x = torch.tensor(rows[:, :64].reshape(-1, 1, 8, 8), dtype=torch.uint8)
    y = torch.tensor(rows[:, 64], dtype=torch.int64)
    torch.onnx.export(model, (x,), os.path.join(HERE, "byte_cnn.onnx"),
                      input_names=["x"], output_names=["logits"],
                      dynamo=False, opset_version=17)
    train_and_log(model, x, y,
                  torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9),
                  "byte_cnn_torch_log.csv")


def write_pow_fold():
    node = helper.make_node
    consts = {"f16": np.array(16, np.float32), "i2": np.array(2, np.int64),
              "i3": np.array([3, 2], np.int64),
              "f25": np.array(2.5, np.float32),
              "u16": np.array(16, np.uint8), "u2": np.array(2, np.uint8),
              "half": np.array(0.5, np.float32),
              "rest": np.array([-1], np.int64)}
    nodes = [node("Constant", [], [k], name=k,
                  value=numpy_helper.from_array(v, k))
             for k, v in consts.items()]
    nodes += [
        node("Pow", ["f16", "i2"], ["f_pow"], name="f_pow"),
        node("Pow", ["i3", "f25"], ["i_pow"], name="i_pow"),
        node("Pow", ["u16", "u2"], ["u_pow"], name="u_pow"),
        node("Pow", ["f16", "half"], ["side_f"], name="side_f"),
        node("Cast", ["side_f"], ["side"], name="side", to=TP.INT64),
        node("Unsqueeze", ["side", "zero"], ["side1"], name="side1"),
        node("Concat", ["side1", "side1", "rest"], ["shape"], name="shape",
             axis=0),
        node("Reshape", ["x", "shape"], ["y"], name="reshape"),
    ]
    nodes.insert(0, node("Constant", [], ["zero"], name="zero",
                         value=numpy_helper.from_array(np.array([0],
                                                                np.int64))))
    x = np.arange(32, dtype=np.float32)
    outputs = ["f_pow", "i_pow", "u_pow", "y"]
    path = save_graph("pow_fold", nodes, [vi("x", TP.FLOAT, [32])],
                      [helper.make_value_info(o, helper.TypeProto())
                       for o in outputs], opset=17, check=False)
    np.save(os.path.join(HERE, "pow_fold_x.npy"), x)
    for name, value in zip(outputs,
                           ReferenceEvaluator(path).run(None, {"x": x})):
        np.save(os.path.join(HERE, "pow_fold_out_%s.npy" % name),
                np.asarray(value))


def write_int_pad():
    """Pad in mode constant of tensors that are not FLOAT (pad.test)."""
    node = helper.make_node
    inputs = {
        "a": np.array([[1, -2, 3], [40, 50, -60]], np.int64),
        "b": np.array([[True, False], [False, True]]),
        "c": np.array([[7, -8, 9], [10, 11, -12]], np.int32),
        "d": np.array([0, 1, 2], np.uint8),
    }
    elem = {np.int64: TP.INT64, np.bool_: TP.BOOL, np.int32: TP.INT32,
            np.uint8: TP.UINT8}
    inits = [numpy_helper.from_array(np.array(v, t), k) for k, v, t in [
        ("pads_a", [1, 0, 0, 2], np.int64), ("value_a", -100, np.int64),
        ("pads_b", [0, 1, 0, 0], np.int64), ("value_b", True, np.bool_),
        ("pads_c", [0, 0, 1, 1], np.int64),
        ("pads_d", [2, 1], np.int64), ("value_d", 255, np.uint8),
        ("pads_e", [0, -1, 1, 1], np.int64), ("value_e", 7, np.int64)]]
    nodes = [node("Pad", ["a", "pads_a", "value_a"], ["ya"], name="pad_a"),
             node("Pad", ["b", "pads_b", "value_b"], ["yb"], name="pad_b"),
             node("Pad", ["c", "pads_c"], ["yc"], name="pad_c"),
             node("Pad", ["d", "pads_d", "value_d"], ["yd"], name="pad_d"),
             node("Pad", ["a", "pads_e", "value_e"], ["ye"], name="pad_e")]
    outputs = {
        "ya": np.pad(inputs["a"], ((1, 0), (0, 2)), constant_values=-100),
        "yb": np.pad(inputs["b"], ((0, 0), (1, 0)), constant_values=True),
        "yc": np.pad(inputs["c"], ((0, 1), (0, 1))),
        "yd": np.pad(inputs["d"], (2, 1), constant_values=255),
        # np.pad takes no negative pads: the crop of column 0 first.
        "ye": np.pad(inputs["a"][:, 1:], ((0, 1), (0, 1)),
                     constant_values=7),
    }
    save_graph("int_pad", nodes,
               [vi(k, elem[v.dtype.type], v.shape) for k, v in inputs.items()],
               [vi(k, elem[v.dtype.type], v.shape)
                for k, v in outputs.items()], inits, opset=18)
    for name, value in {**inputs, **outputs}.items():
        np.save(os.path.join(HERE, "int_pad_%s.npy" % name), value)


def write_nonzero():
    """NonZero of constants (folded) and of what is not one (nonzero.test)."""
    node = helper.make_node
    x = np.arange(1, 7, dtype=np.float32).reshape(2, 3) / 4
    m = np.array([[[0, 1.5], [np.nan, 0]], [[-0.0, -2], [0, 0]],
                  [[3, 0], [0, 7]]], np.float32)
    mask = np.array([[True, False, True], [False, False, True]])
    inits = [numpy_helper.from_array(v, k) for k, v in [
        ("s", np.array(2.5, np.float32)), ("mask", mask),
        ("six", np.array([6], np.int64)), ("shape23", np.array([2, 3]))]]
    nodes = [
        # A Constant, as a FLOAT initializer of more than one element is a
        # param.
        node("Constant", [], ["m"], name="m",
             value=numpy_helper.from_array(m)),
        node("NonZero", ["m"], ["nz_m"], name="nz_m"),
        node("NonZero", ["s"], ["nz_s"], name="nz_s"),
        # Longformer's TorchScript export: positions of ones, as a range.
        node("ConstantOfShape", ["six"], ["ones"], name="ones",
             value=numpy_helper.from_array(np.array([1], np.int64))),
        node("NonZero", ["ones"], ["pos"], name="nz_ones"),
        node("Cast", ["pos"], ["posf"], name="cast", to=TP.FLOAT),
        node("Reshape", ["posf", "shape23"], ["pos23"], name="reshape"),
        node("Mul", ["x", "pos23"], ["y"], name="mul"),
        # x[mask]: GatherND at the mask's positions.
        node("NonZero", ["mask"], ["nz_mask"], name="nz_mask"),
        node("Transpose", ["nz_mask"], ["idx"], name="transpose"),
        node("GatherND", ["x", "idx"], ["picked"], name="gather_nd"),
    ]
    outputs = ["nz_m", "nz_s", "y", "picked"]
    ref = ReferenceEvaluator(helper.make_model(helper.make_graph(
        nodes, "ref", [vi("x", TP.FLOAT, x.shape)],
        [vi(k, TP.UNDEFINED, None) for k in outputs], inits)))
    values = dict(zip(outputs, ref.run(None, {"x": x})))
    assert values["nz_s"].shape == (0, 1)
    assert np.array_equal(values["picked"], x[mask])
    save_graph("nonzero", nodes, [vi("x", TP.FLOAT, x.shape)],
               [vi(k, TP.INT64 if k.startswith("nz") else TP.FLOAT,
                   values[k].shape) for k in outputs], inits, opset=17)
    for name, value in {"x": x, **values}.items():
        np.save(os.path.join(HERE, "nonzero_%s.npy" % name), value)
    save_graph("nonzero_runtime",
               [node("Greater", ["x", "zero"], ["pos"], name="greater"),
                node("NonZero", ["pos"], ["nz"], name="nonzero")],
               [vi("x", TP.FLOAT, [4])], [vi("nz", TP.INT64, [1, None])],
               [numpy_helper.from_array(np.array(0, np.float32), "zero")],
               opset=17)
    save_graph("nonzero_param",
               [node("NonZero", ["w"], ["nz"], name="nonzero")], [],
               [vi("nz", TP.INT64, [2, None])],
               [numpy_helper.from_array(np.eye(2, dtype=np.float32), "w")],
               opset=17)


def write_errors():
    save_graph("input_uint64",
               [helper.make_node("Identity", ["x"], ["y"], name="id")],
               [vi("x", TP.UINT64, [4])], [vi("y", TP.UINT64, [4])],
               opset=17)
    save_graph("cast_uint64",
               [helper.make_node("Cast", ["ids"], ["d"], name="cast",
                                 to=TP.UINT64)],
               [vi("ids", TP.INT64, [4])], [vi("d", TP.UINT64, [4])],
               opset=17)


if __name__ == "__main__":
    write_int_types()
    write_byte_cnn()
    write_pow_fold()
    write_int_pad()
    write_nonzero()
    write_errors()
