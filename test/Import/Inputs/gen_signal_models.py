#!/usr/bin/env python3
"""Writes the models of test/Import/stft.test.

  stft_cases.onnx          STFT nodes (opset 17) on a real signal xr
                           [2, 100, 1] and a complex one xc [2, 40, 2]: a
                           Hann window with frame_length (one-sided), the
                           window alone, frame_length alone (a rectangular
                           window) with a step that leaves samples over,
                           and the complex signal two-sided
  stft_cases_x*.npy        their inputs
  stft_cases_*.npy         their outputs by ONNX's reference evaluator
  windows.onnx             HannWindow, HammingWindow and BlackmanWindow,
                           periodic and symmetric, one as DOUBLE, and
                           MelWeightMatrix, of sizes given by Constants
  windows_*.npy            their outputs by ONNX's reference evaluator
  spectrogram.onnx         SpecNet: a learned Conv1d on the waveform, then
                           torch.stft with a Hann window (center: reflect
                           padding), the power spectrum (ReduceL2, Pow), a
                           mel filter bank (a buffer), log, a Linear and the
                           mean over frames; the torch.export-based
                           exporter (the TorchScript one has no complex
                           STFT)
  spectrogram_x.npy        the first 4 waves
  spectrogram_logits.npy   its logits on them
  spectrogram_waves.npz    40 waves (`wav` [40, 400], tones of a frequency
                           per class in noise) and their `labels`
  spectrogram_torch_log.csv  PyTorch's losses over 10 SGD steps (lr 0.01,
                           momentum 0.9), 4 waves per step in order
  stft_bad_*.onnx          errors: a signal of rank 2, a frame longer than
                           the signal, a window and frame_length that
                           differ, one-sided on a complex signal, a
                           window of size 0, a mel band outside the bins

Needs PyPI's torch and onnx, as gen_torch_models.py:

    /tmp/tv/bin/python test/Import/Inputs/gen_signal_models.py
"""

import os

import numpy as np
import torch
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from torch import nn

from gen_torch_models import HERE, save_graph, train_token_rows_and_log

TP = TensorProto


def vi(name, shape, dtype=TP.FLOAT):
    return helper.make_tensor_value_info(name, dtype, shape)


def const(name, value, dtype=np.int64):
    return helper.make_node("Constant", [], [name], name=name,
                            value=numpy_helper.from_array(
                                np.array(value, dtype), name))


def save_cases(stem, nodes, inputs, outputs):
    """The nodes as a model of opset 17 with ONNX's reference outputs."""
    path = save_graph(stem, nodes, [vi(k, list(v.shape))
                                    for k, v in inputs.items()],
                      [helper.make_value_info(o, helper.TypeProto())
                       for o in outputs], opset=17, check=False)
    for name, value in zip(outputs,
                           ReferenceEvaluator(path).run(None, inputs)):
        np.save(os.path.join(HERE, "%s_%s.npy" % (stem, name)),
                np.asarray(value))


def write_stft_cases():
    rng = np.random.default_rng(83)
    inputs = {"xr": rng.standard_normal((2, 100, 1)).astype(np.float32),
              "xc": rng.standard_normal((2, 40, 2)).astype(np.float32)}
    for k, v in inputs.items():
        np.save(os.path.join(HERE, "stft_cases_%s.npy" % k), v)
    hann = np.hanning(17)[:16].astype(np.float32)  # periodic, 16 samples
    node = helper.make_node
    save_cases("stft_cases", [
        const("step4", 4), const("step7", 7), const("len16", 16),
        const("len12", 12), const("len8", 8), const("hann", hann, np.float32),
        node("STFT", ["xr", "step4", "hann", "len16"], ["hann_len"],
             name="hann_len"),
        node("STFT", ["xr", "step4", "hann"], ["hann_only"],
             name="hann_only"),
        # (100 - 12) / 7: 12 frames, the last 4 samples unread.
        node("STFT", ["xr", "step7", "", "len12"], ["rect"], name="rect"),
        node("STFT", ["xc", "step4", "", "len8"], ["complex"],
             name="complex", onesided=0),
    ], inputs, ["hann_len", "hann_only", "rect", "complex"])


def write_windows():
    node = helper.make_node
    nodes = [const("n10", 10), const("n7", 7), const("mels", 8),
             const("dft", 64), const("rate", 8000),
             const("low", 100.0, np.float32),
             const("high", 3500.0, np.float32)]
    outputs = []
    for op in ("HannWindow", "HammingWindow", "BlackmanWindow"):
        for periodic in (1, 0):
            name = "%s_%s" % (op.lower(), "periodic" if periodic else "sym")
            nodes.append(node(op, ["n10" if periodic else "n7"], [name],
                              name=name, periodic=periodic))
            outputs.append(name)
    nodes.append(node("HannWindow", ["n7"], ["hann_double"],
                      name="hann_double", output_datatype=TP.DOUBLE))
    nodes.append(node("MelWeightMatrix", ["mels", "dft", "rate", "low",
                                          "high"], ["mel"], name="mel"))
    save_cases("windows", nodes, {}, outputs + ["hann_double", "mel"])


class SpecNet(nn.Module):
    """A keyword-spotting-like classifier of raw waves."""

    def __init__(self, mel):
        super().__init__()
        self.pre = nn.Conv1d(1, 1, 5, padding=2)
        self.register_buffer("window", torch.hann_window(64))
        self.register_buffer("mel", torch.tensor(mel))
        self.proj = nn.Linear(mel.shape[1], 4)

    def forward(self, wav):
        wav = self.pre(wav.unsqueeze(1)).squeeze(1)
        spec = torch.stft(wav, n_fft=64, hop_length=16, window=self.window,
                          center=True, return_complex=True)
        power = spec.abs() ** 2
        logmel = torch.log(power.transpose(1, 2) @ self.mel + 1e-3)
        return self.proj(logmel).mean(1)


def write_spectrogram():
    # The mel filter bank of MelWeightMatrix: 33 bins of a 64-point
    # transform at 8 kHz onto 12 bands.
    path = save_graph("mel_bank", [
        const("mels", 12), const("dft", 64), const("rate", 8000),
        const("low", 0.0, np.float32), const("high", 4000.0, np.float32),
        helper.make_node("MelWeightMatrix", ["mels", "dft", "rate", "low",
                                             "high"], ["mel"])],
        [], [helper.make_value_info("mel", helper.TypeProto())], opset=17,
        check=False)
    mel = np.asarray(ReferenceEvaluator(path).run(None, {})[0], np.float32)
    os.remove(path)
    rng = np.random.default_rng(89)
    labels = rng.integers(0, 4, 40)
    t = np.arange(400) / 8000.0
    waves = np.stack([
        np.sin(2 * np.pi * (400 + 700 * c) * t + rng.uniform(0, 6.3)) +
        0.3 * rng.standard_normal(400) for c in labels]).astype(np.float32)
    np.savez(os.path.join(HERE, "spectrogram_waves.npz"), wav=waves,
             labels=labels.astype(np.int64))
    torch.manual_seed(97)
    model = SpecNet(mel)
    model.eval()
    x = torch.tensor(waves[:4])
    np.save(os.path.join(HERE, "spectrogram_x.npy"), waves[:4])
    with torch.no_grad():
        np.save(os.path.join(HERE, "spectrogram_logits.npy"),
                model(x).numpy())
    torch.onnx.export(model, (x,), os.path.join(HERE, "spectrogram.onnx"),
                      dynamo=True, external_data=False, input_names=["wav"],
                      output_names=["logits"], opset_version=18)
    train_token_rows_and_log(
        model, lambda rows: model(torch.tensor(waves[rows])), labels,
        "spectrogram_torch_log.csv", lr=0.01)


def write_errors():
    y = helper.make_value_info("y", helper.TypeProto())
    node = helper.make_node

    def stft(stem, x, inputs, consts, **attrs):
        save_graph(stem, consts + [node("STFT", inputs, ["y"], name="stft",
                                        **attrs)],
                   [x], [y], opset=17, check=False)

    window = const("window", np.ones(8), np.float32)
    stft("stft_bad_rank", vi("x", [2, 40]), ["x", "step"],
         [const("step", 4)])
    stft("stft_bad_frame", vi("x", [2, 40, 1]), ["x", "step", "", "len"],
         [const("step", 4), const("len", 41)])
    stft("stft_bad_window", vi("x", [2, 40, 1]),
         ["x", "step", "window", "len"],
         [const("step", 4), const("len", 16), window])
    stft("stft_bad_onesided", vi("x", [2, 40, 2]), ["x", "step", "window"],
         [const("step", 4), window])
    save_graph("stft_bad_size", [const("n", 0), node(
        "HannWindow", ["n"], ["y"], name="hann")], [], [y], opset=17,
        check=False)
    # 64 bands of a 16-point transform: the upper edges pass its 9 bins.
    save_graph("stft_bad_mel", [
        const("mels", 64), const("dft", 16), const("rate", 8000),
        const("low", 0.0, np.float32), const("high", 8000.0, np.float32),
        node("MelWeightMatrix", ["mels", "dft", "rate", "low", "high"],
             ["y"], name="mel")], [], [y], opset=17, check=False)


if __name__ == "__main__":
    write_stft_cases()
    write_windows()
    write_spectrogram()
    write_errors()
