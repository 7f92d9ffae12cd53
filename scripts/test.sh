#!/usr/bin/env bash
# Installs what is missing, builds amp and runs the whole test suite (lit
# tests, GoogleTest unit tests run through lit, docs freshness).
#
#   scripts/test.sh              the normal build in ./build
#   scripts/test.sh --sanitize   an ASan+UBSan build in ./build-sanitize
#   scripts/test.sh --all        what CI runs (the README's test command):
#                                the normal suite, the ASan+UBSan suite,
#                                and every fuzzer for a few seconds on its
#                                corpus (scripts/fuzz.sh, ./build-fuzz)
#
# Each suite ends in one line "lit: N passed, N failed, N skipped"; with
# --all the last line is that of both suites together, after the fuzzers'
# line.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

total_passed=0 total_failed=0 total_skipped=0

# suite BUILD_DIR [CMAKE_ARGS...]: builds in BUILD_DIR and runs lit there.
suite() {
  local build=$1
  shift
  # (Inside `suite || ...` set -e does not apply: each step says so itself.)
  AMP_BUILD_DIR=$build "$root/scripts/build.sh" "$@" || return 1
  "$root/scripts/get-digits.sh" || return 1
  # ONNX's node tests and light models for the importer's conformance tests
  # (test/Import, feature onnx-tests); without network they are skipped.
  "$root/scripts/get-onnx-tests.sh" ||
    echo "test.sh: ONNX test data not fetched; test/Import conformance skipped" >&2
  ninja -C "$build" amp-doc AMPUnitTests || return 1

  local log status=0
  log=$(mktemp)
  /usr/lib/llvm-22/bin/lit -sv "$build/test" 2>&1 | tee "$log" || status=$?

  # One summary line in the form CI reads: "N passed, N failed, N skipped".
  # lit prints e.g. "  Passed : 12 (80.00%)" (the colon may be aligned).
  count() {
    local n
    n=$(sed -n "s/^ *$1 *: *\([0-9][0-9]*\).*/\1/p" "$log" | head -n 1)
    echo "${n:-0}"
  }
  local passed failed skipped
  passed=$(($(count Passed) + $(count 'Expectedly Failed')))
  failed=$(($(count Failed) + $(count 'Unexpectedly Passed') + $(count Unresolved) + $(count 'Timed Out')))
  skipped=$(($(count Unsupported) + $(count Skipped) + $(count Excluded)))
  rm -f "$log"
  echo "lit: ${passed} passed, ${failed} failed, ${skipped} skipped"
  total_passed=$((total_passed + passed))
  total_failed=$((total_failed + failed + (status != 0 && failed == 0)))
  total_skipped=$((total_skipped + skipped))
  return "$status"
}

case ${1:-} in
--sanitize)
  suite "${AMP_BUILD_DIR:-$root/build-sanitize}" -DAMP_ENABLE_SANITIZERS=ON
  ;;
--all)
  status=0
  suite "${AMP_BUILD_DIR:-$root/build}" || status=1
  echo "== the same suite under ASan+UBSan (build-sanitize/)"
  suite "$root/build-sanitize" -DAMP_ENABLE_SANITIZERS=ON || status=1
  echo "== every fuzzer for ${AMP_FUZZ_SECONDS:=10}s (build-fuzz/)"
  if "$root/scripts/fuzz.sh" "$AMP_FUZZ_SECONDS"; then
    echo "fuzz: every fuzzer ran ${AMP_FUZZ_SECONDS}s without a finding"
  else
    echo "fuzz: a fuzzer failed (build-fuzz/artifacts/)"
    status=1
  fi
  echo "lit: ${total_passed} passed, ${total_failed} failed, ${total_skipped} skipped"
  exit "$status"
  ;;
"")
  suite "${AMP_BUILD_DIR:-$root/build}"
  ;;
*)
  echo "usage: scripts/test.sh [--sanitize | --all]" >&2
  exit 2
  ;;
esac
