#!/usr/bin/env bash
# Obtains ONNX's backend test data (the node tests' model.onnx and
# test_data_set_0/*.pb, the light_*.onnx models) from the onnx wheel on
# PyPI, without installing it: pip download --no-deps + unzip (Python's
# zipfile module), as get-digits.sh does with a Debian package. Writes
# data/onnx/ (the unpacked wheel: onnx/backend/test/data/{node,light}, and
# the onnx Python package that test/Import/Inputs/gen_models.py uses, whose
# compiled part is the x86_64 CPython 3.11 one) and data/onnx/VERSION;
# idempotent, and fetches again when VERSION is not $version. 1.19.1 is the
# last wheel that carries the test data, and its node tests cover opset 23
# (Attention, RMSNormalization, RotaryEmbedding). Needs pip (python3-pip).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=1.19.1
out="$root/data/onnx"
[[ -d $out/onnx/backend/test/data/node && $(cat "$out/VERSION" 2>/dev/null) == "$version" ]] && exit 0

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m pip download "onnx==$version" --no-deps --only-binary=:all: \
  --python-version 3.11 --platform manylinux2014_x86_64 -d "$work" -q
wheel=$(ls "$work"/onnx-"$version"-*.whl | head -n 1)
mkdir -p "$work/unpacked"
python3 -m zipfile -e "$wheel" "$work/unpacked"
echo "$version" > "$work/unpacked/VERSION"
mkdir -p "$(dirname "$out")"
rm -rf "$out"
mv "$work/unpacked" "$out"
echo "get-onnx-tests: wrote $out (onnx $version, $(ls "$out/onnx/backend/test/data/node" | wc -l) node tests)" >&2
