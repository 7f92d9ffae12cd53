#!/usr/bin/env bash
# Prepares, on a machine with the compiler, what scripts/gpu-check.sh runs on
# a GPU machine that has no MLIR: the examples' training steps compiled
# ahead of time (amp-compile) in f32, f16 and bf16, and the digits data.
#
#   scripts/gpu-bundle.sh [DIR]     (default: build/gpu-bundle)
#
# Then carry DIR to the GPU machine with the source tree and run
# scripts/gpu-check.sh DIR there (docs/amp-compile.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${AMP_BUILD_DIR:-$root/build}
out=${1:-$build/gpu-bundle}

"$root/scripts/get-digits.sh"
ninja -C "$build" amp-compile
mkdir -p "$out"
cp "$root/data/digits.csv" "$out/"

# The models of scripts/gpu-check.sh: name, autodiff options, eval entry.
compile() {
  local name=$1 autodiff=$2 eval=$3 precision
  for precision in f32 f16 bf16; do
    "$build/bin/amp-compile" "$root/examples/$name.mlir" --precision "$precision" \
      --autodiff-options "$autodiff" ${eval:+--eval-entry "$eval"} \
      -o "$out/$name.$precision.so"
  done
}
compile mlp "lr=0.05 momentum=0.9" train_step_forward
compile resnet "lr=0.05 momentum=0.9" train_step_forward
compile transformer "optimizer=adamw" ""
compile bert_layer "optimizer=adamw lr=3e-4" ""
du -sh "$out"
