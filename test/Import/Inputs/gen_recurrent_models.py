#!/usr/bin/env python3
"""Writes the recurrent models of test/Import/recurrent.test.

  rnn_stack.onnx                       RecurrentNet: the 64 features of
                                       bn_cnn_rows.csv (/ 16) as 8 steps of
                                       8 through a two-layer bidirectional
                                       nn.LSTM, an nn.GRU and an nn.RNN with
                                       ReLU; TorchScript exporter, opset 17
                                       (LSTM, GRU with linear_before_reset,
                                       RNN with activations ["Relu"])
  rnn_stack_dynamo.onnx                the same model exported by the
                                       torch.export-based exporter (opset
                                       18): the zero initial states are
                                       initializers
  rnn_stack_logits.npy                 its logits on the 16 rows before
                                       training
  rnn_stack_torch_log.csv              its losses over 10 full-batch SGD
                                       steps (lr 0.1, momentum 0.9)
  packed_lstm.onnx                     PackedLstm: padded sequences with
                                       their lengths through
                                       pack_padded_sequence, a bidirectional
                                       nn.LSTM and an nn.GRU on the packed
                                       sequence, pad_packed_sequence; the
                                       TorchScript exporter (opset 17) gives
                                       the lengths to both as sequence_lens
  packed_lstm_data.npz                 40 rows: x [40, 6, 4] (zeros past
                                       each row's length), lengths [40]
                                       (1 to 6, falling within each 4 rows,
                                       as enforce_sorted needs), labels [40]
  packed_lstm_x.npy, packed_lstm_lengths.npy
                                       the first 4 rows
  packed_lstm_logits.npy               their logits
  packed_lstm_torch_log.csv            its losses over 10 SGD steps (lr 0.1,
                                       momentum 0.9) on the rows in order, 4
                                       per step
  rec_<case>.onnx, rec_<case>_<name>.npy
                                       single nodes built with onnx.helper,
                                       what no exporter writes (named
                                       activations with alpha and beta, clip,
                                       peepholes, layout 1, reverse with
                                       sequence_lens, initial states, GRU
                                       without linear_before_reset), their
                                       inputs and outputs from the NumPy
                                       reference below (float64)
  rec_bad_<case>.onnx                  nodes the importer rejects
  rev_seq.onnx, rev_seq_<name>.npy     ReverseSequence (which tf2onnx
                                       writes for a bidirectional RNN)
                                       time-major of FLOAT and batch-major
                                       of INT64 data at run-time lengths,
                                       and the NumPy reference

Needs PyPI's torch, onnx and onnxscript, as gen_torch_models.py:

    /tmp/tv/bin/python test/Import/Inputs/gen_recurrent_models.py
"""

import os

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from gen_torch_models import HERE, export_and_train, save_graph


class RecurrentNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(8, 16, num_layers=2, batch_first=True,
                            bidirectional=True)
        self.gru = nn.GRU(8, 12, batch_first=True)
        self.rnn = nn.RNN(8, 10, nonlinearity="relu")
        self.head = nn.Linear(32 + 12 + 10, 4)

    def forward(self, x):
        t = x.reshape(x.shape[0], 8, 8)
        a, _ = self.lstm(t)
        _, hg = self.gru(t)
        r, _ = self.rnn(t.transpose(0, 1))
        return self.head(torch.cat([a.mean(1), hg[0], r[-1]], 1))


class PackedLstm(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 8, batch_first=True, bidirectional=True)
        self.gru = nn.GRU(16, 8, batch_first=True)
        self.head = nn.Linear(8, 3)

    def forward(self, x, lengths):
        packed = pack_padded_sequence(x, lengths, batch_first=True)
        out, _ = self.lstm(packed)
        out, _ = self.gru(out)
        y, _ = pad_packed_sequence(out, batch_first=True,
                                   total_length=x.shape[1])
        return self.head(y.sum(1) / lengths.unsqueeze(1))


def write_rnn_stack():
    torch.manual_seed(31)
    model = RecurrentNet()
    x = torch.zeros(16, 64)
    torch.onnx.export(model, (x,), os.path.join(HERE, "rnn_stack_dynamo.onnx"),
                      dynamo=True, opset_version=18, external_data=False,
                      input_names=["x"], output_names=["logits"])
    export_and_train(model, "rnn_stack", images=False, logits=True)


def packed_rows(rng, rows=40, steps=6, features=4):
    lengths = rng.integers(1, steps + 1, rows)
    for g in range(0, rows, 4):
        lengths[g:g + 4] = np.sort(lengths[g:g + 4])[::-1]
    x = rng.normal(size=(rows, steps, features)).astype(np.float32)
    for i, n in enumerate(lengths):
        x[i, n:] = 0.0
    mean0 = x[:, :, 0].sum(1) / lengths
    labels = np.digitize(mean0, [-0.3, 0.3])
    return x, lengths.astype(np.int64), labels.astype(np.int64)


def write_packed_lstm():
    torch.manual_seed(32)
    x, lengths, labels = packed_rows(np.random.default_rng(32))
    np.savez(os.path.join(HERE, "packed_lstm_data.npz"), x=x, lengths=lengths,
             labels=labels)
    model = PackedLstm()
    batch = (torch.tensor(x[:4]), torch.tensor(lengths[:4]))
    np.save(os.path.join(HERE, "packed_lstm_x.npy"), x[:4])
    np.save(os.path.join(HERE, "packed_lstm_lengths.npy"), lengths[:4])
    with torch.no_grad():
        np.save(os.path.join(HERE, "packed_lstm_logits.npy"),
                model(*batch).numpy())
    torch.onnx.export(model, batch, os.path.join(HERE, "packed_lstm.onnx"),
                      dynamo=False, opset_version=17,
                      input_names=["x", "lengths"], output_names=["logits"])
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    with open(os.path.join(HERE, "packed_lstm_torch_log.csv"), "w") as log:
        log.write("step,loss\n")
        for step in range(1, 11):
            rows = slice(4 * (step - 1), 4 * step)
            loss = nn.functional.cross_entropy(
                model(torch.tensor(x[rows]), torch.tensor(lengths[rows])),
                torch.tensor(labels[rows]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            log.write(f"{step},{loss.item():.9g}\n")


# An independent reference of ONNX's RNN, GRU and LSTM (its operator
# documentation's equations) in float64, with sequence_lens as PyTorch's
# packed sequences give it: past its length a row keeps its state and gives
# zeros.
ACTS = {
    "sigmoid": lambda x, a, b: 1 / (1 + np.exp(-x)),
    "tanh": lambda x, a, b: np.tanh(x),
    "relu": lambda x, a, b: np.maximum(x, 0),
    "affine": lambda x, a, b: a * x + b,
    "leakyrelu": lambda x, a, b: np.where(x >= 0, x, a * x),
    "thresholdedrelu": lambda x, a, b: np.where(x >= a, x, 0),
    "scaledtanh": lambda x, a, b: a * np.tanh(b * x),
    "hardsigmoid": lambda x, a, b: np.clip(a * x + b, 0, 1),
    "elu": lambda x, a, b: np.where(x >= 0, x, a * (np.exp(x) - 1)),
    "softsign": lambda x, a, b: x / (1 + np.abs(x)),
    "softplus": lambda x, a, b: np.log1p(np.exp(x)),
}
TAKES = {"affine": "ab", "leakyrelu": "a", "thresholdedrelu": "a",
         "scaledtanh": "ab", "hardsigmoid": "ab", "elu": "a"}


def activation_fns(names, alphas, betas):
    alphas, betas, fns = list(alphas), list(betas), []
    for name in names:
        key = name.lower()
        a = alphas.pop(0) if "a" in TAKES.get(key, "") else 0.0
        b = betas.pop(0) if "b" in TAKES.get(key, "") else 0.0
        fns.append(lambda x, f=ACTS[key], a=a, b=b: f(x, a, b))
    return fns


def reference_recurrent(cell, x, w, r, b=None, lens=None, h0=None, c0=None,
                        p=None, direction="forward", acts=(), alphas=(),
                        betas=(), clip=None, lbr=0, layout=0):
    x = x.astype(np.float64)
    if layout:
        x = x.transpose(1, 0, 2)
        h0 = None if h0 is None else h0.transpose(1, 0, 2)
        c0 = None if c0 is None else c0.transpose(1, 0, 2)
    T, B, _ = x.shape
    D, H = r.shape[0], r.shape[2]
    G = {"RNN": 1, "GRU": 3, "LSTM": 4}[cell]
    fns = activation_fns(acts, alphas, betas)
    per = len(fns) // D
    cl = (lambda v: np.clip(v, -clip, clip)) if clip else (lambda v: v)
    lens = np.full(B, T) if lens is None else lens
    y = np.zeros((T, D, B, H))
    hs, cs = [], []
    for d in range(D):
        f = fns[d * per:(d + 1) * per]
        W, R = w[d].astype(np.float64), r[d].astype(np.float64)
        wb = np.zeros(G * H) if b is None else b[d, :G * H]
        rb = np.zeros(G * H) if b is None else b[d, G * H:]
        h = np.zeros((B, H)) if h0 is None else h0[d].astype(np.float64)
        c = np.zeros((B, H)) if c0 is None else c0[d].astype(np.float64)
        pd = np.zeros(3 * H) if p is None else p[d]
        rev = direction == "reverse" or d == 1
        for t in (range(T - 1, -1, -1) if rev else range(T)):
            xw = x[t] @ W.T + wb
            if cell == "RNN":
                hn = f[0](cl(xw + h @ R.T + rb))
                cn = c
            elif cell == "GRU":
                hr = h @ R.T
                z = f[0](cl(xw[:, :H] + hr[:, :H] + rb[:H]))
                rr = f[0](cl(xw[:, H:2 * H] + hr[:, H:2 * H] + rb[H:2 * H]))
                if lbr:
                    hh = rr * (hr[:, 2 * H:] + rb[2 * H:])
                else:
                    hh = (rr * h) @ R[2 * H:].T + rb[2 * H:]
                cand = f[1](cl(xw[:, 2 * H:] + hh))
                hn = (1 - z) * cand + z * h
                cn = c
            else:
                g = xw + h @ R.T + rb
                i = f[0](cl(g[:, :H] + pd[:H] * c))
                fg = f[0](cl(g[:, 2 * H:3 * H] + pd[2 * H:] * c))
                cn = fg * c + i * f[1](cl(g[:, 3 * H:]))
                o = f[0](cl(g[:, H:2 * H] + pd[H:2 * H] * cn))
                hn = o * f[2](cn)
            live = (t < lens)[:, None]
            y[t, d] = np.where(live, hn, 0)
            h = np.where(live, hn, h)
            c = np.where(live, cn, c)
        hs.append(h)
        cs.append(c)
    yh, yc = np.stack(hs), np.stack(cs)
    if layout:
        y, yh, yc = (y.transpose(2, 0, 1, 3), yh.transpose(1, 0, 2),
                     yc.transpose(1, 0, 2))
    return [v.astype(np.float32) for v in (y, yh, yc)]


INPUT_NAMES = ("X", "W", "R", "B", "sequence_lens", "initial_h", "initial_c",
               "P")
F = TensorProto.FLOAT


def rec_model(stem, cell, inputs, attrs, outputs=None, reference=True):
    """One `cell` node named `rnn` over `inputs` (name -> array; X and
    sequence_lens graph inputs, the others initializers), saved as
    rec_<stem>.onnx with the inputs and the reference's outputs as .npy."""
    names = [n if n in inputs else "" for n in INPUT_NAMES]
    while names and not names[-1]:
        names.pop()
    outs = outputs or (["Y", "Y_h", "Y_c"] if cell == "LSTM" else ["Y", "Y_h"])
    graph_in, inits = [], []
    for n, v in inputs.items():
        if n in ("X", "sequence_lens"):
            graph_in.append(helper.make_tensor_value_info(
                n, helper.np_dtype_to_tensor_dtype(v.dtype), list(v.shape)))
        else:
            inits.append(numpy_helper.from_array(v, n))
    node = helper.make_node(cell, names, outs, name="rnn", **attrs)
    graph = helper.make_graph([node], stem, graph_in,
                              [helper.make_tensor_value_info(o, F, None)
                               for o in outs], inits)
    model = helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 22)], producer_name="amp-test")
    model.ir_version = 10
    onnx.save(model, os.path.join(HERE, f"rec_{stem}.onnx"))
    if not reference:
        return
    for n in ("X", "sequence_lens"):
        if n in inputs:
            np.save(os.path.join(HERE, f"rec_{stem}_{n}.npy"), inputs[n])
    kw = dict(b=inputs.get("B"), lens=inputs.get("sequence_lens"),
              h0=inputs.get("initial_h"), c0=inputs.get("initial_c"),
              p=inputs.get("P"), direction=attrs.get("direction", "forward"),
              acts=attrs.get("activations",
                             {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"],
                              "LSTM": ["Sigmoid", "Tanh", "Tanh"]}[cell]
                             * (2 if attrs.get("direction") ==
                                "bidirectional" else 1)),
              alphas=attrs.get("activation_alpha", ()),
              betas=attrs.get("activation_beta", ()), clip=attrs.get("clip"),
              lbr=attrs.get("linear_before_reset", 0),
              layout=attrs.get("layout", 0))
    y, yh, yc = reference_recurrent(cell, inputs["X"], inputs["W"],
                                    inputs["R"], **kw)
    for o, v in zip(outs, (y, yh, yc)):
        np.save(os.path.join(HERE, f"rec_{stem}_{o}.npy"), v)


def weights(rng, dirs, gates, hidden, features, bias=True):
    def n(*shape):
        return (rng.standard_normal(shape) * 0.5).astype(np.float32)
    ws = dict(W=n(dirs, gates * hidden, features),
              R=n(dirs, gates * hidden, hidden))
    if bias:
        ws["B"] = n(dirs, 2 * gates * hidden)
    return ws


def write_rec_models():
    rng = np.random.default_rng(33)
    T, B, I, H = 5, 3, 4, 6
    lens = np.array([5, 2, 0], np.int32)
    # LSTM, bidirectional, batch first: optional activations with alpha and
    # beta, clip, peepholes, lengths and initial states.
    rec_model("lstm_acts", "LSTM", dict(
        X=rng.standard_normal((B, T, I)).astype(np.float32),
        **weights(rng, 2, 4, H, I), sequence_lens=lens,
        initial_h=rng.standard_normal((B, 2, H)).astype(np.float32),
        initial_c=rng.standard_normal((B, 2, H)).astype(np.float32),
        P=(rng.standard_normal((2, 3 * H)) * 0.5).astype(np.float32)), dict(
        direction="bidirectional", layout=1, clip=2.5, hidden_size=H,
        activations=["HardSigmoid", "ScaledTanh", "Affine",
                     "Sigmoid", "Softsign", "LeakyRelu"],
        activation_alpha=[0.3, 1.5, 0.8, 0.2],
        activation_beta=[0.4, 0.7, 0.1]))
    # GRU, reverse, without linear_before_reset, lengths as INT64.
    rec_model("gru_reverse", "GRU", dict(
        X=rng.standard_normal((T, B, I)).astype(np.float32),
        **weights(rng, 1, 3, H, I), sequence_lens=lens.astype(np.int64),
        initial_h=rng.standard_normal((1, B, H)).astype(np.float32)), dict(
        direction="reverse", activations=["Sigmoid", "Elu"],
        activation_alpha=[0.5]))
    # RNN, bidirectional, no bias, ThresholdedRelu and Softplus.
    rec_model("rnn_bidir", "RNN", dict(
        X=rng.standard_normal((T, B, I)).astype(np.float32),
        **weights(rng, 2, 1, H, I, bias=False)), dict(
        direction="bidirectional",
        activations=["ThresholdedRelu", "Softplus"],
        activation_alpha=[0.1]))

    # Nodes the importer rejects.
    x = rng.standard_normal((T, B, I)).astype(np.float32)
    bad = dict(
        direction=("LSTM", {}, dict(direction="sideways")),
        hidden=("LSTM", {}, dict(hidden_size=5)),
        layout=("LSTM", {}, dict(layout=2)),
        input_forget=("LSTM", {}, dict(input_forget=1)),
        clip=("RNN", {}, dict(clip=-1.0)),
        activation=("RNN", {}, dict(activations=["Swish"])),
        activation_count=("LSTM", {}, dict(activations=["Sigmoid", "Tanh"])),
        affine=("RNN", {}, dict(activations=["Affine"])),
        extra_alpha=("RNN", {}, dict(activations=["Tanh"],
                                     activation_alpha=[0.5])),
        w_shape=("GRU", dict(W=np.zeros((1, 3 * H, I + 1), np.float32)), {}),
        peephole=("LSTM", dict(P=np.zeros((1, 4 * H), np.float32)), {}),
        lens_type=("RNN", dict(sequence_lens=np.full(B, 2.0, np.float32)),
                   {}),
        x_rank=("RNN", dict(X=x[0]), {}),
    )
    for stem, (cell, override, attrs) in bad.items():
        gates = {"RNN": 1, "GRU": 3, "LSTM": 4}[cell]
        inputs = dict(X=x, **weights(rng, 1, gates, H, I))
        inputs.update(override)
        rec_model("bad_" + stem, cell, inputs, attrs, reference=False)
    # Lengths known at import time past the sequence; too many steps.
    inputs = dict(X=x, **weights(rng, 1, 1, H, I))
    model_with_const_lens(inputs, np.array([5, 6, 1], np.int32))
    rec_model("bad_steps", "RNN", dict(
        X=np.zeros((16385, 1, 1), np.float32),
        **weights(rng, 1, 1, 2, 1)), {}, reference=False)


def model_with_const_lens(inputs, lens):
    """rec_bad_lens.onnx: sequence_lens an initializer of `lens`."""
    node = helper.make_node("RNN", ["X", "W", "R", "", "sequence_lens"],
                            ["Y"], name="rnn")
    inits = [numpy_helper.from_array(inputs[n], n) for n in ("W", "R")]
    inits.append(numpy_helper.from_array(lens, "sequence_lens"))
    graph = helper.make_graph(
        [node], "bad_lens",
        [helper.make_tensor_value_info("X", F, list(inputs["X"].shape))],
        [helper.make_tensor_value_info("Y", F, None)], inits)
    model = helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 22)], producer_name="amp-test")
    model.ir_version = 10
    onnx.save(model, os.path.join(HERE, "rec_bad_lens.onnx"))


def reverse_sequence(x, lens, time_axis):
    """ONNX's ReverseSequence in NumPy: each row's first lens[b] steps
    reversed."""
    y = x.copy()
    for b, n in enumerate(lens):
        if time_axis == 0:
            y[:n, b] = x[:n, b][::-1]
        else:
            y[b, :n] = x[b, :n][::-1]
    return y


def write_reverse_sequence():
    """rev_seq.onnx: ReverseSequence of FLOAT data time-major and of INT64
    data batch-major, at run-time lengths, with the NumPy reference;
    rec_bad_reverse_<case>.onnx: nodes the importer rejects."""
    rng = np.random.default_rng(23)
    x = rng.standard_normal((5, 3, 2)).astype(np.float32)
    ids = rng.integers(0, 100, (3, 4)).astype(np.int64)
    lens = np.array([5, 1, 3], np.int64)
    lens_b = np.array([4, 2, 1], np.int64)
    nodes = [helper.make_node("ReverseSequence", ["x", "lens"], ["y"],
                              name="time_major"),
             helper.make_node("ReverseSequence", ["ids", "lens_b"], ["z"],
                              name="batch_major", time_axis=1, batch_axis=0)]
    i64 = TensorProto.INT64
    save_graph("rev_seq", nodes, [
        helper.make_tensor_value_info("x", F, list(x.shape)),
        helper.make_tensor_value_info("lens", i64, [3]),
        helper.make_tensor_value_info("ids", i64, list(ids.shape)),
        helper.make_tensor_value_info("lens_b", i64, [3])],
        [helper.make_tensor_value_info("y", F, list(x.shape)),
         helper.make_tensor_value_info("z", i64, list(ids.shape))])
    for name, value in dict(x=x, lens=lens, ids=ids, lens_b=lens_b,
                            y=reverse_sequence(x, lens, 0),
                            z=reverse_sequence(ids, lens_b, 1)).items():
        np.save(os.path.join(HERE, f"rev_seq_{name}.npy"), value)
    for stem, attrs, lens_type in (("axes", dict(time_axis=2), i64),
                                   ("lens", {}, TensorProto.INT32)):
        save_graph("rec_bad_reverse_" + stem,
                   [helper.make_node("ReverseSequence", ["x", "lens"], ["y"],
                                     name="rev", **attrs)],
                   [helper.make_tensor_value_info("x", F, list(x.shape)),
                    helper.make_tensor_value_info("lens", lens_type, [3])],
                   [helper.make_tensor_value_info("y", F, None)],
                   check=False)

def main():
    write_rnn_stack()
    write_packed_lstm()
    write_rec_models()
    write_reverse_sequence()


if __name__ == "__main__":
    main()
