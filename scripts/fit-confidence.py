#!/usr/bin/env python3
"""Fits the spine detector's confidence model: a logistic regression of "this box is right" on the cues
SpineDetector.confidenceCueNames lists (raw boundary strength, row support, thinness and wideness of the
width ratio, height ratio, lying, texture inside the box, ..., the text cue's printed share and whether a box
lacks print in a printed row), so that a confidence of 0.5 means even odds and `scan --min-confidence 0.5`
removes mostly wrong boxes.

    swift build -c release --product eval-detection
    scripts/make-hard-shelves.py --out /tmp/hard-train --count 24 --seed 7
    scripts/make-hard-shelves.py --out /tmp/hard --count 12
    BOOKFINDER_DIR=/work/data/bookfinder .build/release/eval-detection --runs 0 --synthetic-hard /tmp/hard \
        --synthetic-train /tmp/hard-train --dump-boxes /tmp/boxes.csv
    scripts/fit-confidence.py /tmp/boxes.csv [--real-weight 5] [--synthetic-weight 1] [--drop CUES]

Two models are shipped. "textConfidenceModel" (used when the text cue ran and the box classifier of
scripts/fit-box-classifier.py is not shipped, which scores those boxes since detector-v2.12) is fitted on a dump made with
the text cue, as above, with --drop texture,rowEnd (redundant with the others; row-end also put plain books at a
row's end under the floor) (detector-v2.8; refitted for v2.9 on the text cue at 736 px). "confidenceModel" (used without it) is fitted on a dump made with
--no-text, with texture,rowEnd,printed,unprintedRow,unprintedRowEnd,outsidePrintRun as --drop, so detection
without the model cache keeps a model that never learnt to expect print.

Labels: 1 for a box matching a scored ground-truth spine at IoU >= 0.5, 0 for a false positive (boxes on
don't-care spines are left out). The cues are measured with confidenceModel and its floor ignored (eval-detection
removes both when dumping), so refitting sees every box the model will score. Split (stated, fixed): training = odd-numbered samples, the real one_shelf_example and the
Bookfinder training photos (8, 9, 14, 15, 16, 20-25) and the hard synthetic shelves of seed 7 ("synthetic
training"); held out = even-numbered samples, two_shelves_example, the Bookfinder held-out scenes (10-13, 17-19)
and the hard synthetic shelves of seed 2026 ("synthetic hard"), as in eval-detection. The seed-7 shelves teach
the model what clutter looks like (side panels, posts, wallpaper, frames, plants) without it seeing the measured
ones. Real photos are weighted --real-weight times so the synthetic ones do not drown them.
Prints log-loss and precision by confidence band on each part, then the JSON value for
"confidenceModel" (or "textConfidenceModel") in models/detection/detector-v2.json. Pure Python: no packages needed.
"""
import argparse
import csv
import math
import re

HELD_OUT_BOOKFINDER = {10, 11, 12, 13, 17, 18, 19}


def part(photo, set_name=""):
    if set_name.startswith("synthetic"):
        return "train" if set_name == "synthetic training" else "held-out"
    m = re.match(r"shelf-(\d+)$", photo)
    if m:
        return "train" if int(m.group(1)) % 2 == 1 else "held-out"
    m = re.match(r"Shelfslibs_(\d+)$", photo)
    if m:
        return "held-out" if int(m.group(1)) in HELD_OUT_BOOKFINDER else "train"
    return "train" if photo == "one_shelf_example" else "held-out"


def set_kind(set_name):
    """"samples", "synthetic" or "real": which weight a row's photo gets."""
    return set_name.split()[0] if set_name.startswith(("samples", "synthetic")) else "real"


def sigmoid(z):
    return 1 / (1 + math.exp(-max(-30, min(30, z))))


def fit(xs, ys, ws, l2=0.01, iters=50):
    """Newton's method (IRLS) with a small ridge penalty; xs carry a leading 1 for the bias."""
    d = len(xs[0])
    beta = [0.0] * d
    for _ in range(iters):
        grad = [0.0] * d
        hess = [[0.0] * d for _ in range(d)]
        for x, y, w in zip(xs, ys, ws):
            p = sigmoid(sum(b * v for b, v in zip(beta, x)))
            for i in range(d):
                grad[i] += w * (p - y) * x[i]
                for j in range(d):
                    hess[i][j] += w * p * (1 - p) * x[i] * x[j]
        for i in range(1, d):
            grad[i] += l2 * beta[i]
            hess[i][i] += l2
        step = solve(hess, grad)
        beta = [b - s for b, s in zip(beta, step)]
        if max(abs(s) for s in step) < 1e-8:
            break
    return beta


def solve(a, b):
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        if abs(m[c][c]) < 1e-12:
            continue
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-12 else 0.0 for i in range(n)]


def report(name, probs, ys):
    if not ys:
        return
    ll = -sum(math.log(max(1e-9, p if y else 1 - p)) for p, y in zip(probs, ys)) / len(ys)
    bands = [0, 0.2, 0.35, 0.5, 0.65, 0.8, 1.0001]
    parts = []
    for lo, hi in zip(bands, bands[1:]):
        sel = [y for p, y in zip(probs, ys) if lo <= p < hi]
        if sel:
            parts.append(f"[{lo:.2f},{min(1, hi):.2f}) {len(sel)} P {sum(sel) / len(sel):.3f}")
    low = [y for p, y in zip(probs, ys) if p < 0.5]
    tail = f"; under 0.5: {len(low)} boxes, {100 * (1 - sum(low) / len(low)):.0f}% wrong" if low else ""
    print(f"  {name}: n {len(ys)} log-loss {ll:.3f}  " + ", ".join(parts) + tail)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--real-weight", type=float, default=5)
    ap.add_argument("--synthetic-weight", type=float, default=1)
    ap.add_argument("--drop", default="", help="comma-separated cues left out of the fit (weight 0)")
    a = ap.parse_args()
    rows = list(csv.DictReader(open(a.csv)))
    all_cues = [k for k in rows[0].keys() if k not in ("set", "photo", "label")]
    dropped = set(c for c in a.drop.split(",") if c)
    cue_names = [k for k in all_cues if k not in dropped]
    data = {"train": [], "held-out": []}
    for r in rows:
        x = [1.0] + [float(r[k]) for k in cue_names]
        k = set_kind(r["set"])
        weight = a.real_weight if k == "real" else (a.synthetic_weight if k == "synthetic" else 1.0)
        data[part(r["photo"], r["set"])].append((x, int(r["label"]), weight, k))
    tr = data["train"]
    beta = fit([d[0] for d in tr], [d[1] for d in tr], [d[2] for d in tr])
    print("cues:", ", ".join(cue_names))
    for name in ("train", "held-out"):
        for kind in ("samples", "synthetic", "real"):
            sel = [d for d in data[name] if d[3] == kind]
            raw = [d[0][1 + cue_names.index("raw")] if "raw" in cue_names else 0.5 for d in sel]
            fitted = [sigmoid(sum(b * v for b, v in zip(beta, d[0]))) for d in sel]
            ys = [d[1] for d in sel]
            report(f"{name} {kind}, raw confidence", raw, ys)
            report(f"{name} {kind}, fitted", fitted, ys)
    weights = dict(zip(cue_names, beta[1:]))
    full = [beta[0]] + [weights.get(k, 0.0) for k in all_cues]
    print('"confidenceModel": [' + ", ".join(f"{b:.4f}" for b in full) + "]")


if __name__ == "__main__":
    main()
