#!/usr/bin/env python3
"""amp's cuBLASLt GEMMs against PyTorch on one GPU: the GEMM table of issue #15.

Runs, interleaved over --rounds rounds, on the table of bench/GemmBench.cpp
(square GEMMs, a large transformer MLP block, a BERT-base layer at batch
32 x seq 512; f16 and bf16 with f32 accumulation):

  amp          amp-gemm-bench            (epilogues fused by cuBLASLt)
  amp unfused  amp-gemm-bench --unfused  (every epilogue a separate pass)
  torch        bench/torch_gemm_bench.py (torch.matmul; F.linear + gelu)

and prints the medians over the rounds as a Markdown table: TFLOP/s of each
and amp/torch (above 1: amp is faster), and the fusion gain (fused over
unfused time). --json FILE also writes every round's numbers.

  bench/gpu_gemm_table.py --bench build-rt/bin/amp-gemm-bench [--rounds 2]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run_table(cmd):
    """{(shape, dims, dtype, epilogue): TFLOP/s} of one run's rows."""
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        # A failed row still lets the others be compared: say which.
        print("%s exited with %d:\n%s" % (" ".join(cmd), out.returncode,
              "\n".join(l for l in (out.stdout + out.stderr).splitlines()
                        if "failed" in l or "error" in l.lower())),
              file=sys.stderr)
    rows, header = {}, []
    for line in out.stdout.splitlines():
        cols = line.split()
        if len(cols) >= 6 and "x" in cols[1] and cols[2] in ("f16", "bf16"):
            try:
                rows[tuple(cols[:4])] = float(cols[5])
            except ValueError:
                pass  # a failed row: n/a in the table
        elif not rows:
            header.append(line)
    if not rows:
        sys.exit("no rows from: %s\n%s%s" % (" ".join(cmd), out.stdout,
                                              out.stderr))
    return rows, header


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench", default=os.path.join(HERE, "..", "build-rt",
                                                    "bin", "amp-gemm-bench"))
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--filter", default="")
    ap.add_argument("--json")
    args = ap.parse_args()

    common = ["--iters", str(args.iters), "--filter", args.filter]
    commands = {
        "amp": [args.bench, "--no-overhead"] + common,
        "unfused": [args.bench, "--no-overhead", "--unfused"] + common,
        "torch": [args.python, os.path.join(HERE, "torch_gemm_bench.py")]
        + common,
    }
    runs = {name: [] for name in commands}
    headers = {}
    for r in range(args.rounds):
        for name, cmd in commands.items():
            rows, header = run_table(cmd)
            runs[name].append(rows)
            headers[name] = header
        print("round %d of %d done" % (r + 1, args.rounds), file=sys.stderr)

    def median(name, key):
        values = [run[key] for run in runs[name] if key in run]
        return statistics.median(values) if values else None

    for name in ("amp", "torch"):
        print("\n".join(line for line in headers[name] if line.strip()))
    print("\n| shape | MxNxK | dtype | epilogue | amp TFLOP/s | torch TFLOP/s "
          "| amp/torch | amp unfused TFLOP/s | fused/unfused speed-up |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    fmt = lambda v, f="%.1f": "n/a" if v is None else f % v
    table = []
    for key in runs["amp"][0]:
        amp, torch, unfused = (median(n, key) for n in ("amp", "torch",
                                                         "unfused"))
        ratio = amp / torch if amp and torch else None
        gain = amp / unfused if amp and unfused and key[3] != "NONE" else None
        table.append(dict(zip(("shape", "dims", "dtype", "epilogue"), key),
                          amp=amp, torch=torch, unfused=unfused))
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" %
              (key + (fmt(amp), fmt(torch), fmt(ratio, "%.2fx"),
                      fmt(unfused) if key[3] != "NONE" else "",
                      fmt(gain, "%.2fx") if gain else "")))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"table": table, "rounds": {
                n: [{" ".join(k): v for k, v in run.items()} for run in rs]
                for n, rs in runs.items()}}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
