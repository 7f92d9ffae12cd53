#!/usr/bin/env bash
# Regenerates the op reference in docs/reference/ from the ODS definitions.
# test/docs/reference-fresh.test fails when the committed copy is stale.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${AMP_BUILD_DIR:-$root/build}
ninja -C "$build" amp-doc
mkdir -p "$root/docs/reference"
cp "$build/docs/Dialects/NNOps.md" "$build/docs/Dialects/AMPOps.md" \
  "$build/docs/Passes/AMPPasses.md" "$build/docs/Passes/NNPasses.md" \
  "$build/docs/Passes/AMPConversionPasses.md" "$root/docs/reference/"
echo "updated docs/reference/{NNOps,AMPOps,NNPasses,AMPPasses,AMPConversionPasses}.md"
