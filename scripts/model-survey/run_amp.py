#!/usr/bin/env python3
"""Imports and runs the exports of export_model.py with amp.

    run_amp.py [--build DIR] [--timeout S] MODEL_DIR...

For each exporter (script, dynamo) of each OUT/NAME directory that
export_model.py wrote:
  amp-import-onnx E.onnx --save-params E.params -o E.mlir
  amp-run E.mlir --function forward --precision f32 --load-params E.params
      --input @in0.npy [...] --output E.out.npy
      --expected-output @logits.npy --tolerance 1e-4
Logs: E.import.log, E.run.log. Prints a tab-separated row per exporter:
NAME, exporter, result, detail (see README.md). Standard library only.
"""
import argparse
import ast
import json
import math
import os
import re
import signal
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
EXPORTERS = ("script", "dynamo")
TOLERANCE = "1e-4"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run(cmd, log, timeout):
    """Runs cmd (killed with its process group after timeout seconds),
    writes the command line and its output to log; returns (rc, output),
    rc 124 on timeout."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True,
                         errors="replace", start_new_session=True)
    try:
        out, rc = p.communicate(timeout=timeout)[0], p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, rc = p.communicate()[0] + f"\n[timeout after {timeout} s]", 124
    with open(log, "w") as f:
        f.write(" ".join(cmd) + "\n" + out + f"\nrc={rc}\n")
    return rc, out


def first_error(text):
    """The first line that mentions an error, else the first that is not a
    warning, without colour codes."""
    lines = [ANSI.sub("", x).strip() for x in text.splitlines()]
    lines = [x for x in lines if x]
    for x in lines:
        if "error" in x.lower() and "warning:" not in x:
            return x
    rest = [x for x in lines if "warning:" not in x]
    return (rest or lines or [""])[0]


def exit_note(rc):
    """' [timeout]' or ' [rc=N]'."""
    return " [timeout]" if rc == 124 else f" [rc={rc}]"


def load_npy(path):
    """(shape, values) of a little-endian float32/float64 .npy file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError(path + ": not a .npy file")
    if data[6] == 1:
        hlen, start = struct.unpack("<H", data[8:10])[0], 10
    else:
        hlen, start = struct.unpack("<I", data[8:12])[0], 12
    header = ast.literal_eval(data[start:start + hlen].decode("latin1"))
    kind = {"<f4": "f", "<f8": "d"}.get(header["descr"])
    if kind is None or header["fortran_order"]:
        raise ValueError(f"{path}: unsupported {header}")
    body = data[start + hlen:]
    return tuple(header["shape"]), struct.unpack(
        f"<{len(body) // struct.calcsize(kind)}{kind}", body)


def error_stats(actual, expected):
    """'maxabs=.. maxrel=.. |ref|max=..' of two .npy files; maxrel is
    max |a - e| / (1 + |e|), the measure of amp-run's --tolerance."""
    (ashape, a), (eshape, e) = load_npy(actual), load_npy(expected)
    if ashape != eshape:
        return f"shape {ashape} vs {eshape}"
    diff = [abs(x - y) for x, y in zip(a, e)]
    rel = [d / (1 + abs(y)) for d, y in zip(diff, e)]
    ref = [abs(y) for y in e]
    return " ".join(f"{key}={largest(v):.3g}" for key, v in
                    (("maxabs", diff), ("maxrel", rel), ("|ref|max", ref)))


def largest(values):
    """max(values), NaN when one is NaN, 0 when there are none."""
    if any(v != v for v in values):
        return math.nan
    return max(values, default=0.0)


def run_exporter(d, exp, meta, bindir, timeout):
    """(result, detail) of importing and running d/exp.onnx."""
    if meta.get(exp) != "ok":
        return "export error", ANSI.sub("", meta.get(exp, "missing"))
    path = os.path.join(d, exp)
    rc, out = run([os.path.join(bindir, "amp-import-onnx"), path + ".onnx",
                   "--save-params", path + ".params", "-o", path + ".mlir"],
                  path + ".import.log", timeout)
    if rc != 0:
        return "import error", first_error(out) + exit_note(rc)
    cmd = [os.path.join(bindir, "amp-run"), path + ".mlir", "--function",
           "forward", "--precision", "f32", "--load-params",
           path + ".params"]
    for i in range(len(meta["inputs"])):
        cmd += ["--input", "@" + os.path.join(d, f"in{i}.npy")]
    logits = os.path.join(d, "logits.npy")
    if os.path.exists(path + ".out.npy"):
        os.remove(path + ".out.npy")
    cmd += ["--output", path + ".out.npy", "--expected-output", "@" + logits,
            "--tolerance", TOLERANCE]
    rc, out = run(cmd, path + ".run.log", timeout)
    stats = ""
    if os.path.exists(path + ".out.npy"):
        stats = error_stats(path + ".out.npy", logits)
    if rc == 0 and "matches" in out:
        return "PASS", stats
    text = first_error(out) + (" " + stats if stats else "")
    if "differs from the expected output" in out:
        return "mismatch", text
    return "run error", text + exit_note(rc)


def run_model(d, bindir, timeout=300):
    """[(exporter, result, detail)] of the export in directory d; the
    detail has d's path removed."""
    with open(os.path.join(d, "meta.json")) as f:
        meta = json.load(f)
    rows = []
    for exp in EXPORTERS:
        result, detail = run_exporter(d, exp, meta, bindir, timeout)
        rows.append((exp, result, detail.replace(os.path.join(d, ""), "")))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"),
                        help="amp's build directory (default: %(default)s)")
    parser.add_argument("--timeout", type=int, default=300,
                        help="seconds per amp command (default: 300)")
    parser.add_argument("dirs", nargs="+", metavar="MODEL_DIR")
    args = parser.parse_args()
    for d in args.dirs:
        name = os.path.basename(os.path.normpath(d))
        for row in run_model(d, os.path.join(args.build, "bin"),
                             args.timeout):
            print("\t".join((name,) + row), flush=True)


if __name__ == "__main__":
    sys.exit(main())
