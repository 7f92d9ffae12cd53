#!/usr/bin/env bash
# Installs what is missing, builds amp and runs the whole test suite (lit
# tests, GoogleTest unit tests run through lit, docs freshness).
#
#   scripts/test.sh              the normal build in ./build
#   scripts/test.sh --sanitize   an ASan+UBSan build in ./build-sanitize
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

cmake_args=()
if [[ ${1:-} == --sanitize ]]; then
  export AMP_BUILD_DIR=${AMP_BUILD_DIR:-$root/build-sanitize}
  cmake_args=(-DAMP_ENABLE_SANITIZERS=ON)
fi
build=${AMP_BUILD_DIR:-$root/build}

"$root/scripts/build.sh" "${cmake_args[@]}"
"$root/scripts/get-digits.sh"
# ONNX's node tests and light models for the importer's conformance tests
# (test/Import, feature onnx-tests); without network they are skipped.
"$root/scripts/get-onnx-tests.sh" ||
  echo "test.sh: ONNX test data not fetched; test/Import conformance skipped" >&2
ninja -C "$build" amp-doc AMPUnitTests

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
/usr/lib/llvm-22/bin/lit -sv "$build/test" 2>&1 | tee "$log" || status=$?

# One summary line in the form CI reads: "N passed, N failed, N skipped".
# lit prints e.g. "  Passed : 12 (80.00%)" (the colon may be aligned).
count() {
  local n
  n=$(sed -n "s/^ *$1 *: *\([0-9][0-9]*\).*/\1/p" "$log" | head -n 1)
  echo "${n:-0}"
}
passed=$(($(count Passed) + $(count 'Expectedly Failed')))
failed=$(($(count Failed) + $(count 'Unexpectedly Passed') + $(count Unresolved) + $(count 'Timed Out')))
skipped=$(($(count Unsupported) + $(count Skipped) + $(count Excluded)))
echo "lit: ${passed} passed, ${failed} failed, ${skipped} skipped"
exit "$status"
