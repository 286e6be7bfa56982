#!/usr/bin/env bash
# Extracts the library-shelf photos of Dianaaaa/book-spine-segmentation (MIT) that Benchmarks/library-rows-boxes
# annotates, from a bare git copy of that repository into OUT_DIR, outside this repository: photos never go into
# git (book1.jpg, the same photo as image/20.jpg saved again, is left out). Each is written under the name its
# truth file gives (image/7.jpg becomes dianaaaa-07.jpg).
# Usage: scripts/fetch-library-rows.sh MIRROR_GIT_DIR OUT_DIR
#   e.g. scripts/fetch-library-rows.sh /work/.mirror/Dianaaaa+book-spine-segmentation/repo /work/data/library-rows
# Then: LIBRARY_ROWS_DIR=OUT_DIR swift run -c release eval-detection
set -euo pipefail
if [ $# -ne 2 ]; then echo "usage: $0 MIRROR_GIT_DIR OUT_DIR" >&2; exit 2; fi
mirror="$1" out="$2"
commit=8edfa774eae742fcc0f072b76a4b6ed8d090f65d   # the snapshot Benchmarks/library-rows-boxes was drawn on
git --git-dir="$mirror" rev-parse --verify -q "$commit^{commit}" >/dev/null 2>&1 \
  || { echo "error: $mirror is not a git copy holding $commit" >&2; exit 1; }
mkdir -p "$out"
extract() {
  git --git-dir="$mirror" show "$commit:$1" > "$out/$2.part"
  mv "$out/$2.part" "$out/$2"
}
for i in $(seq 1 20); do extract "image/$i.jpg" "$(printf 'dianaaaa-%02d.jpg' "$i")"; done
echo "fetch-library-rows: $(ls "$out"/dianaaaa-*.jpg | wc -l) photos in $out" >&2
