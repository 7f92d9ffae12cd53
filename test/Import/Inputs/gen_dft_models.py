#!/usr/bin/env python3
"""Writes the models of test/Import/dft.test.

  dft_cases17.onnx,        DFT nodes of opsets 17 and 20 on a real input xr
  dft_cases20.onnx
                           [2, 6, 3, 1] and a complex one xc [3, 5, 4, 2]:
                           forward along an attribute axis, the default
                           axis (-2), a negative axis input, one-sided with
                           a longer dft_length (zero padding), inverse with
                           a shorter one (truncation), inverse one-sided
                           (irfft) of even and odd lengths
  dft_cases_x*.npy         their inputs
  dft_cases{17,20}_*.npy   their outputs by ONNX's reference evaluator
  hf_fnet.onnx             Hugging Face's FNetForSequenceClassification
                           (tokens mixed by the 2-D DFT of the hidden
                           states, torch.fft.fftn(x).real), a tiny random
                           config, by the torch.export-based exporter (the
                           TorchScript one has no fft_fftn), input ids only
  hf_fnet_logits.npy       its logits for bert_pad_ids.npy
  hf_fnet_torch_log.csv    PyTorch's losses over 10 SGD steps (lr 0.01,
                           momentum 0.9) on the first 40 rows of
                           hf_bert_tokens.npz in order, 4 per step
  dft_bad_components.onnx  an input of 3 components (an error)
  dft_bad_axis.onnx        the axis of the components (an error)
  dft_bad_length.onnx      dft_length 0 (an error)

Needs PyPI's torch, transformers and onnx, as gen_torch_models.py:

    /tmp/tv/bin/python test/Import/Inputs/gen_dft_models.py
"""

import os

import numpy as np
import torch
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from torch import nn

from gen_torch_models import (CLASSES, D, HERE, LAYERS, VOCAB,
                              perturb_equal_params, save_graph,
                              train_token_rows_and_log)

TP = TensorProto


def vi(name, shape):
    return helper.make_tensor_value_info(name, TP.FLOAT, shape)


def scalar(name, value):
    return helper.make_node("Constant", [], [name], name=name,
                            value=numpy_helper.from_array(
                                np.array(value, np.int64), name))


def save_cases(stem, opset, nodes, inputs, outputs):
    """The DFT nodes as a model of `opset` with ONNX's reference outputs."""
    path = save_graph(stem, nodes, [vi(k, list(v.shape))
                                    for k, v in inputs.items()],
                      [helper.make_value_info(o, helper.TypeProto())
                       for o in outputs], opset=opset, check=False)
    for name, value in zip(outputs,
                           ReferenceEvaluator(path).run(None, inputs)):
        np.save(os.path.join(HERE, "%s_%s.npy" % (stem, name)),
                np.asarray(value, np.float32))


def write_dft_cases():
    rng = np.random.default_rng(71)
    inputs = {"xr": rng.standard_normal((2, 6, 3, 1)).astype(np.float32),
              "xc": rng.standard_normal((3, 5, 4, 2)).astype(np.float32)}
    for k, v in inputs.items():
        np.save(os.path.join(HERE, "dft_cases_%s.npy" % k), v)
    dft = helper.make_node
    save_cases("dft_cases17", 17, [
        dft("DFT", ["xr"], ["fwd_axis1"], name="fwd_axis1", axis=1),
        dft("DFT", ["xc"], ["fwd_axis2"], name="fwd_axis2", axis=2),
    ], inputs, ["fwd_axis1", "fwd_axis2"])
    save_cases("dft_cases20", 20, [
        scalar("len8", 8), scalar("len3", 3), scalar("len7", 7),
        scalar("axis1", 1), scalar("axis_m3", -3),
        # The default axis, -2: the last signal axis.
        dft("DFT", ["xc"], ["fwd_default"], name="fwd_default"),
        dft("DFT", ["xr", "", "axis_m3"], ["fwd_neg"], name="fwd_neg"),
        dft("DFT", ["xr", "len8", "axis1"], ["onesided_pad"],
            name="onesided_pad", onesided=1),
        dft("DFT", ["xc", "len3", "axis1"], ["inverse_cut"],
            name="inverse_cut", inverse=1),
        # irfft of 5 frequencies: 8 samples by default, then 7.
        dft("DFT", ["xc", "", "axis1"], ["irfft"], name="irfft", inverse=1,
            onesided=1),
        dft("DFT", ["xc", "len7", "axis1"], ["irfft_odd"], name="irfft_odd",
            inverse=1, onesided=1),
    ], inputs, ["fwd_default", "fwd_neg", "onesided_pad", "inverse_cut",
                "irfft", "irfft_odd"])


class IdsLogits(nn.Module):
    """A Hugging Face sequence classifier called with input ids alone."""

    def __init__(self, model):
        super().__init__()
        self.fnet = model

    def forward(self, ids):
        return self.fnet(input_ids=ids).logits


def write_hf_fnet():
    from transformers import FNetConfig, FNetForSequenceClassification

    torch.manual_seed(73)
    model = IdsLogits(FNetForSequenceClassification(FNetConfig(
        vocab_size=VOCAB, hidden_size=D, num_hidden_layers=LAYERS,
        intermediate_size=2 * D, max_position_embeddings=16,
        num_labels=CLASSES, hidden_dropout_prob=0.0, pad_token_id=0,
        initializer_range=0.2, use_tpu_fourier_optimizations=False)))
    perturb_equal_params(model)
    # ONNX's Gather carries no padding_idx (docs/onnx.md): PyTorch trains
    # the padding row too, as amp does.
    model.fnet.fnet.embeddings.word_embeddings.padding_idx = None
    model.eval()
    ids = torch.tensor(np.load(os.path.join(HERE, "bert_pad_ids.npy")))
    with torch.no_grad():
        np.save(os.path.join(HERE, "hf_fnet_logits.npy"), model(ids).numpy())
    torch.onnx.export(model, (ids,), os.path.join(HERE, "hf_fnet.onnx"),
                      dynamo=True, external_data=False, input_names=["ids"],
                      output_names=["logits"])
    data = np.load(os.path.join(HERE, "hf_bert_tokens.npz"))
    train_token_rows_and_log(
        model, lambda rows: model(torch.tensor(data["ids"][rows])),
        data["labels"], "hf_fnet_torch_log.csv", lr=0.01)


def write_errors():
    y = helper.make_value_info("y", helper.TypeProto())
    save_graph("dft_bad_components", [helper.make_node(
        "DFT", ["x"], ["y"], name="dft")], [vi("x", [2, 4, 3])], [y],
        opset=20, check=False)
    save_graph("dft_bad_axis", [scalar("axis", -1), helper.make_node(
        "DFT", ["x", "", "axis"], ["y"], name="dft")], [vi("x", [2, 4, 2])],
        [y], opset=20, check=False)
    save_graph("dft_bad_length", [scalar("len", 0), helper.make_node(
        "DFT", ["x", "len"], ["y"], name="dft")], [vi("x", [2, 4, 2])], [y],
        opset=20, check=False)


if __name__ == "__main__":
    write_dft_cases()
    write_hf_fnet()
    write_errors()
