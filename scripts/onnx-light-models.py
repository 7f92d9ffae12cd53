#!/usr/bin/env python3
"""Imports ONNX's light models (ResNet-50, SqueezeNet, ...) and runs them.

The wheel's onnx/backend/test/data/light/light_<model>.onnx
(scripts/get-onnx-tests.sh) are real architectures whose weights are
ConstantOfShape nodes; light_<model>_output_0.pb is ONNX's reference output
for the input ONNX's backend test runner feeds them, arange(n) / n in the
input's shape (onnx/backend/test/runner, generate_dummy_data). Each model is
imported (amp-import-onnx --constants) and its @forward run by
`amp-run --function forward --precision f32`, compared with that output.

    scripts/onnx-light-models.py [--build build] [resnet50 squeezenet ...]

Standard library only. Exit code 1 when a model fails.
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIGHT = os.path.join(ROOT, "data", "onnx", "onnx", "backend", "test",
                     "data", "light")
MODELS = ["resnet50", "squeezenet", "vgg19", "bvlc_alexnet", "zfnet512",
          "inception_v1", "inception_v2", "densenet121", "shufflenet"]


def write_npy(path, shape):
    """float32 arange(n) / n in `shape`, as a version 1.0 .npy file."""
    n = 1
    for d in shape:
        n *= d
    dims = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % dims
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(struct.pack("<%df" % n, *[i / n for i in range(n)]))


def input_shape(mlir):
    """The shape of @forward's first argument, from the imported module."""
    with open(mlir) as f:
        for line in f:
            if "func.func @forward(" in line:
                spec = line.split("tensor<", 1)[1].split(">", 1)[0]
                return [int(d) for d in spec.split("x")[:-1]]
    raise RuntimeError("no @forward in " + mlir)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--tolerance", type=float, default=1e-4)
    parser.add_argument("models", nargs="*", default=MODELS)
    args = parser.parse_args()
    if not os.path.isdir(LIGHT):
        sys.exit("onnx-light-models: %s is missing; run "
                 "scripts/get-onnx-tests.sh" % LIGHT)
    failed = 0
    for model in args.models:
        start = time.time()
        with tempfile.TemporaryDirectory() as tmp:
            mlir = os.path.join(tmp, "model.mlir")
            imp = subprocess.run(
                [os.path.join(args.build, "bin", "amp-import-onnx"),
                 "--constants", os.path.join(LIGHT, "light_%s.onnx" % model),
                 "-o", mlir], capture_output=True, text=True)
            if imp.returncode != 0:
                print("FAIL %-14s import: %s" % (model, imp.stderr.strip()))
                failed += 1
                continue
            x = os.path.join(tmp, "x.npy")
            write_npy(x, input_shape(mlir))
            run = subprocess.run(
                [os.path.join(args.build, "bin", "amp-run"), mlir,
                 "--function", "forward", "--precision", "f32",
                 "--input", "@" + x, "--expected-output",
                 "@" + os.path.join(LIGHT, "light_%s_output_0.pb" % model),
                 "--tolerance", str(args.tolerance)],
                capture_output=True, text=True)
            seconds = time.time() - start
            if run.returncode != 0:
                print("FAIL %-14s %.0fs: %s" % (model, seconds,
                                                run.stderr.strip()))
                failed += 1
            else:
                print("PASS %-14s %.0fs: %s" % (model, seconds,
                                                run.stdout.strip()))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
