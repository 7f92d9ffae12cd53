#!/usr/bin/env python3
"""Plots bench/gpu-bench.sh's results for docs/gpu-results.md.

  bench/plot_gpu_results.py --gemm gemm.json --steps steps.json -o docs/

writes gpu-gemm.png (TFLOP/s of the square GEMMs by size: amp and
torch.matmul, f16 and bf16, epilogue NONE) and gpu-steps.png (median ms per
training step of every configuration, one panel per model). Needs
matplotlib.
"""
import argparse
import json
import os
import statistics

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def plot_gemm(path, out):
    rows = json.load(open(path))["table"]
    fig, ax = plt.subplots(figsize=(6.5, 4), dpi=120)
    for dtype, style in (("f16", "-"), ("bf16", "--")):
        square = sorted((r for r in rows if r["shape"] == "square" and
                         r["dtype"] == dtype and r["epilogue"] == "NONE"),
                        key=lambda r: int(r["dims"].split("x")[0]))
        sizes = [int(r["dims"].split("x")[0]) for r in square]
        for side, marker in (("amp", "o"), ("torch", "s")):
            ax.plot(sizes, [r[side] for r in square], style, marker=marker,
                    label="%s %s" % ("amp_gemm" if side == "amp" else
                                     "torch.matmul", dtype))
    ax.set_xscale("log", base=2)
    ax.set_xlabel("M = N = K")
    ax.set_ylabel("TFLOP/s")
    ax.set_title("Square GEMMs, f32 accumulation")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "gpu-gemm.png"))


def plot_steps(path, out):
    results = json.load(open(path))
    models = sorted({k.split("|")[0] for k in results})
    fig, axes = plt.subplots(1, len(models), figsize=(6 * len(models), 4.5),
                             dpi=120, squeeze=False)
    for ax, model in zip(axes[0], models):
        names, times = [], []
        for key, runs in results.items():
            m, config = key.split("|")
            if m == model and runs:
                names.append(config)
                times.append(statistics.median(r[0] for r in runs))
        colors = ["tab:blue" if n.startswith("amp") else "tab:orange"
                  for n in names]
        ax.barh(names, times, color=colors)
        ax.invert_yaxis()
        ax.set_xlabel("ms per training step (median)")
        ax.set_title(model)
        ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "gpu-steps.png"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gemm")
    ap.add_argument("--steps")
    ap.add_argument("-o", "--output", default=".")
    args = ap.parse_args()
    if args.gemm:
        plot_gemm(args.gemm, args.output)
    if args.steps:
        plot_steps(args.steps, args.output)


if __name__ == "__main__":
    main()
