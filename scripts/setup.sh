#!/usr/bin/env bash
# Installs only the Debian packages ShelfScan needs that are missing, fetches the pinned OCR runtime and
# models, then builds.
# Usage: scripts/setup.sh [release|debug]   (default: release)
set -euo pipefail
cd "$(dirname "$0")/.."

config="${1:-release}"
# libheif-examples (heif-convert) and webp (cwebp, dwebp, webpmux, img2webp) make the HEIC/WebP fixtures
# (scripts/image-fixtures/make-heif-webp.sh) and are what bench-image compares against.
packages=(libjpeg-dev libpng-dev libheif-dev libwebp-dev libheif-examples webp libcurl4-openssl-dev libsqlite3-dev
          tesseract-ocr tesseract-ocr-eng libtesseract-dev libleptonica-dev pkg-config)
# For the tests only (scripts/test sets up the debug build): tmux, where the review tests drive the real binary in
# a real terminal, and chromium with chromium-driver, where the browser tests drive the served pages in headless
# Chromium over WebDriver (about 380 MB that scanning never needs).
if [ "$config" = debug ]; then packages+=(tmux chromium chromium-driver); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The embedded reader's third-party files: ONNX Runtime and the PP-OCR models, pinned and hash-checked,
# into the model cache (not the repo). Offline and instant once they are in place.
python3 scripts/fetch-models.py

# SwiftPM's incremental build has been seen to keep a module compiled against an older layout of a struct in
# another of our modules, and the binary then crashes. When our sources changed since the last build here (a
# pull, a checkout), our own modules are rebuilt whole; the dependencies stay built.
stamp=".build/shelfscan-sources-$config"
sources=$(git ls-files -s Sources Benchmarks Tests Package.swift 2>/dev/null | sha256sum | cut -c1-64)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" != "$sources" ]; then
  find Sources Benchmarks Tests -name '*.swift' -exec touch {} +
fi
swift build -c "$config" --product shelfscan >&2
mkdir -p .build && echo "$sources" > "$stamp"
