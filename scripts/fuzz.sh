#!/usr/bin/env bash
# Builds the libFuzzer target for ShelfImage's decoders (JPEG, PNG, HEIF, WebP, EXIF, reduced decode) with
# AddressSanitizer and runs it for SECONDS (default 60). The corpus persists in .build/fuzz/corpus,
# seeded from the test fixtures; crashes land in .build/fuzz/artifacts.
# Usage: scripts/fuzz.sh [SECONDS] [extra libFuzzer flags...]
# Note: libjpeg-turbo, libpng, libheif and libwebp are the system builds, so coverage feedback comes from our shim and
# Swift code; the libraries themselves are fuzzed upstream (OSS-Fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true

swift_bin="$(dirname "$(readlink -f "$(command -v swiftc)")")"
clang="${CLANG:-$swift_bin/clang}"
out=.build/fuzz
mkdir -p "$out/obj" "$out/include" "$out/corpus" "$out/artifacts"

cat > "$out/include/module.modulemap" <<MAP
module CImageCodecs {
    header "$PWD/Sources/CImageCodecs/include/CImageCodecs.h"
    export *
}
MAP

echo "fuzz: building $out/fuzz-image" >&2
for c in Sources/CImageCodecs/*.c; do
  "$clang" -fsanitize=fuzzer-no-link,address -g -O1 -I Sources/CImageCodecs/include \
    -c "$c" -o "$out/obj/$(basename "$c" .c).o"
done
swiftc -swift-version 6 -parse-as-library -module-name ShelfImageFuzz -O -g \
  -sanitize=fuzzer,address -I "$out/include" \
  Sources/ShelfImage/*.swift Fuzz/ShelfImageFuzz.swift "$out"/obj/*.o \
  -ljpeg -lpng16 -lheif -lwebp -lwebpdemux -o "$out/fuzz-image"

# Seed with every fixture (valid files of each kind) the first time.
if [ -z "$(ls -A "$out/corpus")" ]; then
  cp Tests/ShelfImageTests/Fixtures/*.jpg Tests/ShelfImageTests/Fixtures/*.png "$out/corpus/"
fi
# HEIC and WebP seeds join an existing corpus too (added with the HEIF/WebP decoders).
cp -n Tests/ShelfImageTests/Fixtures/*.heic Tests/ShelfImageTests/Fixtures/*.webp "$out/corpus/"

echo "fuzz: running for ${seconds}s" >&2
exec "$out/fuzz-image" "$out/corpus" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=262144 \
  -artifact_prefix="$out/artifacts/" -print_final_stats=1 "$@"
