#!/usr/bin/env python3
"""Benchmark: compile time of amp-assign-precision + amp-insert-casts against
canonicalize + cse on large generated training steps (not a test).

For each model and size it generates one graph with
scripts/gen_training_graph.py --ops-target K, then runs on that same file,
interleaved, REPEAT times each:

  parse+print   amp-opt FILE
  amp           amp-opt FILE --amp-assign-precision --amp-insert-casts
  canon+cse     amp-opt FILE --canonicalize --cse

always with --mlir-timing and -o /dev/null (so every command prints the
same way). Whole-command time is the wall time of the process; pass-only
time is the sum of the top-level pass rows of the --mlir-timing report
(parser and printer excluded). It prints best-of and median per command,
the ratio amp / (canon+cse), and the growth from the smallest to each
larger size, which is about the op growth for linear-time passes.

Usage: bench/precision_passes.py [--amp-opt PATH] [--sizes 10000,100000]
           [--models transformer,mlp] [--repeat 5]
Standard library only.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEN = os.path.join(ROOT, "scripts", "gen_training_graph.py")

CONFIGS = [
    ("parse+print", []),
    ("amp", ["--amp-assign-precision", "--amp-insert-casts"]),
    ("canon+cse", ["--canonicalize", "--cse"]),
]
NOT_PASSES = {"Parser", "Output", "Rest", "Total"}
ROW = re.compile(r"^\s+([0-9.]+) \(\s*[0-9.]+%\)  (\S.*)$")


def find_amp_opt():
    for build in ("build-bench", "build"):
        p = os.path.join(ROOT, build, "bin", "amp-opt")
        if os.access(p, os.X_OK):
            return p
    sys.exit("error: no amp-opt found; build it or pass --amp-opt")


def generate(model, target, workdir):
    path = os.path.join(workdir, "%s-%d.mlir" % (model, target))
    r = subprocess.run([sys.executable, GEN, "--model", model, "--ops-target",
                        str(target), "-o", path], capture_output=True,
                       text=True, check=True)
    ops = int(re.search(r"ops=(\d+)", r.stderr).group(1))
    return path, ops


def run_once(amp_opt, path, args):
    cmd = [amp_opt, path] + args + ["--mlir-timing", "-o", os.devnull]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit("error: %s failed:\n%s" % (" ".join(cmd), r.stderr[-2000:]))
    rows = {}
    for line in r.stderr.splitlines():
        m = ROW.match(line)
        if m:
            rows[m.group(2).strip()] = float(m.group(1))
    passes = sum(v for k, v in rows.items() if k not in NOT_PASSES)
    return wall, passes, rows


def fmt(s):
    return "%.3f" % s


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--amp-opt", default=None)
    ap.add_argument("--sizes", default="10000,100000",
                    help="op-count targets, comma-separated")
    ap.add_argument("--models", default="transformer,mlp")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--workdir", default=None,
                    help="where to write the graphs (default: a temp dir)")
    a = ap.parse_args()
    amp_opt = a.amp_opt or find_amp_opt()
    sizes = [int(s) for s in a.sizes.split(",")]
    workdir = a.workdir or tempfile.mkdtemp(prefix="amp-bench-")
    os.makedirs(workdir, exist_ok=True)

    print("amp-opt: %s" % amp_opt)
    print("repeat: %d (best and median); every command: --mlir-timing -o %s"
          % (a.repeat, os.devnull))
    print("cores: %s, load average at start: %.2f %.2f %.2f"
          % ((os.cpu_count(),) + os.getloadavg()))
    results = {}
    for model in a.models.split(","):
        for size in sizes:
            path, ops = generate(model, size, workdir)
            samples = {name: [] for name, _ in CONFIGS}
            for _ in range(a.repeat):
                for name, args in CONFIGS:
                    samples[name].append(run_once(amp_opt, path, args))
            results[(model, size)] = (ops, os.path.getsize(path), samples)
            print("generated %s: %d ops, %.1f MB" %
                  (path, ops, os.path.getsize(path) / 1e6), flush=True)

    def best(xs):
        return min(xs)

    print()
    print("Times in seconds: best / median of %d runs." % a.repeat)
    print()
    print("| model | ops | parse+print (cmd) | amp (cmd) | canon+cse (cmd) "
          "| amp (passes) | canon+cse (passes) | ratio passes | ratio cmd |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    summary = {}
    for (model, size), (ops, nbytes, s) in results.items():
        cmd = {n: [w for w, _, _ in s[n]] for n in s}
        ps = {n: [p for _, p, _ in s[n]] for n in s}
        row = [model, str(ops)]
        for n in ("parse+print", "amp", "canon+cse"):
            row.append("%s / %s" % (fmt(best(cmd[n])), fmt(statistics.median(cmd[n]))))
        for n in ("amp", "canon+cse"):
            row.append("%s / %s" % (fmt(best(ps[n])), fmt(statistics.median(ps[n]))))
        rp = statistics.median(ps["amp"]) / max(statistics.median(ps["canon+cse"]), 1e-9)
        rc = statistics.median(cmd["amp"]) / max(statistics.median(cmd["canon+cse"]), 1e-9)
        row += ["%.2f" % rp, "%.2f" % rc]
        print("| " + " | ".join(row) + " |")
        summary[(model, size)] = (ops, {n: statistics.median(ps[n]) for n in ps},
                                  {n: statistics.median(cmd[n]) for n in cmd}, s)

    print()
    print("Per-pass medians (s) from --mlir-timing:")
    for (model, size), (ops, _, _, s) in summary.items():
        parts = []
        for n in ("amp", "canon+cse"):
            names = [k for k in s[n][0][2] if k not in NOT_PASSES]
            for k in names:
                parts.append("%s %s" % (k, fmt(statistics.median(
                    r.get(k, 0.0) for _, _, r in s[n]))))
        parse = statistics.median(r.get("Parser", 0.0) for _, _, r in s["parse+print"])
        out = statistics.median(r.get("Output", 0.0) for _, _, r in s["parse+print"])
        print("  %s %d ops: Parser %s, Output %s, %s" %
              (model, ops, fmt(parse), fmt(out), ", ".join(parts)))

    print()
    print("Pass time per op (median, microseconds):")
    for (model, size), (ops, ps, _, _) in summary.items():
        print("  %s %d ops: amp %.1f, canon+cse %.1f" %
              (model, ops, 1e6 * ps["amp"] / ops, 1e6 * ps["canon+cse"] / ops))

    print()
    print("Growth from the smallest size (median times; linear = op growth):")
    print("| model | ops | op growth | amp passes | canon+cse passes "
          "| amp cmd | canon+cse cmd | parse+print cmd |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for model in a.models.split(","):
        base = summary[(model, sizes[0])]
        for size in sizes[1:]:
            ops, ps, cmd, _ = summary[(model, size)]
            print("| %s | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
                model, ops, ops / base[0], ps["amp"] / base[1]["amp"],
                ps["canon+cse"] / base[1]["canon+cse"],
                cmd["amp"] / base[2]["amp"],
                cmd["canon+cse"] / base[2]["canon+cse"],
                cmd["parse+print"] / base[2]["parse+print"]))
    print()
    print("load average at end: %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main()
