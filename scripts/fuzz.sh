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
if ((${#fuzzers[@]} == 0)); then
  fuzzers=(csv params kernel-args)
fi

if [[ ! -f $build/build.ninja ]]; then
  CC=clang-22 CXX=clang++-22 cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release -DAMP_ENABLE_FUZZERS=ON -DAMP_ENABLE_CUDA=OFF
fi
ninja -C "$build" amp-fuzzers

mkdir -p "$build/artifacts"
status=0
for name in "${fuzzers[@]}"; do
  corpus=$build/corpus/$name
  mkdir -p "$corpus"
  dict=()
  if [[ -f $root/fuzz/$name.dict ]]; then
    dict=(-dict="$root/fuzz/$name.dict")
  fi
  log=$build/artifacts/$name.log
  echo "== amp-$name-fuzzer: ${seconds}s"
  if ! "$build/fuzz/amp-$name-fuzzer" "${dict[@]}" -max_total_time="$seconds" \
      -print_final_stats=1 -artifact_prefix="$build/artifacts/$name-" \
      "$corpus" "$root/fuzz/corpus/$name" > "$log" 2>&1; then
    echo "amp-$name-fuzzer FAILED: see $log and $build/artifacts/$name-*"
    status=1
  fi
  # executions, execs/s, edges (cov) and features of the run.
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec)|DONE' "$log" |
    sed 's/^/   /' || true
done
exit "$status"
