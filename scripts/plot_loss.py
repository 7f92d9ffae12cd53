#!/usr/bin/env python3
"""Plots the loss curves of amp-run CSV logs (step,loss,...) into a PNG.

  scripts/plot_loss.py -o docs/digits-loss.png \
      f32=docs/digits-f32.csv f16=docs/digits-f16.csv bf16=docs/digits-bf16.csv

Needs matplotlib (pip install matplotlib). A moving average over --smooth
steps is drawn over the raw per-batch losses; a second panel shows each
run's per-step loss minus the first run's (the f32 baseline), since AMP
curves often lie on top of it."""
import argparse
import csv
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("-o", "--output", required=True)
parser.add_argument("--smooth", type=int, default=20)
parser.add_argument("--title", default="MLP on digits: fp32 vs AMP (amp-run, reference backend)")
parser.add_argument("runs", nargs="+", help="LABEL=path.csv")
args = parser.parse_args()

fig, (ax, diff_ax) = plt.subplots(2, 1, figsize=(8, 6.5), dpi=120, sharex=True,
                                  gridspec_kw={"height_ratios": [2, 1]})
baseline = None
for run in args.runs:
    label, path = run.split("=", 1)
    steps, losses = [], []
    with open(path) as f:
        for row in csv.DictReader(f):
            loss = float(row["loss"])
            if math.isfinite(loss):
                steps.append(int(row["step"]))
                losses.append(loss)
    line, = ax.plot(steps, losses, alpha=0.25, linewidth=0.8)
    k = max(1, args.smooth)
    smooth = [sum(losses[max(0, i - k + 1):i + 1]) / len(losses[max(0, i - k + 1):i + 1])
              for i in range(len(losses))]
    ax.plot(steps, smooth, color=line.get_color(), linewidth=1.8,
            label=f"{label} (moving average of {k})")
    by_step = dict(zip(steps, losses))
    if baseline is None:
        baseline = (label, by_step)
    else:
        common = [s for s in steps if s in baseline[1]]
        diff_ax.plot(common, [by_step[s] - baseline[1][s] for s in common],
                     color=line.get_color(), linewidth=0.9,
                     label=f"{label} - {baseline[0]}")
diff_ax.axhline(0.0, color="black", linewidth=0.6)
diff_ax.set_xlabel("step")
diff_ax.set_ylabel("loss difference")
diff_ax.grid(True, alpha=0.3)
diff_ax.legend()
ax.set_ylabel("cross-entropy loss")
ax.set_yscale("log")
ax.set_title(args.title)
ax.grid(True, which="both", alpha=0.3)
ax.legend()
fig.tight_layout()
fig.savefig(args.output)
print(f"wrote {args.output}")
