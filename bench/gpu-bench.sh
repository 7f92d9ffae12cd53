#!/usr/bin/env bash
# Everything issue #15 measures, in one go, on a machine with an NVIDIA GPU,
# the CUDA toolkit and PyTorch (no MLIR needed):
#
#   bench/gpu-bench.sh [BUNDLE]     (default: build/gpu-bundle, made by
#                                    scripts/gpu-bundle.sh on a machine with
#                                    the compiler)
#
# In this order, most important first, so that a run cut short by a time
# limit still has its results:
#   1. scripts/gpu-check.sh BUNDLE build unit: the runtime (built, or the one
#      carried in BUNDLE/rt), the GEMM unit tests, amp-backend-compare;
#   2. bench/gpu_gemm_table.py: amp's GEMMs against torch.matmul, and fused
#      epilogues against unfused ones;
#   3. bench/gpu_step_bench.py: training-step time and peak memory against
#      PyTorch eager, autocast and torch.compile;
#   4. bench/gpu_profile.py: where the steps' GPU time goes, amp's kernels
#      (ncu) against PyTorch's (torch.profiler);
#   5. scripts/gpu-check.sh BUNDLE train graph sanitizer: the bundled models
#      trained on the CUDA and reference backends and compared, --cuda-graph
#      replay bitwise, compute-sanitizer.
#
# GPU_BENCH_STAGES picks and orders stages (default "checks gemm steps
# profile train"), e.g. to spend a short lease on what was not yet run.
# Results go to ${OUT:-build-rt/gpu-bench}: summary.txt (the checks),
# gemm.md and steps.md (the tables), gemm.json and steps.json (every
# round's numbers), profile.tar.gz (profile.md and the per-kernel CSVs),
# check-logs.tar.gz (the checks' logs, re-packed after each stage).
# GPU_BENCH_ROUNDS (default 2) sets the rounds of both tables;
# GPU_BENCH_SECONDS bounds the whole run (each stage gets what is left, and
# stages after the limit are skipped). Exits 1 when a check failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bundle=$(cd "${1:-$root/build/gpu-bundle}" && pwd)
out=${OUT:-$root/build-rt/gpu-bench}
rounds=${GPU_BENCH_ROUNDS:-2}
mkdir -p "$out"
work=$(mktemp -d)
export GPU_CHECK_OUT=$work/check
export PYTHONUNBUFFERED=1
status=0

deadline=$((SECONDS + ${GPU_BENCH_SECONDS:-100000}))
stage() { # stage NAME COMMAND...: runs it, then packs the checks' logs
  local left=$((deadline - SECONDS))
  if ((left < 10)); then
    echo "== $1: SKIPPED (GPU_BENCH_SECONDS spent)" | tee -a "$out/summary.txt"
    status=1
    return
  fi
  echo "== $1 ($(date -u +%T), ${left}s left)"
  shift
  timeout "$left" "$@" || status=1
  [[ -d $GPU_CHECK_OUT ]] && tar -czf "$out/check-logs.tar.gz" -C "$work" check
  [[ -f $GPU_CHECK_OUT/summary.txt ]] && cp "$GPU_CHECK_OUT/summary.txt" "$out/summary.txt"
}

# The tables use the runtime that the checks use.
if [[ -x $bundle/rt/bin/amp-exec ]]; then
  rt=$bundle/rt
  export AMP_RUNTIME_DIR=$rt/lib LD_LIBRARY_PATH=$rt/lib:${LD_LIBRARY_PATH:-}
else
  rt=$root/build-rt
fi
for name in ${GPU_BENCH_STAGES:-checks gemm steps profile train}; do
  case $name in
  checks) stage "checks: build, unit tests" "$root/scripts/gpu-check.sh" "$bundle" build unit ;;
  gemm) stage "GEMM table" bash -c "'$root/bench/gpu_gemm_table.py' --bench '$rt/bin/amp-gemm-bench' \
    --rounds $rounds --json '$out/gemm.json' > '$out/gemm.md'; s=\$?; cat '$out/gemm.md'; exit \$s" ;;
  steps) stage "training-step table" "$root/bench/gpu_step_bench.py" --bundle "$bundle" \
    --amp-exec "$rt/bin/amp-exec" --rounds "$rounds" --table "$out/steps.md" --json "$out/steps.json" ;;
  profile) stage "profile" bash -c "'$root/bench/gpu_profile.py' --bundle '$bundle' \
    --amp-exec '$rt/bin/amp-exec' --out '$work/profile'; s=\$?; \
    tar -czf '$out/profile.tar.gz' -C '$work' profile; exit \$s" ;;
  train) stage "checks: training, graphs, sanitizer" "$root/scripts/gpu-check.sh" "$bundle" train graph sanitizer ;;
  *) echo "unknown stage $name (checks gemm steps profile train)" >&2; exit 2 ;;
  esac
done
echo "== done ($(date -u +%T)): $(grep -c '^PASS' "$out/summary.txt") passed, $(grep -c '^FAIL' "$out/summary.txt") failed"
exit $status
