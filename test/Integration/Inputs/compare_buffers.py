"""Checks the last tensors of an amp-run params file (--save-params writes
the params, then the buffers: batch normalization's running statistics)
against a reference CSV, one line of values per tensor, in order: every
value within --tolerance * (1 + |reference|)."""
import argparse
import csv
import sys

from params_file import read_params

parser = argparse.ArgumentParser()
parser.add_argument("--tolerance", type=float, required=True)
parser.add_argument("params")
parser.add_argument("reference")
args = parser.parse_args()

reference = [[float(v) for v in row] for row in csv.reader(open(args.reference))]
tensors = read_params(args.params)
if len(tensors) < len(reference):
    sys.exit(f"{args.params}: {len(tensors)} tensors, fewer than the "
             f"{len(reference)} of {args.reference}")
worst = 0.0
for k, (ours, theirs) in enumerate(zip(tensors[-len(reference):], reference)):
    if len(ours) != len(theirs):
        sys.exit(f"tensor {k}: {len(ours)} values, the reference {len(theirs)}")
    for i, (a, b) in enumerate(zip(ours, theirs)):
        error = abs(a - b) / (1 + abs(b))
        worst = max(worst, error)
        if error > args.tolerance:
            sys.exit(f"tensor {k}, value {i}: {a} vs {b}")
print(f"{args.params}: {len(reference)} tensors match, largest error {worst:.3g}")
