#!/usr/bin/env bash
# Installs what is missing, builds amp and runs the mixed-precision pipeline
# on the shipped MLP training step: prints the f16 training step with loss
# scaling, then a summary of the precision report.
#
#   scripts/run-example.sh [model.mlir] [amp-pipeline options]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${AMP_BUILD_DIR:-$root/build}

"$root/scripts/build.sh"
example=${1:-$root/examples/mlp_train.mlir}
options=${2:-compute-type=f16}
report="$build/$(basename "$example" .mlir).report.json"

echo "== amp-opt $(basename "$example") --amp-pipeline=\"$options\"" >&2
"$build/bin/amp-opt" "$example" --amp-pipeline="$options report=$report"

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
