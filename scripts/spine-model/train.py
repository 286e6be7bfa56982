"""Trains the learned spine detector: PP-OCRv5's text detector (Apache-2.0) fine-tuned into a spine segmenter.

    python3 -m pip install -r scripts/spine-model/requirements.txt
    python3 scripts/spine-model/train.py --out models/spine/spine-v1.onnx [--minutes 8] [--device cuda]

The network starts from PP-OCRv5's DB text detector (the file scripts/fetch-models.py puts in the model cache),
which already sees print on spines; it learns to answer, per pixel, "the middle band of a book seen spine-on or
lying face up". Each book's band is its visible outline shrunk towards its middle line (render.targets), so
touching books of one colour stay apart; the app grows each band back by the same share (SpineModel.swift).

Data: synthetic shelves (render.py) only by default, and with `--real PHOTO TRUTH.json` a licensed real photo
with hand-drawn spines, both as a spine texture source and as training frames. What ships was trained on the
synthetic shelves and the Library Dataset's one_shelf_example.jpg (MIT); nothing else.

Everything is training-only: building, running and testing ShelfScan never needs PyTorch.
"""

import argparse
import json
import math
import os
import random
import sys
import time

import cv2
import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import render  # noqa: E402

MEAN = np.float32([0.485, 0.456, 0.406])
STD = np.float32([0.229, 0.224, 0.225])


def normalized(rgb):
    """As the app feeds PP-OCR's detector (TextDetector.normalized): BGR order, ImageNet mean and spread."""
    bgr = rgb[..., ::-1].astype(np.float32) / 255.0
    return np.ascontiguousarray(((bgr - MEAN) / STD).transpose(2, 0, 1))


def torch_model(det_path):
    """PP-OCRv5's detector as a PyTorch module: its weights live in Constant nodes, which onnx2torch would
    keep frozen, so they are moved into initializers first."""
    from onnx2torch import convert
    m = onnx.load(det_path)
    g = m.graph
    keep = []
    for node in g.node:
        if node.op_type == "Constant" and len(node.attribute) == 1 and node.attribute[0].name == "value":
            t = numpy_helper.to_array(node.attribute[0].t)
            if t.dtype == np.float32 and t.size > 1:
                g.initializer.append(numpy_helper.from_array(t, node.output[0]))
                continue
        keep.append(node)
    del g.node[:]
    g.node.extend(keep)
    return convert(m)


def real_frames(pairs):
    out = []
    for photo, truth in pairs:
        img = cv2.cvtColor(cv2.imread(photo), cv2.COLOR_BGR2RGB)
        d = json.load(open(truth))
        inst = np.zeros(img.shape[:2], np.int32)
        kinds = {}
        for i, s in enumerate(d["spines"], start=1):
            cv2.fillPoly(inst, [np.round(np.array(s["polygon"])).astype(np.int32)], i)
            kinds[i] = "ignore" if s.get("partial") else "spine"
        out.append((img, inst, kinds))
    return out


def crops(img, target, weight, rng, size, n):
    h, w = target.shape
    for _ in range(n):
        ph, pw = max(0, size - h), max(0, size - w)
        if ph or pw:
            img = np.pad(img, ((0, ph), (0, pw), (0, 0)))
            target = np.pad(target, ((0, ph), (0, pw)))
            weight = np.pad(weight, ((0, ph), (0, pw)))
            h, w = target.shape
        y, x = rng.randint(0, h - size), rng.randint(0, w - size)
        yield (normalized(img[y:y + size, x:x + size]), target[y:y + size, x:x + size].copy(),
               weight[y:y + size, x:x + size].copy())


class Shelves(torch.utils.data.IterableDataset):
    def __init__(self, real_pairs, size, per_scene, real_share, seed):
        self.real_pairs, self.size, self.per_scene, self.real_share, self.seed = real_pairs, size, per_scene, real_share, seed

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        wid = info.id if info else 0
        rng = random.Random(self.seed * 7919 + wid * 104729 + int(time.time() * 1000) % 100000)
        r = render.Renderer(self.real_pairs)
        reals = real_frames(self.real_pairs) if self.real_share > 0 else []
        while True:
            if reals and rng.random() < self.real_share:
                img, inst, kinds = rng.choice(reals)
                img, inst = render.photographed(rng, img, inst, rng.randint(700, 1300))
            else:
                img, inst, kinds = render.sample(r, rng, out_long=rng.randint(760, 1200))
            t, wgt = render.targets(inst, kinds)
            yield from crops(img, t, wgt, rng, self.size, self.per_scene)


def loss_fn(prob, target, weight):
    """DB's balanced cross-entropy (all positives, the three times as many hardest negatives) plus dice."""
    prob = prob.clamp(1e-6, 1 - 1e-6)
    bce = F.binary_cross_entropy(prob, target, reduction="none") * weight
    pos = (target > 0.5) & (weight > 0)
    neg = (target < 0.5) & (weight > 0)
    npos = int(pos.sum())
    nneg = min(int(neg.sum()), max(3 * npos, 1000))
    neg_loss, _ = bce[neg].topk(nneg)
    balanced = (bce[pos].sum() + neg_loss.sum()) / (npos + nneg + 1e-6)
    inter = (prob * target * weight).sum()
    dice = 1 - 2 * inter / ((prob * weight).sum() + (target * weight).sum() + 1e-6)
    return balanced + dice


def export(model, path, device):
    model.eval()
    dummy = torch.zeros(1, 3, 640, 640, device=device)
    tmp = path + ".tmp"
    torch.onnx.export(model, dummy, tmp, input_names=["x"], output_names=["spine"], opset_version=17,
                      dynamic_axes={"x": {2: "h", 3: "w"}, "spine": {2: "h", 3: "w"}}, dynamo=False)
    m = onnx.load(tmp)
    m.producer_name = "shelfscan-spine-model"
    onnx.save(m, path)
    os.remove(tmp)
    import onnxruntime as ort
    s = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    x = np.random.default_rng(0).normal(0, 1, (1, 3, 320, 480)).astype(np.float32)
    with torch.no_grad():
        ref = model(torch.from_numpy(x).to(device)).float().cpu().numpy()
    got = s.run(None, {"x": x})[0]
    print("export: %s, %d bytes, max |onnx - torch| = %.2e" % (path, os.path.getsize(path), np.abs(got - ref).max()), flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--det", default=os.path.expanduser("~/.cache/shelfscan/models/ppocrv5-0.0.22/det.onnx"))
    p.add_argument("--minutes", type=float, default=8)
    p.add_argument("--steps", type=int, default=0, help="stop after this many steps (0: by time)")
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--size", type=int, default=640)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2) - 1))
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    p.add_argument("--real", nargs="*", default=[], help="PHOTO TRUTH.json pairs of licensed photos")
    p.add_argument("--real-share", type=float, default=0.1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--init", default="", help="start from this state dict (a run's SPINE.onnx.pt) instead of PP-OCR's")
    p.add_argument("--no-export", action="store_true", help="keep the state dict only (export later on the CPU)")
    p.add_argument("--export-only", action="store_true", help="export --init to ONNX, no training")
    a = p.parse_args()
    torch.manual_seed(a.seed)
    pairs = list(zip(a.real[::2], a.real[1::2]))
    model = torch_model(a.det)
    if a.init:
        model.load_state_dict(torch.load(a.init, map_location="cpu"))
    model = model.to(a.device)
    if a.export_only:
        export(model, a.out, a.device)
        return
    params = [q for q in model.parameters() if q.requires_grad]
    print("model: %d trainable parameters" % sum(q.numel() for q in params), flush=True)
    opt = torch.optim.AdamW(params, lr=a.lr, weight_decay=1e-4)
    data = torch.utils.data.DataLoader(Shelves(pairs, a.size, 4, a.real_share if pairs else 0, a.seed),
                                       batch_size=a.batch, num_workers=a.workers, persistent_workers=a.workers > 0,
                                       prefetch_factor=4 if a.workers > 0 else None)
    budget = a.minutes * 60
    start = time.time()
    step, seen, avg = 0, 0, None
    model.train()
    for x, t, w in data:
        elapsed = time.time() - start
        if (a.steps and step >= a.steps) or (not a.steps and elapsed > budget):
            break
        frac = step / a.steps if a.steps else elapsed / budget
        lr = a.lr * min(1.0, (step + 1) / 100) * 0.5 * (1 + math.cos(math.pi * min(1.0, frac)))
        for g in opt.param_groups:
            g["lr"] = lr
        x, t, w = x.to(a.device, non_blocking=True), t.to(a.device)[:, None], w.to(a.device)[:, None]
        with torch.autocast(device_type="cuda", dtype=torch.bfloat16, enabled=a.device == "cuda"):
            prob = model(x)
        loss = loss_fn(prob.float(), t, w)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 5.0)
        opt.step()
        step += 1
        seen += x.shape[0]
        avg = loss.item() if avg is None else 0.98 * avg + 0.02 * loss.item()
        if step % 50 == 0 or step == 1:
            print("step %d  %.0fs  %d crops  loss %.4f  lr %.2e" % (step, elapsed, seen, avg, lr), flush=True)
    print("trained: %d steps, %d crops of %d px, %.1f min" % (step, seen, a.size, (time.time() - start) / 60), flush=True)
    torch.save(model.state_dict(), a.out + ".pt")  # kept apart from the export, which can then be redone alone
    if not a.no_export:
        export(model, a.out, a.device)


if __name__ == "__main__":
    main()
