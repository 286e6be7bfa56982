#!/usr/bin/env python3
"""Fits the spine detector's parameters by coordinate search on a training split of samples/.

    swift build -c release --product eval-detection
    scripts/fit-detector.py [--params models/detection/detector-v2.json] [--rounds 4] [--out FILE]

Split (stated, fixed): training = the odd-numbered sample photos (shelf-01, -03, ...) and the real
one_shelf_example; held out = the even-numbered samples and the real two_shelves_example, only reported.
The objective is the mean of the training samples' F1 and the training real photo's F1 at IoU >= 0.5, as
eval-detection computes them, so the many synthetic spines do not drown the real ones. A change is kept
only when it raises that by more than `--min-gain`, so noise-level moves do not accumulate.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EVAL = os.path.join(ROOT, ".build", "release", "eval-detection")

# name: (step, kind) -- "mul" scales the value, "add" moves it (for weights that may start at 0).
SEARCH = {
    "boundaryThreshold": (0.08, "mul"),
    "relativeThreshold": (0.05, "add"),
    "rowReferenceQuantile": (0.03, "add"),
    "relativeFloor": (0.1, "add"),
    "darkGapWeight": (0.1, "add"),
    "colourChangeWeight": (0.1, "add"),
    "footWeight": (0.1, "add"),
    "tiltPenalty": (0.2, "mul"),
    "widthRatioMedian": (0.15, "mul"),
    "widthPriorWeight": (0.5, "mul"),
    "gapMaxWidthRatio": (0.2, "mul"),
    "topEdgeCoverage": (0.15, "mul"),
    "blankMaxLumaSD": (0.25, "mul"),
    "blankMaxEdgeDensity": (0.25, "mul"),
    "wideRetryThresholdFactor": (0.1, "add"),
    "minConfidence": (0.05, "add"),
}


TRAIN_REAL = "one_shelf_example"


def split_dirs(samples, dataset):
    """Symlink folders: odd and even sample photos, and the real photos split the same way."""
    tmp = tempfile.mkdtemp(prefix="fit-detector-")
    dirs = {k: os.path.join(tmp, k) for k in ("train", "heldout", "train-real", "heldout-real")}
    for d in dirs.values():
        os.makedirs(d)
    boxes = os.path.join(dataset, "spine_boxes")
    if os.path.isdir(boxes):
        for name in sorted(os.listdir(boxes)):
            stem, ext = os.path.splitext(name)
            image = os.path.join(dataset, stem + ".jpg")
            if ext != ".json" or not os.path.exists(image):
                continue
            d = dirs["train-real" if stem == TRAIN_REAL else "heldout-real"]
            os.makedirs(os.path.join(d, "spine_boxes"), exist_ok=True)
            os.symlink(os.path.join(boxes, name), os.path.join(d, "spine_boxes", name))
            os.symlink(image, os.path.join(d, stem + ".jpg"))
    for name in sorted(os.listdir(samples)):
        m = re.match(r"shelf-(\d+)\.(jpg|jpeg|png|json)$", name)
        if not m:
            continue
        part = "train" if int(m.group(1)) % 2 == 1 else "heldout"
        os.symlink(os.path.join(samples, name), os.path.join(dirs[part], name))
    return dirs


def objective(params, dirs):
    samples, real = evaluate(params, dirs["train"], dirs["train-real"])
    return samples if real is None else (samples + real) / 2


def evaluate(params, samples_dir, dataset="/nonexistent"):
    """(samples F1, real F1 or None) for a parameter set."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(params, f)
        path = f.name
    try:
        out = subprocess.run([EVAL, "--runs", "0", "--params", path, "--samples", samples_dir, "--dataset", dataset],
                             capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(path)
    f1 = {m.group(1): float(m.group(2)) for m in re.finditer(r"OVERALL (samples|real photos):.*F1 ([0-9.]+)", out)}
    return f1.get("samples", 0.0), f1.get("real photos")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--params", default=os.path.join(ROOT, "models", "detection", "detector-v2.json"))
    ap.add_argument("--samples", default=os.path.join(ROOT, "samples"))
    ap.add_argument("--dataset", default=os.path.join(ROOT, "..", "shared", "datasets", "library-dataset"))
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--min-gain", type=float, default=0.001)
    ap.add_argument("--only", help="comma-separated parameter names to search (default: all)")
    ap.add_argument("--out", help="write the fitted parameters here")
    a = ap.parse_args()
    if not os.path.exists(EVAL):
        sys.exit("fit-detector: build eval-detection first: swift build -c release --product eval-detection")
    params = json.load(open(a.params))
    dirs = split_dirs(os.path.abspath(a.samples), os.path.abspath(a.dataset))
    names = a.only.split(",") if a.only else list(SEARCH)
    def report(label):
        tr, trr = evaluate(params, dirs["train"], dirs["train-real"])
        he, her = evaluate(params, dirs["heldout"], dirs["heldout-real"])
        fmt = lambda v: "n/a" if v is None else f"{v:.4f}"
        print(f"{label}: train samples F1 {tr:.4f}, train real {fmt(trr)} | held-out samples {he:.4f}, "
              f"held-out real {fmt(her)}", flush=True)

    report("start")
    best = objective(params, dirs)
    steps = {n: SEARCH[n][0] for n in names}
    for r in range(a.rounds):
        moved = False
        for n in names:
            step, kind = steps[n], SEARCH[n][1]
            for sign in (1, -1):
                trial = dict(params)
                v = params[n] * (1 + sign * step) if kind == "mul" else params[n] + sign * step
                trial[n] = round(max(0.0, v), 5)
                f1 = objective(trial, dirs)
                if f1 > best + a.min_gain:
                    print(f"round {r + 1}: {n} {params[n]} -> {trial[n]}: objective {best:.4f} -> {f1:.4f}", flush=True)
                    params, best, moved = trial, f1, True
                    break
        if not moved:
            steps = {n: s / 2 for n, s in steps.items()}
    report("fitted")
    text = json.dumps(params, indent=2) + "\n"
    if a.out:
        open(a.out, "w").write(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
