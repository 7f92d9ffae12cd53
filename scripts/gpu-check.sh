#!/usr/bin/env bash
# The GPU checks of the CUDA backend, on a machine with an NVIDIA GPU, the
# CUDA toolkit, CMake and Ninja (no MLIR needed):
#
#   scripts/gpu-check.sh [BUNDLE]   (default: build/gpu-bundle, made by
#                                    scripts/gpu-bundle.sh on a machine with
#                                    the compiler)
#
# 1. builds the runtime-only configuration (runtime backends, amp-exec,
#    amp-backend-compare) in build-rt/;
# 2. amp-backend-compare: every CUDA kernel against the reference backend;
# 3. trains each bundled model on both backends with the same seed and
#    compares the final loss and, for the digits models, the held-out
#    accuracy (within 0.5 points);
# 4. --cuda-graph against the uncaptured run: bitwise the same log and
#    params;
# 5. compute-sanitizer (memcheck) on one training step of each model.
#
# Everything it prints also goes to ${OUT:-build-rt/gpu-check}/ (logs, one
# summary.txt). Exits 1 when a check fails.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bundle=$(cd "${1:-$root/build/gpu-bundle}" && pwd)
out=${OUT:-$root/build-rt/gpu-check}
mkdir -p "$out"
summary=$out/summary.txt
: > "$summary"
failed=0
note() { echo "$*" | tee -a "$summary"; }
check() { # check NAME COMMAND...: runs it, logs its output, records the result
  local name=$1
  shift
  if "$@" > "$out/$name.log" 2>&1; then
    note "PASS $name"
  else
    note "FAIL $name (see $name.log)"
    tail -n 20 "$out/$name.log" | sed 's/^/    /' | tee -a "$summary"
    failed=1
  fi
}

nvidia-smi -L | tee -a "$summary" || { note "no GPU"; exit 1; }

# cuDNN may come only with PyTorch's wheels: put its directory on the path.
if ! ldconfig -p 2>/dev/null | grep -q libcudnn.so.9; then
  cudnn=$(python3 -c 'import nvidia.cudnn, os; print(os.path.join(os.path.dirname(nvidia.cudnn.__file__), "lib"))' 2>/dev/null)
  [[ -n $cudnn ]] && export LD_LIBRARY_PATH=$cudnn:${LD_LIBRARY_PATH:-}
fi

arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n 1 | tr -d .)
check build bash -c "cmake -G Ninja -S '$root' -B '$root/build-rt' -DAMP_RUNTIME_ONLY=ON \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=${arch:-90} && ninja -C '$root/build-rt'"
exec_=$root/build-rt/bin/amp-exec
check backend-compare "$root/build-rt/bin/amp-backend-compare"

# model: flags for amp-exec
declare -A flags=(
  [mlp]="--data $bundle/digits.csv --feature-scale 0.0625 --steps 300"
  [resnet]="--data $bundle/digits.csv --feature-scale 0.0625 --steps 100"
  [transformer]="--vocab 128 --steps 100"
  [bert_layer]="--vocab 128 --steps 20"
)
for model in mlp resnet transformer bert_layer; do
  for p in f32 f16 bf16; do
    so=$bundle/$model.$p.so
    [[ -f $so ]] || continue
    for b in reference cuda; do
      check "train-$model-$p-$b" "$exec_" "$so" --backend $b --seed 1 \
        --print-every 0 --log "$out/$model.$p.$b.csv" --report-memory ${flags[$model]}
    done
    check "match-$model-$p" python3 - "$out/train-$model-$p-reference.log" \
      "$out/train-$model-$p-cuda.log" <<'PY'
import re, sys
def read(path):
    text = open(path).read()
    loss = float(re.search(r"final loss ([-0-9.e+naif]+)", text).group(1))
    acc = re.search(r"eval accuracy: ([0-9.]+)", text)
    return loss, acc and float(acc.group(1))
(rl, ra), (cl, ca) = read(sys.argv[1]), read(sys.argv[2])
print(f"reference: loss {rl} accuracy {ra}; cuda: loss {cl} accuracy {ca}")
if ra is not None and abs(ra - ca) > 0.005:
    sys.exit("accuracy differs by more than 0.5 points")
if not abs(rl - cl) <= 0.05 * max(abs(rl), 1e-3):
    sys.exit("final loss differs by more than 5%")
PY
  done
done

for model in mlp transformer; do
  so=$bundle/$model.f16.so
  [[ -f $so ]] || continue
  check "graph-$model-plain" "$exec_" "$so" --backend cuda --seed 1 --print-every 0 \
    --log "$out/$model.plain.csv" --save-params "$out/$model.plain.params" ${flags[$model]}
  check "graph-$model-captured" "$exec_" "$so" --backend cuda --seed 1 --print-every 0 \
    --log "$out/$model.graph.csv" --save-params "$out/$model.graph.params" --cuda-graph \
    --report-memory ${flags[$model]}
  check "graph-$model-bitwise" bash -c "cmp '$out/$model.plain.csv' '$out/$model.graph.csv' && \
    cmp '$out/$model.plain.params' '$out/$model.graph.params'"
done

if command -v compute-sanitizer > /dev/null; then
  for model in mlp resnet transformer bert_layer; do
    so=$bundle/$model.f16.so
    [[ -f $so ]] || continue
    extra=${flags[$model]/--steps [0-9]*/}
    check "sanitizer-$model" compute-sanitizer --error-exitcode 1 --tool memcheck \
      "$exec_" "$so" --backend cuda --steps 1 --print-every 0 $extra
  done
else
  note "SKIP compute-sanitizer (not installed)"
fi

note "gpu-check: $(grep -c '^PASS' "$summary") passed, $(grep -c '^FAIL' "$summary") failed"
exit $failed
