#!/usr/bin/env bash
# Installs what is missing, builds amp, builds the training step of the
# digits MLP (examples/mlp.mlir, forward + loss) with nn-autodiff, runs the
# mixed-precision pipeline on it (prints a summary of the precision report),
# then trains it on the real digits dataset with amp-run: f16 compute,
# dynamic loss scaling, on the reference (CPU) backend.
#
#   scripts/run-example.sh [model.mlir] [amp-pipeline options] [nn-autodiff options]
#
# nn-autodiff leaves a module without a forward loss function as it is, so a
# hand-written training step works too.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${AMP_BUILD_DIR:-$root/build}

"$root/scripts/build.sh"
example=${1:-$root/examples/mlp.mlir}
options=${2:-compute-type=f16}
autodiff=${3:-lr=0.05 momentum=0.9}
report="$build/$(basename "$example" .mlir).report.json"

echo "== amp-opt $(basename "$example") --nn-autodiff=\"$autodiff\" --amp-pipeline=\"$options\"" >&2
"$build/bin/amp-opt" "$example" --nn-autodiff="$autodiff" \
  --amp-pipeline="$options report=$report" \
  -o "$build/$(basename "$example" .mlir).amp.mlir"
echo "   (the transformed step is in $build/$(basename "$example" .mlir).amp.mlir)" >&2

python3 - "$report" <<'PY' >&2
import collections, json, sys
report = json.load(open(sys.argv[1]))
print(f"== precision report ({sys.argv[1]})")
by_op = collections.defaultdict(collections.Counter)
for op in report["ops"]:
    by_op[op["name"]][op["precision"]] += 1
for name, counts in sorted(by_op.items()):
    print(f"  {name:26s} " + ", ".join(f"{n} {p}" for p, n in sorted(counts.items())))
print(f"  casts inserted: {report['casts_inserted']}, "
      f"ops low/f32: {report['op_counts']['low_precision']}/{report['op_counts']['f32']}, "
      f"activation bytes low/f32: {report['activation_bytes']['low_precision']}/"
      f"{report['activation_bytes']['f32']}")
PY

if [[ $(basename "$example") == mlp.mlir ]]; then
  "$root/scripts/get-digits.sh"
  echo "== amp-run: train on digits (nn-autodiff, f16 AMP, dynamic loss scaling)" >&2
  "$build/bin/amp-run" "$example" --autodiff-options "$autodiff" \
    --data "$root/data/digits.csv" --feature-scale 0.0625 --steps 300 \
    --print-every 25 --eval-entry train_step_forward \
    --precision f16 --log "$build/mlp.f16.csv"
fi
