#!/usr/bin/env python3
"""Scores what a user gets from the command line: runs `shelfscan scan --reader none --dry-run --json` on each
annotated photo and matches its boxes against the ground truth, as eval-detection does inside the process (IoU
>= 0.5, each box and each spine matched once, best pairs first; a box on a partial spine is neither right nor
wrong). A different door onto the same pipeline, so both must print the same figures.

    scripts/score-scan.py --truth Benchmarks/bookfinder-boxes --photos /work/data/bookfinder \\
        [--only 10,11,12,13,17,18,19] [--shelfscan .build/release/shelfscan]

Truth files are the shared spine_boxes schema ({"image", "width", "height", "spines": [{"polygon", "partial"?}]}),
one per photo, named as the photo with .json. Plain Python: no packages needed (the boxes are convex quads).
"""
import argparse
import glob
import json
import os
import subprocess
import sys


def area(poly):
    s = 0.0
    for i in range(len(poly)):
        x0, y0 = poly[i]
        x1, y1 = poly[(i + 1) % len(poly)]
        s += x0 * y1 - x1 * y0
    return abs(s) / 2


def oriented(poly):
    """Counter-clockwise in the y-up sense the clipper expects."""
    s = sum(poly[i][0] * poly[(i + 1) % len(poly)][1] - poly[(i + 1) % len(poly)][0] * poly[i][1] for i in range(len(poly)))
    return poly if s > 0 else poly[::-1]


def clip(subject, clipper):
    """Sutherland-Hodgman: the part of `subject` inside the convex `clipper` (both oriented alike)."""
    out = subject
    for i in range(len(clipper)):
        a, b = clipper[i], clipper[(i + 1) % len(clipper)]
        inside = lambda p: (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= 0
        points, out = out, []
        for j in range(len(points)):
            p, q = points[j], points[(j + 1) % len(points)]
            if inside(q):
                if not inside(p):
                    out.append(crossing(p, q, a, b))
                out.append(q)
            elif inside(p):
                out.append(crossing(p, q, a, b))
        if not out:
            return []
    return out


def crossing(p, q, a, b):
    dx, dy = q[0] - p[0], q[1] - p[1]
    ex, ey = b[0] - a[0], b[1] - a[1]
    den = dx * ey - dy * ex
    if den == 0:
        return q
    t = ((a[0] - p[0]) * ey - (a[1] - p[1]) * ex) / den
    return (p[0] + t * dx, p[1] + t * dy)


def iou(a, b):
    a, b = oriented(a), oriented(b)
    inter = clip(a, b)
    i = area(inter) if len(inter) >= 3 else 0.0
    u = area(a) + area(b) - i
    return i / u if u > 0 else 0.0


def score(boxes, spines):
    """(right boxes, wrong boxes, missed spines, IoUs of the right ones)."""
    pairs = sorted(((iou(d, t["polygon"]), i, j) for i, d in enumerate(boxes) for j, t in enumerate(spines)), reverse=True)
    used_d, used_t, right = set(), set(), []
    for v, i, j in pairs:
        if v < 0.5:
            break
        if i in used_d or j in used_t:
            continue
        used_d.add(i)
        used_t.add(j)
        if not spines[j].get("partial"):
            right.append(v)
    wrong = len(boxes) - len(used_d)
    missed = sum(1 for j, t in enumerate(spines) if not t.get("partial") and j not in used_t)
    return len(right), wrong, missed, right


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--truth", required=True, help="folder of spine_boxes JSON files")
    ap.add_argument("--photos", required=True, help="folder holding the photos they name")
    ap.add_argument("--only", help="comma-separated photo numbers (the digits in the file name) to score")
    ap.add_argument("--shelfscan", default=".build/release/shelfscan")
    a = ap.parse_args()
    only = {int(n) for n in a.only.split(",")} if a.only else None
    truths = sorted(glob.glob(os.path.join(a.truth, "*.json")))
    if not os.path.exists(a.shelfscan):
        sys.exit(f"error: {a.shelfscan} not found (swift build -c release --product shelfscan)")
    hits = fps = misses = 0
    ious = []
    scored = 0
    for path in truths:
        name = os.path.splitext(os.path.basename(path))[0]
        digits = "".join(c for c in name if c.isdigit())
        if only is not None and (not digits or int(digits) not in only):
            continue
        t = json.load(open(path))
        photo = os.path.join(a.photos, t.get("image", name))
        if not os.path.exists(photo):
            matches = glob.glob(os.path.join(a.photos, name + ".*"))
            if not matches:
                print(f"{name}: photo not found in {a.photos}, skipped")
                continue
            photo = matches[0]
        run = subprocess.run([a.shelfscan, "scan", "--reader", "none", "--dry-run", "--json", photo], capture_output=True, text=True)
        if run.returncode != 0:
            print(f"{name}: scan failed: {run.stderr.strip().splitlines()[-1] if run.stderr.strip() else run.returncode}")
            continue
        books = json.loads(run.stdout)["data"]["detectedBooks"]
        w, h = t["width"], t["height"]
        boxes = [[(x * w, y * h) for x, y in b["polygon"]] for b in books]
        r, f, m, v = score(boxes, t["spines"])
        hits, fps, misses = hits + r, fps + f, misses + m
        ious += v
        scored += 1
        print(f"{name:28s} boxes {len(boxes):3d}  right {r:3d}  wrong {f:3d}  missed {m:3d}")
    if scored == 0:
        print("no annotated photo found: nothing scored")
        return
    p = hits / (hits + fps) if hits + fps else 0.0
    r = hits / (hits + misses) if hits + misses else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    print(f"OVERALL {scored} photo(s): right {hits} wrong {fps} missed {misses}  precision {p:.3f}  recall {r:.3f}  "
          f"F1 {f1:.3f}  mean IoU {sum(ious) / len(ious) if ious else 0:.3f}")


if __name__ == "__main__":
    main()
