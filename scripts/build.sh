#!/usr/bin/env bash
# Configures and builds amp into ${AMP_BUILD_DIR:-build} with Ninja.
# Extra arguments are passed to CMake, e.g. -DAMP_ENABLE_SANITIZERS=ON.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${AMP_BUILD_DIR:-$root/build}

"$root/scripts/setup-deps.sh"
if [[ ! -f $build/build.ninja ]] || (($# > 0)); then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "$@"
fi
ninja -C "$build"
