#!/usr/bin/env bash
# Builds the tiny HEIC and WebP decoder fixtures and their reference pixels into
# Tests/ShelfImageTests/Fixtures (each under 3 KB; the reference PNGs under 13 KB).
#
# HEICs come from heif_fixtures.c (libheif's encoder, x265); WebPs from the Debian tools cwebp, webpmux and
# img2webp. References come from the reference decoders on the same files: heif-convert (applies
# irot/imir, as libheif's own viewer does) and dwebp, both writing PNG (alpha kept, 16-bit for 10-bit
# HEIC). The tests read a reference through ShelfImage's PNG decoder, which is itself checked against
# Pillow, and composite its alpha onto white the same way. dwebp ignores EXIF, so the test turns the
# orientation-6 WebP's reference itself.
#
# Needs: libheif-dev libheif-examples webp pkg-config and a C compiler (scripts/setup.sh installs them).
# Usage: scripts/image-fixtures/make-heif-webp.sh [OUTDIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/../../Tests/ShelfImageTests/Fixtures}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cc -O1 -Wall "$here/heif_fixtures.c" $(pkg-config --cflags --libs libheif) -o "$work/heif_fixtures"
"$work/heif_fixtures" "$work" 2>/dev/null

for f in "$work"/*.heic; do
  name="$(basename "$f")"
  cp "$f" "$out/$name"
  heif-convert "$f" "$out/$name.ref.png" >/dev/null
done

q() { "$@" -quiet; }
q cwebp -q 90 "$work/pattern.ppm" -o "$work/webp-lossy.webp"
q cwebp -lossless "$work/pattern.ppm" -o "$work/webp-lossless.webp"
q cwebp -q 90 -alpha_q 100 "$work/pattern-alpha.pam" -o "$work/webp-alpha.webp"
webpmux -set exif "$work/exif-6.tiff" "$work/webp-lossy.webp" -o "$work/webp-orientation-6.webp" >/dev/null 2>&1
# Two lossless frames; the first is the pattern, the second its negative: only frame 1 may come out.
img2webp -lossless "$work/pattern.ppm" -d 100 "$work/pattern-inverted.ppm" -o "$work/webp-animated.webp" >/dev/null 2>&1

for f in "$work"/webp-*.webp; do
  name="$(basename "$f")"
  cp "$f" "$out/$name"
done
for name in webp-lossy webp-lossless webp-alpha webp-orientation-6; do
  q dwebp "$work/$name.webp" -o "$out/$name.webp.ref.png"
done
webpmux -get frame 1 "$work/webp-animated.webp" -o "$work/frame1.webp" >/dev/null 2>&1
q dwebp "$work/frame1.webp" -o "$out/webp-animated.webp.ref.png"
echo "make-heif-webp: wrote $(ls "$out" | grep -cE '^(heic|webp)-') files to $out" >&2
