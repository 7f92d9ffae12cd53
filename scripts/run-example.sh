#!/usr/bin/env bash
# Installs what is missing, builds amp and runs it on the shipped MLP training
# step: amp-opt parses, verifies and prints examples/mlp_train.mlir.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${AMP_BUILD_DIR:-$root/build}

"$root/scripts/build.sh"
example=${1:-$root/examples/mlp_train.mlir}
echo "== amp-opt $(basename "$example")" >&2
"$build/bin/amp-opt" "$example"
