#!/usr/bin/env python3
"""Imports ONNX's light models with trainable weights and trains them.

The per-model results table of docs/onnx.md: for each light model of the
onnx wheel (ResNet-50, SqueezeNet, VGG-19, ...), its forward error against
ONNX Runtime, the amp-pipeline report (casts, ops and activation bytes in
f16) and one short training run in f32 and in f16-AMP with amp-run.

The light models hold their weights as ConstantOfShape nodes (every weight
0.02, which makes every output the same), so this script first turns each
of them into an initializer with freshly initialized values, as a framework
would for a new model: convolution and Gemm/MatMul weights He-normal
(std sqrt(2 / fan_in)), then rescaled layer by layer to unit output
variance on the sample input (LSUV, `calibrate`); BatchNormalization's
scale and variance and the scale of a Mul one; every other weight (biases,
BN mean and shift) zero. Weights the light files store as initializers
keep their values. The input is normal(0, 1). Then, per model:

1. forward: `amp-import-onnx --save-params`, `amp-run --function forward
   --precision f32` on the input, max abs error against ONNX Runtime's
   output of the same model (an implementation independent of amp);
2. report: `amp-import-onnx --train --loss cross_entropy`, then `amp-opt
   --nn-autodiff --amp-pipeline="compute-type=f16 report=..."`;
3. training: `amp-run --data` on `--steps` random images with random
   labels (the model's batch per step), `--steps` steps in f32 and in f16-AMP from
   the same params and batches; the first step's loss is the forward in
   each precision, the later ones follow one update each.

    bench/onnx_light_training.py --setup      # bench/.venv: onnx, onnxruntime, numpy
    bench/onnx_light_training.py [--build build] [--steps 3] [resnet50 ...]

Needs scripts/get-onnx-tests.sh's data. Runs in the venv's python (it
re-executes itself there). Prints one markdown row per model.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time

import bench_venv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIGHT = os.path.join(ROOT, "data", "onnx", "onnx", "backend", "test",
                     "data", "light")
MODELS = ["resnet50", "squeezenet", "vgg19", "bvlc_alexnet", "zfnet512",
          "inception_v1", "inception_v2", "densenet121", "shufflenet"]


# --------------------------------------------------------------------------
# The trainable model (venv only: onnx and numpy)


def consumers(graph):
    """value name -> [(node, input index)], looking through Unsqueeze."""
    uses = {}
    for node in graph.node:
        for i, name in enumerate(node.input):
            uses.setdefault(name, []).append((node, i))
    return uses


def final_uses(name, uses):
    out = []
    for node, i in uses.get(name, []):
        if node.op_type in ("Unsqueeze", "Reshape", "Identity") and i == 0:
            out += final_uses(node.output[0], uses)
        else:
            out.append((node, i))
    return out


def initial_value(shape, name, uses, rng, np):
    """Fresh values of the weight `name` by the ops that read it."""
    for node, i in final_uses(name, uses):
        op = node.op_type
        if (op in ("Conv", "MatMul") and i == 1) or (op == "Gemm" and i == 1):
            if op == "Conv":
                fan_in = int(np.prod(shape[1:]))
            elif op == "Gemm" and any(a.name == "transB" and a.i
                                      for a in node.attribute):
                fan_in = shape[1]
            else:
                fan_in = shape[0]
            return rng.normal(0.0, np.sqrt(2.0 / fan_in), shape)
        if op == "BatchNormalization" and i in (1, 4):
            return np.ones(shape)
        if op == "Mul":
            return np.ones(shape)
    return np.zeros(shape)


def run_ort(model, feeds, extra_outputs):
    """The model's outputs, then `extra_outputs` (intermediate values)."""
    import onnxruntime
    from onnx import helper
    m = type(model)()
    m.CopyFrom(model)
    for name in extra_outputs:
        m.graph.output.append(helper.make_empty_tensor_value_info(name))
    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = \
        onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = onnxruntime.InferenceSession(
        m.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def calibrate(model, fresh, input_name, x):
    """Data-dependent init on the sample input (LSUV, Mishkin and Matas
    2016): layer by layer in graph order, each Conv/Gemm/MatMul weight is
    scaled so that the layer's output has unit variance. Without it, He
    init alone lets the activations grow through the depth (the logits of
    a random ResNet-50 reach 1e4, those of Inception v1 about 30). The
    BatchNormalizations keep a fresh model's statistics (mean 0, variance
    1): statistics taken from the one sample made the models so
    ill-conditioned that a step of lr 1e-6 changed ResNet-50's loss by
    20%."""
    import numpy as np
    from onnx import numpy_helper
    inits = {t.name: t for t in model.graph.initializer}
    producer = {out: node for node in model.graph.node for out in node.output}

    def weight(name):
        """The fresh initializer behind `name`, through reshapes."""
        while name not in fresh and name in producer and \
                producer[name].op_type in ("Reshape", "Unsqueeze", "Identity"):
            name = producer[name].input[0]
        return name if name in fresh else None

    for node in model.graph.node:
        w = weight(node.input[1]) if len(node.input) > 1 else None
        if node.op_type not in ("Conv", "Gemm", "MatMul") or not w:
            continue
        std = float(run_ort(model, {input_name: x}, [node.output[0]])[-1].std())
        if std > 0:
            inits[w].CopyFrom(numpy_helper.from_array(
                (numpy_helper.to_array(inits[w]) / std).astype(np.float32), w))


def convert(model_path, out_dir, rows, seed):
    import numpy as np
    import onnx
    from onnx import numpy_helper

    rng = np.random.default_rng(seed)
    model = onnx.load(model_path)
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    uses = consumers(graph)
    keep, new_inits = [], []
    for node in graph.node:
        if node.op_type == "ConstantOfShape" and node.input[0] in inits:
            shape = [int(d) for d in numpy_helper.to_array(inits[node.input[0]])]
            value = initial_value(shape, node.output[0], uses, rng, np)
            new_inits.append(numpy_helper.from_array(
                value.astype(np.float32), node.output[0]))
        else:
            keep.append(node)
    del graph.node[:]
    graph.node.extend(keep)
    graph.initializer.extend(new_inits)
    used = {name for node in graph.node for name in node.input}
    dead = [t for t in graph.initializer if t.name not in used]
    for t in dead:
        graph.initializer.remove(t)
    names = {t.name for t in graph.initializer}
    dead_names = {t.name for t in dead}
    for vi in [vi for vi in graph.input if vi.name in dead_names]:
        graph.input.remove(vi)
    data = [vi for vi in graph.input if vi.name not in names][0]
    shape = [d.dim_value for d in data.type.tensor_type.shape.dim]
    x = rng.normal(0.0, 1.0, shape).astype(np.float32)
    np.save(os.path.join(out_dir, "x.npy"), x)
    calibrate(model, {t.name for t in new_inits}, data.name, x)
    onnx.save(model, os.path.join(out_dir, "model.onnx"))
    y = run_ort(model, {data.name: x}, [])[0]
    np.save(os.path.join(out_dir, "y_ort.npy"), y)
    classes = int(np.prod(y.shape[1:]))
    batch = shape[0]
    feats = rng.normal(0.0, 1.0, (rows * batch, int(np.prod(shape[1:]))))
    labels = rng.integers(0, classes, rows * batch)
    with open(os.path.join(out_dir, "data.csv"), "w") as f:
        for row, label in zip(feats, labels):
            f.write(",".join("%.5g" % v for v in row) + ",%d\n" % label)


# --------------------------------------------------------------------------
# The measurement


def run(cmd, what):
    start = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s failed (%d): %s\n%s" % (
            what, r.returncode, " ".join(cmd), r.stderr.strip()[-2000:]))
    return r.stdout, time.time() - start


def read_log(path):
    """step -> (loss, found_inf) from amp-run --log."""
    with open(path) as f:
        return {int(r["step"]): (float(r["loss"]), int(r["found_inf"]))
                for r in csv.DictReader(f)}


def pipeline_report(bin_dir, mlir, passes, path):
    """amp-pipeline's f16 report (docs/precision.md) after `passes`."""
    run([os.path.join(bin_dir, "amp-opt"), mlir] + passes +
        ["--amp-pipeline=compute-type=f16 report=" + path, "-o", os.devnull],
        "amp-pipeline")
    with open(path) as f:
        return json.load(f)


def low_share(report):
    act = report["activation_bytes"]
    return act["low_precision"] / max(1, sum(act.values()))


def measure(model, args, tmp):
    import numpy as np
    bin_dir = os.path.join(args.build, "bin")
    conv = subprocess.run(
        [sys.executable, __file__, "--convert",
         os.path.join(LIGHT, "light_%s.onnx" % model), tmp,
         "--rows", str(args.steps), "--seed", str(args.seed)],
        capture_output=True, text=True)
    if conv.returncode != 0:
        raise RuntimeError("conversion failed: " + conv.stderr[-2000:])
    onnx_file = os.path.join(tmp, "model.onnx")
    p = lambda name: os.path.join(tmp, name)
    row = {"model": model}

    run([os.path.join(bin_dir, "amp-import-onnx"), onnx_file,
         "--save-params", p("fwd.params"), "-o", p("fwd.mlir")], "import")
    run([os.path.join(bin_dir, "amp-run"), p("fwd.mlir"), "--function",
         "forward", "--precision", "f32", "--load-params", p("fwd.params"),
         "--input", "@" + p("x.npy"), "--output", p("y.npy")], "forward")
    y, ref = np.load(p("y.npy")), np.load(p("y_ort.npy"))
    row["fwd_err"] = float(np.max(np.abs(y.reshape(ref.shape) - ref)))
    row["fwd_max"] = float(np.max(np.abs(ref)))

    row["fwd_low_act"] = low_share(
        pipeline_report(bin_dir, p("fwd.mlir"), [], p("fwd-report.json")))

    run([os.path.join(bin_dir, "amp-import-onnx"), onnx_file, "--train",
         "--loss", "cross_entropy", "--save-params", p("train.params"),
         "-o", p("train.mlir")], "import --train")
    report = pipeline_report(bin_dir, p("train.mlir"), ["--nn-autodiff"],
                             p("report.json"))
    row["casts"] = report["casts_inserted"]
    row["ops"] = report["op_counts"]
    row["low_act"] = low_share(report)

    for precision in ("f32", "f16"):
        out, seconds = run(
            [os.path.join(bin_dir, "amp-run"), p("train.mlir"),
             "--load-params", p("train.params"), "--data", p("data.csv"),
             "--eval-fraction", "0", "--steps", str(args.steps),
             "--autodiff-options", args.autodiff_options,
             "--precision", precision, "--print-every", "0", "--log",
             p("log-%s.csv" % precision)], "amp-run " + precision)
        row[precision] = read_log(p("log-%s.csv" % precision))
        row[precision + "_s"] = seconds
    return row


def print_row(row):
    f32, f16 = row["f32"], row["f16"]
    first = abs(f16[1][0] - f32[1][0]) / abs(f32[1][0])
    last = max(f32)
    skipped = sum(inf for _, inf in f16.values())
    ops = row["ops"]
    print("| %s | %.2g (outputs up to %.2g) | %d | %d / %d | %.0f%% / %.0f%% | "
          "%.5f / %.5f (%.3f%%) | %.4f / %.4f | %d | %.1f / %.1f |" % (
              row["model"], row["fwd_err"], row["fwd_max"], row["casts"],
              ops["low_precision"], ops["low_precision"] + ops["f32"],
              100 * row["fwd_low_act"], 100 * row["low_act"], f32[1][0],
              f16[1][0], 100 * first,
              f32[last][0], f16[last][0], skipped, row["f32_s"],
              row["f16_s"]), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--setup", action="store_true",
                    help="create the venv with onnx, onnxruntime and numpy")
    ap.add_argument("--venv", default=bench_venv.DEFAULT)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--autodiff-options", default="lr=1e-4",
                    help="amp-run's --autodiff-options (default lr=1e-4)")
    ap.add_argument("--convert", nargs=2, metavar=("MODEL", "DIR"),
                    help=argparse.SUPPRESS)
    ap.add_argument("--rows", type=int, default=3, help=argparse.SUPPRESS)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("models", nargs="*", default=MODELS)
    args = ap.parse_args()
    if args.setup:
        return bench_venv.setup(args.venv, ["onnx", "onnxruntime", "numpy"])
    if args.convert:
        return convert(args.convert[0], args.convert[1], args.rows, args.seed)
    try:
        import numpy  # noqa: F401
        import onnx  # noqa: F401
        import onnxruntime  # noqa: F401
    except ImportError:
        python = bench_venv.python(args.venv)
        if not os.path.exists(python) or sys.executable == python:
            sys.exit("no onnx/onnxruntime/numpy: run with --setup first")
        os.execv(python, [python] + sys.argv)
    if not os.path.isdir(LIGHT):
        sys.exit("%s is missing; run scripts/get-onnx-tests.sh" % LIGHT)
    print("| model | forward max abs error vs ONNX Runtime | casts | ops in "
          "f16 / all | f16 share of activation bytes, forward / step | "
          "first-step loss f32 / f16 "
          "(difference) | loss at step %d f32 / f16 | f16 steps skipped "
          "| seconds f32 / f16 |" % args.steps)
    print("| --- | --- | ---: | ---: | ---: | --- | --- | ---: | --- |")
    failed = 0
    for model in args.models:
        with tempfile.TemporaryDirectory() as tmp:
            try:
                print_row(measure(model, args, tmp))
            except RuntimeError as e:
                print("| %s | FAILED: %s |" % (model, str(e).splitlines()[0]))
                print(e, file=sys.stderr)
                failed += 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
