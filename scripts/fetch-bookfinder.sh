#!/usr/bin/env bash
# Extracts the Bookfinder shelf photos the detector is trained and evaluated on (Shelfslibs_00008 to 00025)
# from a bare git copy of github.com/rauricus/Bookfinder into OUT_DIR, outside the repository: photos never
# go into git. Shelfslibs_00001 to 00007 are held out for judging by others and are never extracted.
# The photos keep their EXIF orientation (3); ShelfImage applies it on decode.
# Usage: scripts/fetch-bookfinder.sh MIRROR_GIT_DIR OUT_DIR
#   e.g. scripts/fetch-bookfinder.sh /work/.mirror/rauricus+Bookfinder/repo /work/data/bookfinder
# Then: BOOKFINDER_DIR=OUT_DIR swift run -c release eval-detection
set -euo pipefail
if [ $# -ne 2 ]; then echo "usage: $0 MIRROR_GIT_DIR OUT_DIR" >&2; exit 2; fi
mirror="$1" out="$2"
git --git-dir="$mirror" rev-parse --verify -q HEAD >/dev/null || { echo "error: $mirror is not a git directory" >&2; exit 1; }
mkdir -p "$out"
for n in $(seq 8 25); do
  name=$(printf 'Shelfslibs_%05d.jpeg' "$n")
  git --git-dir="$mirror" show "HEAD:example-files/shelve_libraries/$name" > "$out/$name.part"
  mv "$out/$name.part" "$out/$name"
done
echo "fetch-bookfinder: $(ls "$out"/Shelfslibs_*.jpeg | wc -l) photos in $out" >&2
