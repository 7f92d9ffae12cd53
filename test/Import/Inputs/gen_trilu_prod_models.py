#!/usr/bin/env python3
"""Writes the models of test/Import/trilu-prod.test.

  trilu_prod_mlp.onnx                  TriluProdMlp: torch.triu and
                                       torch.tril of computed scores (Trilu
                                       of a run-time input) and torch.prod
                                       over an axis of odd length, of tanh
                                       and of ReLU (exact zeros); the
                                       TorchScript exporter, opset 18
                                       (ReduceProd's axes an input)
  trilu_prod_mlp_dynamo.onnx           the same model exported by the
                                       torch.export-based exporter (opset
                                       18)
  trilu_prod_mlp_logits.npy            its logits on the 16 rows of
                                       bn_cnn_rows.csv (/ 16) before training
  trilu_prod_mlp_torch_log.csv         its losses over 10 full-batch SGD
                                       steps (lr 0.1, momentum 0.9)
  castlike.onnx, castlike_<name>.npy   CastLike to a FLOAT16 graph input
                                       through an Add (the declared type
                                       kept), to a BFLOAT16 Constant node's
                                       type and to INT64; EyeLike of an
                                       input; Trilu with k a graph input;
                                       inputs and outputs from NumPy
  trilu_bad_<case>.onnx, eyelike_bad_<case>.onnx
                                       nodes the importer rejects

Needs PyPI's torch and onnx, as gen_torch_models.py:

    /tmp/tv/bin/python test/Import/Inputs/gen_trilu_prod_models.py
"""

import os

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper
from torch import nn

from gen_torch_models import HERE, export_and_train, save_graph as save

F = TensorProto.FLOAT


class TriluProdMlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 24)
        self.head = nn.Linear(16 + 16 + 8 + 8, 4)

    def forward(self, x):
        h = self.fc1(x)
        q = h.reshape(-1, 4, 6)
        scores = q @ q.transpose(1, 2)
        upper = torch.triu(scores, diagonal=1).flatten(1)
        lower = torch.tril(scores, diagonal=-1).flatten(1)
        p_tanh = torch.prod(torch.tanh(h).reshape(-1, 8, 3), dim=2)
        p_relu = torch.prod(torch.relu(h).reshape(-1, 3, 8), dim=1)
        return self.head(torch.cat([upper, lower, p_tanh, p_relu], 1))


def write_trilu_prod_mlp():
    torch.manual_seed(21)
    model = TriluProdMlp()
    rows = np.loadtxt(os.path.join(HERE, "bn_cnn_rows.csv"), delimiter=",")
    x = torch.tensor(rows[:, :64] / 16.0, dtype=torch.float32)
    torch.onnx.export(model, (x,),
                      os.path.join(HERE, "trilu_prod_mlp_dynamo.onnx"),
                      input_names=["x"], output_names=["logits"],
                      dynamo=True, opset_version=18, external_data=False)
    export_and_train(model, "trilu_prod_mlp", images=False, opset=18,
                     logits=True)


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def write_castlike():
    """CastLike's target type as the model declares it; EyeLike; Trilu with
    a computed k."""
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((2, 3)) * 3).astype(np.float32)
    x[0, 0] = 65520.0  # FLOAT16's infinity, BFLOAT16's 65536
    x[0, 1] = 1.0 + 2.0 ** -12  # exact in neither: rounds to 1
    half = np.array([1.0, 2.0, 3.0], np.float16)
    k = np.array(-1, np.int64)
    nodes = [
        helper.make_node("Add", ["half", "half"], ["twice"], name="twice"),
        helper.make_node("CastLike", ["x", "twice"], ["as_half"],
                         name="as_half"),
        helper.make_node("Constant", [], ["bf"], name="bf",
                         value=helper.make_tensor("bf", TensorProto.BFLOAT16,
                                                  [], [0.5])),
        helper.make_node("CastLike", ["x", "bf"], ["as_bf16"],
                         name="as_bf16"),
        helper.make_node("CastLike", ["x", "k"], ["as_int"], name="as_int"),
        helper.make_node("EyeLike", ["x"], ["eye"], name="eye", k=1),
        helper.make_node("Trilu", ["x", "k"], ["upper"], name="upper"),
    ]
    save("castlike", nodes,
         [vi("x", F, [2, 3]), vi("half", TensorProto.FLOAT16, [3]),
          vi("k", TensorProto.INT64, [])],
         [vi("as_half", TensorProto.FLOAT16, [2, 3]),
          vi("as_bf16", TensorProto.BFLOAT16, [2, 3]),
          vi("as_int", TensorProto.INT64, [2, 3]),
          vi("eye", F, [2, 3]), vi("upper", F, [2, 3])])
    # BFLOAT16 rounds to nearest even, as ONNX's Cast does.
    bits = x.view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    as_bf16 = bits.astype(np.uint32).view(np.float32)
    outputs = dict(
        x=x, half=half, k=k,
        as_half=x.astype(np.float16).astype(np.float32),
        as_bf16=as_bf16,
        as_int=np.trunc(x).astype(np.int64),
        eye=np.eye(2, 3, k=1, dtype=np.float32),
        upper=np.triu(x, k=-1))
    for name, value in outputs.items():
        np.save(os.path.join(HERE, "castlike_%s.npy" % name), value)


def write_bad():
    """Trilu and EyeLike nodes the importer rejects."""
    k_float = numpy_helper.from_array(np.array(1.0, np.float32), "k")
    k_two = numpy_helper.from_array(np.array([1, 2], np.int64), "k")
    for stem, shape, inits in (("trilu_bad_k_type", [2, 3], [k_float]),
                               ("trilu_bad_k_shape", [2, 3], [k_two])):
        save(stem, [helper.make_node("Trilu", ["x", "k"], ["y"], name="n")],
             [vi("x", F, shape)], [vi("y", F, None)], inits, check=False)
    # A BOOL input whose row and column positions exceed the importer's
    # limit on constants.
    save("trilu_bad_huge", [helper.make_node("Trilu", ["x"], ["y"],
                                             name="n")],
         [vi("x", TensorProto.BOOL, [2 ** 40, 2 ** 20])],
         [vi("y", TensorProto.BOOL, None)], check=False)
    for stem, shape, attrs in (("eyelike_bad_rank", [2, 2, 2], {}),
                               ("eyelike_bad_dtype", [2, 2],
                                dict(dtype=TensorProto.STRING))):
        save(stem, [helper.make_node("EyeLike", ["x"], ["y"], name="n",
                                     **attrs)],
             [vi("x", F, shape)], [vi("y", F, None)], check=False)


def main():
    write_trilu_prod_mlp()
    write_castlike()
    write_bad()


if __name__ == "__main__":
    main()
