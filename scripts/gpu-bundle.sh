#!/usr/bin/env bash
# Prepares, on a machine with the compiler, what scripts/gpu-check.sh and
# bench/gpu-bench.sh run on a GPU machine that has no MLIR: the examples'
# training steps and the benchmark models of bench/gpu_step_bench.py
# compiled ahead of time (amp-compile) in f32, f16 and bf16, and the digits
# data. With AMP_RUNTIME_BUILD_DIR (a runtime-only build made here with the
# GPU machine's CUDA toolkit, e.g. -DCMAKE_CUDA_ARCHITECTURES=90) it also
# copies that runtime's programs, libraries and GEMM tests into DIR/rt, so
# the GPU machine need not build it.
#
#   scripts/gpu-bundle.sh [DIR]     (default: build/gpu-bundle)
#
# Then carry DIR to the GPU machine with the source tree and run
# bench/gpu-bench.sh DIR there (docs/gpu-results.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${AMP_BUILD_DIR:-$root/build}
out=${1:-$build/gpu-bundle}

"$root/scripts/get-digits.sh"
ninja -C "$build" amp-compile
mkdir -p "$out"
cp "$root/data/digits.csv" "$out/"

# The models of scripts/gpu-check.sh: name, autodiff options, eval entry,
# and the example (default: the name).
compile() {
  local name=$1 autodiff=$2 eval=$3 example=${4:-$1} precision
  for precision in f32 f16 bf16; do
    "$build/bin/amp-compile" "$root/examples/$example.mlir" --precision "$precision" \
      --autodiff-options "$autodiff" ${eval:+--eval-entry "$eval"} \
      -o "$out/$name.$precision.so"
  done
}
compile mlp "lr=0.05 momentum=0.9" train_step_forward
compile resnet "lr=0.05 momentum=0.9" train_step_forward
# Clipped as Hugging Face's Trainer clips (max_grad_norm 1.0).
compile transformer "optimizer=adamw clip-norm=1.0" ""
compile bert_layer "optimizer=adamw lr=3e-4" ""
# The BERT layer under Adafactor (factored second moments: the CUDA
# backend's staged reductions over rows and columns).
compile bert_adafactor "optimizer=adafactor" "" bert_layer
# The CNN with moving averages of its weights (and of its batch norms'
# running statistics), evaluated with them (--eval-ema), its gradients
# clamped as timm's --clip-mode value clamps them.
compile cnn_ema "optimizer=adamw lr=0.003 ema-decay=0.95 ema-buffers clip-value=1.0" train_step_forward cnn
python3 "$root/bench/gpu_step_bench.py" --prepare "$out" \
  --amp-compile "$build/bin/amp-compile"

if [[ -n ${AMP_RUNTIME_BUILD_DIR:-} ]]; then
  rt=$AMP_RUNTIME_BUILD_DIR
  ninja -C "$rt"
  rm -rf "$out/rt"
  mkdir -p "$out/rt/bin" "$out/rt/lib" "$out/rt/unittests/Runtime/Gemm"
  cp "$rt"/bin/{amp-exec,amp-backend-compare,amp-gemm-bench} "$out/rt/bin/"
  cp -P "$rt"/lib/libamp_runtime_{ref,cuda}.so* "$out/rt/lib/"
  cp "$rt"/unittests/Runtime/Gemm/AMPGemm{,Cuda}Tests "$out/rt/unittests/Runtime/Gemm/"
fi
du -sh "$out"
