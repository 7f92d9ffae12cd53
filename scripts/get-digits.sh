#!/usr/bin/env bash
# Obtains the UCI handwritten digits (1797 8x8 images, 64 features + label)
# that Debian's python3-sklearn package ships, without installing the
# package: apt-get download + dpkg -x. Writes data/digits.csv; idempotent.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/data/digits.csv"
[[ -s $out ]] && exit 0

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
if ! apt-get download python3-sklearn >/dev/null 2>&1; then
  # A fresh machine may not have package lists yet.
  sudo=()
  [[ $(id -u) -ne 0 ]] && sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  apt-get download python3-sklearn >/dev/null
fi
dpkg -x python3-sklearn_*.deb extracted
csv=$(find extracted -name digits.csv.gz | head -n 1)
[[ -n $csv ]] || { echo "get-digits: digits.csv.gz not found in python3-sklearn" >&2; exit 1; }
mkdir -p "$root/data"
zcat "$csv" > "$out.tmp"
mv "$out.tmp" "$out"
echo "get-digits: wrote $out ($(wc -l < "$out") rows)" >&2
