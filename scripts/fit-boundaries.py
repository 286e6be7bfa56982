#!/usr/bin/env python3
"""Fits the weights of the spine detector's boundary cues by logistic regression.

    swift build -c release --product eval-detection
    .build/release/eval-detection --runs 0 --dump-boundaries /tmp/boundaries.csv
    scripts/fit-boundaries.py /tmp/boundaries.csv [--real-weight 10]

Each row of the CSV is a local peak of a row's boundary score with its cues (coverage, foot, dark,
colour) and label 1 when a ground-truth spine side runs within 2.5 working pixels. The model is
logit = w_cov*coverage + w_foot*foot + w_dark*dark + w_colour*colour + b; divided by w_cov it is the
detector's score (coverage weight 1), so darkGapWeight = w_dark/w_cov, colourChangeWeight = w_colour/w_cov,
footWeight = w_foot/w_cov and boundaryThreshold = -b/w_cov put the threshold at even odds.

Split (stated, fixed; the same as scripts/fit-detector.py): training = odd-numbered samples and the real
one_shelf_example (its peaks weighted --real-weight times, so a few real rows are not drowned by the
synthetic ones); held out = even-numbered samples and two_shelves_example. AUC is printed for the shipped
score and the fitted one on each part. The cues are measured at the slope the shipped weights chose, so
refit after changing the weights until they settle. Pure Python: no packages needed.
"""
import argparse
import csv
import math
import re

CUES = ["coverage", "foot", "dark", "colour"]


def part(photo):
    m = re.match(r"shelf-(\d+)$", photo)
    if m:
        return "train" if int(m.group(1)) % 2 == 1 else "held-out"
    return "train" if photo == "one_shelf_example" else "held-out"


def auc(scores, labels):
    pairs = sorted(zip(scores, labels))
    pos = sum(labels)
    neg = len(labels) - pos
    if pos == 0 or neg == 0:
        return float("nan")
    rank_sum, i = 0.0, 0
    while i < len(pairs):
        j = i
        while j < len(pairs) and pairs[j][0] == pairs[i][0]:
            j += 1
        rank = (i + j + 1) / 2  # average 1-based rank of ties
        rank_sum += rank * sum(l for _, l in pairs[i:j])
        i = j
    return (rank_sum - pos * (pos + 1) / 2) / (pos * neg)


def fit(xs, ys, ws, l2=1e-3, iterations=4000, rate=0.5):
    """Weighted logistic regression by full-batch gradient descent (a few thousand rows: seconds)."""
    n = len(xs[0])
    beta = [0.0] * (n + 1)
    total = sum(ws)
    for _ in range(iterations):
        grad = [0.0] * (n + 1)
        for x, y, w in zip(xs, ys, ws):
            z = beta[n] + sum(b * v for b, v in zip(beta, x))
            p = 1 / (1 + math.exp(-max(-30, min(30, z))))
            g = w * (p - y)
            for k in range(n):
                grad[k] += g * x[k]
            grad[n] += g
        for k in range(n):
            beta[k] -= rate * (grad[k] / total + l2 * beta[k])
        beta[n] -= rate * grad[n] / total
    return beta


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--real-weight", type=float, default=10)
    a = ap.parse_args()
    rows = list(csv.DictReader(open(a.csv)))
    data = {"train": [], "held-out": []}
    for r in rows:
        real = not r["photo"].startswith("shelf-")
        data[part(r["photo"])].append(([float(r[c]) for c in CUES], int(r["label"]), float(r["score"]), real))
    train = data["train"]
    beta = fit([x for x, _, _, _ in train], [y for _, y, _, _ in train],
               [a.real_weight if real else 1.0 for _, _, _, real in train])
    scale = beta[0]
    print("weights (coverage = 1): " + ", ".join(f"{c} {b / scale:.3f}" for c, b in zip(CUES, beta)))
    print(f"darkGapWeight {beta[2] / scale:.2f}, colourChangeWeight {beta[3] / scale:.2f}, "
          f"footWeight {beta[1] / scale:.2f}, boundaryThreshold {-beta[4] / scale:.2f}")
    for name, items in data.items():
        for label, subset in (("samples", [i for i in items if not i[3]]), ("real", [i for i in items if i[3]])):
            if not subset:
                continue
            ys = [y for _, y, _, _ in subset]
            fitted = [beta[4] + sum(b * v for b, v in zip(beta, x)) for x, _, _, _ in subset]
            print(f"{name:8s} {label:7s} peaks {len(subset):5d}  AUC shipped score {auc([s for _, _, s, _ in subset], ys):.4f}"
                  f"  fitted {auc(fitted, ys):.4f}")


if __name__ == "__main__":
    main()
