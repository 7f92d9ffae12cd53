"""Checks amp-run outputs: the first is the f32 baseline; every other run's
'eval accuracy' must be within --tolerance of it, and all must reach
--min-accuracy. Exits 1 with a message otherwise."""
import argparse
import re
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--tolerance", type=float, required=True)
parser.add_argument("--min-accuracy", type=float, required=True)
parser.add_argument("--max-accuracy", type=float, default=1.0,
                    help="fail when a run other than the baseline is above")
parser.add_argument("outputs", nargs="+")
args = parser.parse_args()

accuracy = {}
for path in args.outputs:
    match = re.search(r"eval accuracy: ([0-9.]+)", open(path).read())
    if not match:
        sys.exit(f"{path}: no 'eval accuracy' line")
    accuracy[path] = float(match.group(1))

baseline = accuracy[args.outputs[0]]
for path, acc in accuracy.items():
    print(f"{path}: {acc:.4f}")
    if acc < args.min_accuracy:
        sys.exit(f"{path}: accuracy {acc:.4f} < {args.min_accuracy}")
    if path != args.outputs[0] and acc > args.max_accuracy:
        sys.exit(f"{path}: accuracy {acc:.4f} > {args.max_accuracy}")
    if abs(acc - baseline) > args.tolerance:
        sys.exit(f"{path}: accuracy {acc:.4f} is more than {args.tolerance} "
                 f"from the f32 baseline {baseline:.4f}")
