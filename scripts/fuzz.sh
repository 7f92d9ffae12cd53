#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (clang-22, ASan+UBSan, in
# ./build-fuzz) and runs each for a while on its seed corpus, collecting
# crashes.
#
#   scripts/fuzz.sh [SECONDS] [FUZZER...]
#
# SECONDS per fuzzer (default 60). Each fuzzer's corpus grows in
# build-fuzz/corpus/<name> (seeded from fuzz/corpus/<name>); crashes, leaks,
# timeouts and sanitizer reports are written to build-fuzz/artifacts/ and
# make the script exit 1. A crash becomes a minimized regression test under
# test/ or unittests/ in the same commit as its fix (fuzz/README.md).
# Needs clang-22, libfuzzer-22-dev and libclang-rt-22-dev.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${AMP_FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=${1:-60}
shift || true
fuzzers=("$@")
if [[ ! -f $build/build.ninja ]]; then
  CC=clang-22 CXX=clang++-22 cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release -DAMP_ENABLE_FUZZERS=ON -DAMP_ENABLE_CUDA=OFF
fi
ninja -C "$build" amp-fuzzers
if ((${#fuzzers[@]} == 0)); then
  fuzzers=(csv params npy npz kernel-args ir pipeline)
  # amp-onnx-fuzzer exists when the ONNX importer is built.
  if [[ -x $build/fuzz/amp-onnx-fuzzer ]]; then
    fuzzers+=(onnx)
  fi
fi

# The IR fuzzers' seeds: every lit test's and example's IR, one file per
# "// -----" section.
seeds=$build/seeds/ir
rm -rf "$seeds" && mkdir -p "$seeds"
find "$root/test" "$root/examples" -name '*.mlir' -print0 |
  xargs -0 awk -v out="$seeds" '
    FNR == 1 { close(file); name = FILENAME; gsub(/[^A-Za-z0-9]/, "_", name); part = 0 }
    /^\/\/ -----/ { close(file); part++; next }
    { file = out "/" name "-" part ".mlir"; print > file }'

# The tensor files' and ONNX models' seeds: those of the tests, plus
# fuzz/corpus/<name>.
rm -rf "$build/seeds/npy" "$build/seeds/npz" "$build/seeds/onnx"
mkdir -p "$build/seeds/npy" "$build/seeds/npz" "$build/seeds/onnx"
find "$root/test" -name '*.npy' -exec cp {} "$build/seeds/npy" \;
find "$root/test" -name '*.npz' -exec cp {} "$build/seeds/npz" \;
find "$root/test" \( -name '*.onnx' -o -name '*.pb' \) \
  -exec cp {} "$build/seeds/onnx" \;

mkdir -p "$build/artifacts"
status=0
for name in "${fuzzers[@]}"; do
  corpus=$build/corpus/$name
  mkdir -p "$corpus"
  seed=$root/fuzz/corpus/$name
  words=$root/fuzz/$name.dict
  extra=()
  if [[ $name == ir || $name == pipeline ]]; then
    seed=$seeds
    words=$root/fuzz/ir.dict
  elif [[ $name == npy || $name == npz || $name == onnx ]]; then
    extra=("$build/seeds/$name")
  fi
  [[ -d $seed ]] || seed=""
  dict=()
  if [[ -f $words ]]; then
    dict=(-dict="$words")
  fi
  log=$build/artifacts/$name.log
  echo "== amp-$name-fuzzer: ${seconds}s"
  if ! "$build/fuzz/amp-$name-fuzzer" "${dict[@]}" -max_total_time="$seconds" \
      -print_final_stats=1 -artifact_prefix="$build/artifacts/$name-" \
      "$corpus" ${seed:+"$seed"} "${extra[@]}" > "$log" 2>&1; then
    echo "amp-$name-fuzzer FAILED: see $log and $build/artifacts/$name-*"
    status=1
  fi
  # executions, execs/s, edges (cov) and features of the run.
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec)|DONE' "$log" |
    sed 's/^/   /' || true
done
exit "$status"
