"""Checks amp-run CSV logs of the same training: every run must cut its
first-step loss by --min-drop (a factor), and each run's mean loss over the
last --window steps must be within --rel-tolerance of the first log's. With
--step-rel-tolerance, every step's loss must also be within that of the first
log's loss at the same step. Each --column NAME=TOL compares another column
(lr, grad_norm) the same way, step by step within relative tolerance TOL
(equal infinities and NaNs match; an expected 0 must be 0)."""
import argparse
import csv
import math
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--min-drop", type=float, required=True)
parser.add_argument("--rel-tolerance", type=float, required=True)
parser.add_argument("--window", type=int, default=10)
parser.add_argument("--step-rel-tolerance", type=float, default=None)
parser.add_argument("--column", action="append", default=[],
                    metavar="NAME=TOL")
parser.add_argument("logs", nargs="+")
args = parser.parse_args()

tail = {}
curves = {}
for path in args.logs:
    losses = [float(r["loss"]) for r in csv.DictReader(open(path))]
    curves[path] = losses
    if len(losses) < args.window:
        sys.exit(f"{path}: only {len(losses)} steps")
    last = sum(losses[-args.window:]) / args.window
    print(f"{path}: first {losses[0]:.4f}, mean of last {args.window} {last:.4f}")
    if last * args.min_drop > losses[0]:
        sys.exit(f"{path}: the loss fell from {losses[0]:.4f} to only {last:.4f}")
    tail[path] = last
base = tail[args.logs[0]]
for path, last in tail.items():
    if abs(last - base) > args.rel_tolerance * base:
        sys.exit(f"{path}: final loss {last:.4f} differs from {base:.4f} by more "
                 f"than {args.rel_tolerance:.0%}")
if args.step_rel_tolerance is not None:
    first = curves[args.logs[0]]
    for path, losses in curves.items():
        if len(losses) != len(first):
            sys.exit(f"{path}: {len(losses)} steps, the first log {len(first)}")
        worst = max(abs(a - b) / abs(b) for a, b in zip(losses, first))
        print(f"{path}: largest step-by-step relative difference {worst:.3g}")
        if worst > args.step_rel_tolerance:
            sys.exit(f"{path}: a step's loss differs from the first log's by "
                     f"{worst:.3g} > {args.step_rel_tolerance:g}")


def rel_diff(a, b):
    if a == b or (math.isnan(a) and math.isnan(b)):
        return 0.0
    if b == 0 or math.isinf(b) or math.isnan(a) or math.isnan(b):
        return math.inf
    return abs(a - b) / abs(b)


for spec in args.column:
    name, _, tol = spec.partition("=")
    tol = float(tol)
    columns, steps = {}, {}
    for path in args.logs:
        rows = list(csv.DictReader(open(path)))
        if rows and name not in rows[0]:
            sys.exit(f"{path}: no column '{name}'")
        columns[path] = [float(r[name]) for r in rows]
        steps[path] = [r["step"] for r in rows]
    first = columns[args.logs[0]]
    for path, values in columns.items():
        if len(values) != len(first):
            sys.exit(f"{path}: {len(values)} steps, the first log {len(first)}")
        diffs = [rel_diff(a, b) for a, b in zip(values, first)]
        worst = max(diffs, default=0.0)
        print(f"{path}: largest step-by-step relative difference of {name} "
              f"{worst:.3g}")
        if worst > tol:
            i = diffs.index(worst)
            sys.exit(f"{path}: {name} of step {steps[path][i]} is "
                     f"{values[i]:.9g}, the first log's {first[i]:.9g} "
                     f"(relative difference {worst:.3g} > {tol:g})")
