#!/usr/bin/env bash
# Extracts the home-shelf photos of MinHanLiWesley/book-spine-recognition (Apache-2.0) that Benchmarks/home-boxes
# annotates, from a bare git copy of that repository into OUT_DIR, outside this repository: photos never go into
# git. The photos keep their EXIF orientation (6, portrait); ShelfImage applies it on decode.
# Usage: scripts/fetch-home-shelves.sh MIRROR_GIT_DIR OUT_DIR
#   e.g. scripts/fetch-home-shelves.sh /work/.mirror/MinHanLiWesley+book-spine-recognition/repo /work/data/homes
# Then: HOMES_DIR=OUT_DIR swift run -c release eval-detection
set -euo pipefail
if [ $# -ne 2 ]; then echo "usage: $0 MIRROR_GIT_DIR OUT_DIR" >&2; exit 2; fi
mirror="$1" out="$2"
commit=74db9e72d784a542d64607dcc331c56337762ea6   # the snapshot Benchmarks/home-boxes was drawn on
git --git-dir="$mirror" rev-parse --verify -q "$commit^{commit}" >/dev/null || { echo "error: $mirror is not a git copy holding $commit" >&2; exit 1; }
mkdir -p "$out"
for name in IMG_1346.jpg IMG_1347.jpg IMG_1348.jpg IMG_1538.jpg IMG_1539.jpg; do
  git --git-dir="$mirror" show "$commit:.deprecated/testImage/$name" > "$out/$name.part"
  mv "$out/$name.part" "$out/$name"
done
echo "fetch-home-shelves: $(ls "$out"/IMG_*.jpg | wc -l) photos in $out" >&2
