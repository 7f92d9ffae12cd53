#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build and test amp:
# Debian's LLVM/MLIR 22 packages, Ninja, CMake and GoogleTest, and for the
# ONNX importer (tools/amp-import-onnx) libonnx-dev with libprotobuf-dev,
# whose headers onnx/onnx-ml.pb.h includes (Debian's libonnx-dev does not
# depend on it), pip, with which scripts/get-onnx-tests.sh fetches
# ONNX's test data from PyPI, and oneDNN (libdnnl-dev) for the fast CPU
# backend (runtime/cpu), mimalloc (libmimalloc-dev), the allocator of the
# compiler tools (cmake/AmpAllocator.cmake), zlib (zlib1g-dev), with which
# amp-run reads np.savez_compressed datasets, and clang-22 with libFuzzer and
# the sanitizer runtimes for the fuzzers (scripts/fuzz.sh). It is
# idempotent: when everything is installed it does nothing (no apt-get
# update).
# The CUDA toolkit is optional and never installed here; the CUDA backend is
# built when /usr/local/cuda exists.
set -euo pipefail

PACKAGES=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  ninja-build cmake g++ libgtest-dev python3
  libonnx-dev libprotobuf-dev
  python3-pip
  libdnnl-dev
  libmimalloc-dev
  zlib1g-dev
  clang-22 libfuzzer-22-dev libclang-rt-22-dev
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null |
      grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "amp: installing missing packages: ${missing[*]}" >&2
sudo=()
if [[ $(id -u) -ne 0 ]]; then
  sudo=(sudo)
fi
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
  --no-install-recommends "${missing[@]}"
