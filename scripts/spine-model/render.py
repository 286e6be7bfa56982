"""Synthetic shelf photos with a per-book instance map: the training data of the learned spine detector.

Written for what the hand-tuned detector misses on real shelves: stacks lying flat seen spine-on, books lying face
up across the top of a row or in front of it, books half hidden behind them, thin books, books leaning 5-25 degrees,
face-out covers (not spines: don't-care), cabinet sides, bookends and clutter, sideways and upside-down framing,
lens distortion, glare and dim light. Spines are drawn, or cut from licensed real photos (`--real`), so that
real print and wear appear on them.

Each sample is (image HxWx3 uint8 RGB, instance map HxW int32, kinds {id: "spine" | "ignore"}); instance 0 is
background. Used by train.py; `python3 render.py --out DIR --count N` writes a few as PNG to look at.
"""

import argparse
import json
import math
import os
import random
import re

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

# Debian's fonts-dejavu-core, fonts-liberation, fonts-freefont-ttf, fonts-crosextra-carlito, fonts-noto-core; or a copy
# of them in $SPINE_FONT_DIR where those packages cannot be installed (a training machine).
FONT_DIRS = [os.environ.get("SPINE_FONT_DIR", ""), "/usr/share/fonts/truetype"]
WORDS = ("river night garden stone winter house letters empire silent story north city light summer history "
         "secret ocean mountain war peace memory island kingdom journey shadow glass fire water travel bread "
         "music dream forest road machine world century die der und das nacht haus liebe zeit leben roman "
         "la le les nuit maison amour temps vie el los una noche casa tiempo vida del mar sol tierra "
         "the of a and in to book stories poems guide history volume complete").split()
NAMES = ("Anna Berg|Tomas Weber|Claire Dubois|Mark Hale|Rosa Lind|Ivan Petrov|Elena Ruiz|Paul Klein|Sara Holm|"
         "Jonas Meyer|Mia Costa|Leo Brandt|J. R. Miller|Marie Curie|Hans Fallada|Émile Zola|Ana Ortiz|Li Wei").split("|")
IMPRINTS = ["dtv", "rororo", "btb", "Knaur", "Vintage", "Penguin", "Insel", "Folio", "Heyne", "Piper", "Ullstein",
            "Reclam", "Fischer", "Goldmann", "Pocket", "Anagrama", "Seix Barral", "C.H.BECK", "Suhrkamp"]


def fonts():
    found = []
    for d in FONT_DIRS:
        if not d or not os.path.isdir(d):
            continue
        for root, _, files in os.walk(d):
            found += [os.path.join(root, f) for f in files if f.lower().endswith((".ttf", ".otf"))]
    return sorted(found)


# Latin text faces only: symbol and other-script faces print boxes.
FONTS = [f for f in fonts() if re.search(r"(DejaVu(Sans|Serif)|Liberation|Free(Sans|Serif|Mono)|Carlito|Linux|Noto(Sans|Serif)-)", os.path.basename(f))]
_font_cache = {}


def font(path, size):
    key = (path, size)
    if key not in _font_cache:
        _font_cache[key] = ImageFont.truetype(path, size)
    return _font_cache[key]


def colour(rng, lo=15, hi=240):
    raw = [rng.randint(lo, hi) for _ in range(3)]
    grey, pull = sum(raw) / 3, rng.uniform(0.0, 0.7)
    return tuple(int(c + (grey - c) * pull) for c in raw)


def noise_field(rng, w, h, cell, amount):
    g = np.random.default_rng(rng.randint(0, 1 << 30))
    small = g.normal(0, amount, (max(2, h // cell + 1), max(2, w // cell + 1))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def wood(rng, w, h, vertical):
    base = np.array(rng.choice([colour(rng, 60, 200), (150, 110, 70), (200, 170, 130), (235, 230, 220),
                                (60, 45, 35), (30, 30, 30), (245, 245, 245)]), np.float32)
    a = np.zeros((h, w, 3), np.float32) + base
    a += noise_field(rng, w, h, 40, 8)[:, :, None]
    g = np.random.default_rng(rng.randint(0, 1 << 30))
    n = w if vertical else h
    lines = np.convolve(g.normal(0, rng.uniform(0, 12), n), np.ones(3) / 3, mode="same").astype(np.float32)
    a += lines[None, :, None] if vertical else lines[:, None, None]
    return np.clip(a, 0, 255).astype(np.uint8)


def words(rng, lo=1, hi=4):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


def case(rng, s):
    r = rng.random()
    return s.upper() if r < 0.4 else s.title() if r < 0.8 else s


def text_strip(rng, text, size, ink, fpath=None):
    f = font(fpath or rng.choice(FONTS), max(6, size))
    l, t, r, b = f.getbbox(text)
    img = Image.new("RGBA", (max(1, r - l + 4), max(1, b - t + 4)), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((2 - l, 2 - t), text, font=f, fill=tuple(ink) + (255,))
    return img


def fit_paste(img, strip, box):
    """`strip` shrunk (never grown) to fit the box (x, y, w, h) and pasted at its centre."""
    x, y, w, h = box
    if w < 3 or h < 3:
        return
    s = min(1.0, w / strip.width, h / strip.height)
    if s < 1:
        strip = strip.resize((max(1, int(strip.width * s)), max(1, int(strip.height * s))), Image.BILINEAR)
    img.paste(strip, (int(x + (w - strip.width) / 2), int(y + (h - strip.height) / 2)), strip)


def drawn_spine(rng, w, h):
    """A spine standing upright, w x h: cover colour, bands, title/author/imprint printed along or across it."""
    base = colour(rng)
    a = np.zeros((h, w, 3), np.float32) + np.array(base, np.float32)
    a += noise_field(rng, w, h, 30, rng.uniform(0, 10))[:, :, None]
    if rng.random() < 0.7:  # rounded spine: darker towards both edges
        xs = np.linspace(-1, 1, w, dtype=np.float32)
        a *= (1 - rng.uniform(0.05, 0.35) * xs ** 4)[None, :, None]
    img = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
    d = ImageDraw.Draw(img)
    ink = (rng.randint(225, 255),) * 3 if sum(base) < 380 else (rng.randint(0, 40),) * 3
    if rng.random() < 0.3:
        ink = colour(rng)
    for _ in range(rng.choice([0, 0, 1, 2, 3])):
        y = int(h * rng.uniform(0, 0.95))
        d.rectangle([0, y, w, y + rng.randint(2, max(3, h // 12))], fill=colour(rng))
    sides = rng.random()
    if w > 0.35 * h and w >= 30:  # a thick or short book: lines across
        n = rng.randint(1, 3)
        for i in range(n):
            s = text_strip(rng, case(rng, words(rng, 1, 2)), int(w * rng.uniform(0.12, 0.25)), ink)
            fit_paste(img, s, (2, int(h * (0.1 + 0.8 * i / n)), w - 4, int(h * 0.8 / n)))
    elif w >= 8:
        title_run = case(rng, words(rng))
        author = rng.choice(NAMES) if rng.random() < 0.75 else ""
        size = int(w * rng.uniform(0.35, 0.75))
        along = h * rng.uniform(0.5, 0.9)
        t = text_strip(rng, title_run, size, ink)
        angle = 90 if sides < 0.45 else -90  # up the spine (German, French) or down it (English)
        t = t.rotate(angle, expand=True)
        top = h * rng.uniform(0.03, 0.2)
        fit_paste(img, t, (1, int(top), w - 2, int(along * 0.75)))
        if author:
            a_s = text_strip(rng, case(rng, author), int(size * rng.uniform(0.45, 0.8)), ink).rotate(angle, expand=True)
            fit_paste(img, a_s, (1, int(top + along * 0.75), w - 2, int(h - top - along * 0.75 - h * 0.12)))
        if rng.random() < 0.5:
            imp = text_strip(rng, rng.choice(IMPRINTS), max(6, int(w * 0.3)), ink)
            fit_paste(img, imp, (1, int(h * 0.9), w - 2, int(h * 0.09)))
    if rng.random() < 0.12:  # library call-number sticker near the foot
        sh = max(4, int(w * rng.uniform(0.8, 1.2)))
        sy = int(h * rng.uniform(0.75, 0.9))
        d.rectangle([1, sy, w - 2, min(h - 1, sy + sh)], fill=(240, 240, 230))
        fit_paste(img, text_strip(rng, "%d %s" % (rng.randint(0, 999), rng.choice(WORDS)[:3].title()),
                                  max(6, w // 4), (10, 10, 10)), (1, sy, w - 2, sh))
    return np.asarray(img)


class RealSpines:
    """Spines cut upright from licensed real photos, by their annotated polygons."""

    def __init__(self, pairs):
        self.items = []
        for photo, truth in pairs:
            img = cv2.cvtColor(cv2.imread(photo), cv2.COLOR_BGR2RGB)
            d = json.load(open(truth))
            for s in d["spines"]:
                if s.get("partial") or s.get("lying"):
                    continue
                p = np.array(s["polygon"], np.float32)
                # TL, TR, BR, BL as the book stands; keep the spine as tall as it is
                w = int(max(np.linalg.norm(p[1] - p[0]), np.linalg.norm(p[2] - p[3])))
                h = int(max(np.linalg.norm(p[3] - p[0]), np.linalg.norm(p[2] - p[1])))
                if w < 8 or h < 30:
                    continue
                m = cv2.getPerspectiveTransform(p, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
                self.items.append(cv2.warpPerspective(img, m, (w, h), flags=cv2.INTER_AREA))

    def spine(self, rng, w, h):
        s = rng.choice(self.items)
        if rng.random() < 0.5:
            s = s[::-1, ::-1]
        out = cv2.resize(s, (w, h), interpolation=cv2.INTER_AREA)
        if rng.random() < 0.5:  # a new colour for the same print
            hsv = cv2.cvtColor(out, cv2.COLOR_RGB2HSV).astype(np.int16)
            hsv[..., 0] = (hsv[..., 0] + rng.randint(0, 179)) % 180
            out = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2RGB)
        return out


class Scene:
    def __init__(self, w, h):
        self.img = np.zeros((h, w, 3), np.uint8)
        self.inst = np.zeros((h, w), np.int32)
        self.kinds = {}
        self.next = 1

    def new_id(self, kind):
        i = self.next
        self.next += 1
        self.kinds[i] = kind
        return i

    def paste_quad(self, patch, quad, ident=None):
        """`patch` (h x w x 3) warped onto the quad TL, TR, BR, BL (canvas pixels); its pixels take `ident`
        (0 paints over whatever was there as background, None leaves the instance map alone)."""
        H, W = self.inst.shape
        q = np.float32(quad)
        x0, y0 = np.floor(q.min(0)).astype(int)
        x1, y1 = np.ceil(q.max(0)).astype(int)
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W, x1 + 1), min(H, y1 + 1)
        if x1 - x0 < 1 or y1 - y0 < 1:
            return
        ph, pw = patch.shape[:2]
        m = cv2.getPerspectiveTransform(np.float32([[0, 0], [pw, 0], [pw, ph], [0, ph]]), q - np.float32([x0, y0]))
        warped = cv2.warpPerspective(patch, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(mask, np.round((q - np.float32([x0, y0])) * 16).astype(np.int32), 1, cv2.LINE_8, 4)
        sel = mask > 0
        self.img[y0:y1, x0:x1][sel] = warped[sel]
        if ident is not None:
            self.inst[y0:y1, x0:x1][sel] = ident

    def fill(self, rect, colour_img, ident=0):
        x0, y0, x1, y1 = [int(v) for v in rect]
        H, W = self.inst.shape
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
        if x1 <= x0 or y1 <= y0:
            return
        self.img[y0:y1, x0:x1] = colour_img[: y1 - y0, : x1 - x0]
        if ident is not None:
            self.inst[y0:y1, x0:x1] = ident


def rect_quad(cx, bottom, w, h, lean_deg, pivot_left):
    """An upright book of w x h standing on `bottom`, turned by lean_deg about its bottom corner."""
    a = math.radians(lean_deg)
    px = cx - w / 2 if pivot_left else cx + w / 2
    pts = [(cx - w / 2, bottom - h), (cx + w / 2, bottom - h), (cx + w / 2, bottom), (cx - w / 2, bottom)]
    out = []
    for x, y in pts:
        dx, dy = x - px, y - bottom
        out.append((px + dx * math.cos(a) - dy * math.sin(a), bottom + dx * math.sin(a) + dy * math.cos(a)))
    return out


class Renderer:
    def __init__(self, real_pairs=(), seed=0):
        self.real = RealSpines(real_pairs) if real_pairs else None

    def spine_patch(self, rng, w, h):
        w, h = max(2, int(w)), max(2, int(h))
        if self.real and self.real.items and rng.random() < 0.35:
            return self.real.spine(rng, w, h)
        return drawn_spine(rng, w, h)

    def cover_patch(self, rng, w, h):
        base = colour(rng)
        a = np.zeros((int(h), int(w), 3), np.float32) + np.array(base, np.float32)
        a += noise_field(rng, int(w), int(h), 20, rng.uniform(5, 30))[:, :, None]
        img = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
        ink = (255, 255, 255) if sum(base) < 380 else (0, 0, 0)
        fit_paste(img, text_strip(rng, case(rng, words(rng, 1, 3)), int(h * 0.15), ink), (2, int(h * 0.1), int(w) - 4, int(h * 0.35)))
        fit_paste(img, text_strip(rng, rng.choice(NAMES), int(h * 0.07), ink), (2, int(h * 0.7), int(w) - 4, int(h * 0.2)))
        return np.asarray(img)

    def clutter(self, s, rng, x, bottom, max_h):
        """Something on the shelf that is not a book: a box, a pot, a frame, a bookend."""
        kind = rng.choice(["box", "pot", "frame", "bookend"])
        if kind == "bookend":
            w, h = rng.uniform(0.05, 0.12) * max_h, rng.uniform(0.4, 0.8) * max_h
        else:
            w, h = rng.uniform(0.25, 0.9) * max_h, rng.uniform(0.3, 0.95) * max_h
        patch = wood(rng, max(2, int(w)), max(2, int(h)), rng.random() < 0.5) if kind != "frame" else self.cover_patch(rng, w, h)
        if kind == "pot":
            patch = np.zeros((max(2, int(h)), max(2, int(w)), 3), np.uint8) + np.uint8(colour(rng))
        s.paste_quad(patch, [(x, bottom - h), (x + w, bottom - h), (x + w, bottom), (x, bottom)], 0)
        return w

    def row(self, s, rng, x0, x1, top, bottom):
        rh = bottom - top
        x = x0 + rng.uniform(0, 0.05) * rh
        style_h = rng.uniform(0.6, 0.95)
        thin_bias = rng.random() < 0.3
        lean_next = 0.0
        fronts = []
        while x < x1:
            r = rng.random()
            if r < 0.015:
                x += rng.uniform(0.05, 0.6) * rh  # a gap
                continue
            if r < 0.03:
                x += self.clutter(s, rng, x, bottom, rh * 0.95)
                continue
            if r < 0.055 and x1 - x > 0.5 * rh:  # a stack lying flat, seen spine-on
                x += self.stack(s, rng, x, bottom, rh, x1)
                continue
            if r < 0.065:  # a face-out cover standing: not a spine
                w = rng.uniform(0.5, 0.8) * rh
                h = rng.uniform(0.7, 0.95) * rh
                s.paste_quad(self.cover_patch(rng, w, h), [(x, bottom - h), (x + w, bottom - h), (x + w, bottom), (x, bottom)],
                             s.new_id("ignore"))
                x += w
                continue
            # an upright book, maybe thin, maybe leaning on its neighbour
            h = min(rh * 0.99, rh * style_h * rng.uniform(0.75, 1.15))
            w = h * (rng.uniform(0.025, 0.08) if thin_bias or rng.random() < 0.2 else rng.uniform(0.06, 0.22))
            w = max(w, 3)
            lean = 0.0
            if lean_next:
                lean, lean_next = lean_next, 0.0
            elif rng.random() < 0.06:
                lean = rng.uniform(5, 25) * rng.choice([-1, 1])
            if lean > 0:
                # leaning right: rests on the next book; the bottom slides right of its top
                quad = rect_quad(x + w / 2, bottom, w, h, lean, False)
            else:
                quad = rect_quad(x + w / 2, bottom, w, h, lean, True)
            xs = [p[0] for p in quad]
            if lean < 0:  # leaning left onto the previous one: shift so it does not cross it
                shift = x - min(xs)
                quad = [(px + shift, py) for px, py in quad]
            s.paste_quad(self.spine_patch(rng, w, h), quad, s.new_id("spine"))
            x = max(p[0] for p in quad) + (rng.uniform(0, 0.02) * rh if rng.random() < 0.3 else 0)
            if rng.random() < 0.05:
                fronts.append(x)
        # books lying in front of the row or across its top, hiding parts of the books behind them
        if rng.random() < 0.25:
            self.lying_front(s, rng, rng.uniform(x0, x1), bottom, rh)
        if rng.random() < 0.2:
            self.lying_across_top(s, rng, rng.uniform(x0, x1 - rh * 0.5), top, bottom, rh)

    def stack(self, s, rng, x, bottom, rh, x_end):
        n = rng.randint(2, 8)
        width = min(x_end - x, rh * rng.uniform(0.5, 1.3))
        y = bottom
        for _ in range(n):
            th = rh * rng.uniform(0.04, 0.14)
            if y - th < bottom - rh * 0.97:
                break
            w = width * rng.uniform(0.8, 1.0)
            off = rng.uniform(0, width - w)
            tilt = rng.uniform(-2, 2)
            patch = self.spine_patch(rng, th, w)  # drawn upright, laid on its side
            patch = np.ascontiguousarray(np.rot90(patch, rng.choice([1, 3])))
            q = [(x + off, y - th), (x + off + w, y - th), (x + off + w, y), (x + off, y)]
            c = np.mean(q, 0)
            a = math.radians(tilt)
            q = [(c[0] + (px - c[0]) * math.cos(a) - (py - c[1]) * math.sin(a),
                  c[1] + (px - c[0]) * math.sin(a) + (py - c[1]) * math.cos(a)) for px, py in q]
            s.paste_quad(patch, q, s.new_id("spine"))
            y -= th
        return width + rh * rng.uniform(0, 0.05)

    def lying_front(self, s, rng, x, bottom, rh):
        """A book lying face up in front of the row, seen from above the shelf's front: a trapezoid cover that
        hides the foot of the books behind it."""
        w = rh * rng.uniform(0.5, 1.0)
        depth = rh * rng.uniform(0.12, 0.35)
        skew = w * rng.uniform(-0.1, 0.1)
        q = [(x + skew + w * 0.08, bottom - depth), (x + skew + w * 0.92, bottom - depth), (x + w, bottom + rh * 0.02), (x, bottom + rh * 0.02)]
        s.paste_quad(self.cover_patch(rng, w, w * 1.4), q, s.new_id("spine"))

    def lying_across_top(self, s, rng, x, top, bottom, rh):
        """A book laid across the tops of the row, spine towards the camera."""
        th = rh * rng.uniform(0.05, 0.15)
        w = rh * rng.uniform(0.6, 1.2)
        y = top + rh * rng.uniform(0.0, 0.15)
        patch = np.ascontiguousarray(np.rot90(self.spine_patch(rng, th, w), 1))
        s.paste_quad(patch, [(x, y), (x + w, y), (x + w, y + th), (x, y + th)], s.new_id("spine"))

    def scene(self, rng, long_side=1600):
        landscape = rng.random() < 0.55
        W, H = (long_side, int(long_side * 0.75)) if landscape else (int(long_side * 0.75), long_side)
        s = Scene(W, H)
        wall = np.clip(np.zeros((H, W, 3), np.float32) + np.array(colour(rng, 80, 250), np.float32)
                       + noise_field(rng, W, H, 80, 10)[:, :, None], 0, 255).astype(np.uint8)
        if rng.random() < 0.2:  # striped wallpaper
            period = rng.randint(8, 60)
            wall[:, (np.arange(W) // period) % 2 == 0] = np.clip(wall[:, (np.arange(W) // period) % 2 == 0].astype(int) - 25, 0, 255)
        s.img[:] = wall
        # the bookcase: it may run past the photo's edges
        cx0 = rng.uniform(-0.15, 0.15) * W
        cx1 = W - rng.uniform(-0.15, 0.15) * W
        cy0 = rng.uniform(-0.2, 0.1) * H
        cy1 = H - rng.uniform(-0.2, 0.15) * H
        nrows = rng.choice([1, 2, 2, 3, 3, 4, 4, 5, 6])
        board = rng.uniform(0.01, 0.04) * H
        side = rng.uniform(0.01, 0.05) * W
        bays = rng.choice([1, 1, 1, 2, 3])
        s.fill((cx0, cy0, cx1, cy1), wood(rng, W, H, True), 0)
        back = np.clip(np.zeros((H, W, 3), np.float32) + np.array(colour(rng, 10, 200), np.float32)
                       + noise_field(rng, W, H, 60, 8)[:, :, None], 0, 255).astype(np.uint8)
        row_h = (cy1 - cy0 - board * (nrows + 1)) / nrows
        bay_w = (cx1 - cx0 - side * (bays + 1)) / bays
        timber = wood(rng, W, H, False)
        for r in range(nrows):
            top = cy0 + board + r * (row_h + board)
            bottom = top + row_h
            for b in range(bays):
                x0 = cx0 + side + b * (bay_w + side)
                s.fill((x0, top, x0 + bay_w, bottom), back, 0)
                self.row(s, rng, x0, x0 + bay_w, top, bottom)
            s.fill((cx0, bottom, cx1, bottom + board), timber[: int(board) + 2], 0)
        for b in range(bays + 1):  # cabinet sides in front of everything
            x0 = cx0 + b * (bay_w + side)
            s.fill((x0, cy0, x0 + side, cy1), wood(rng, int(side) + 2, H, True), 0)
        return s


def photographed(rng, img, inst, out_long):
    """The scene as a phone takes it: perspective, roll, sometimes sideways or upside down, lens, light, noise."""
    H, W = inst.shape
    src = np.float32([[0, 0], [W, 0], [W, H], [0, H]])
    j = rng.uniform(0, 0.08)
    dst = src + np.float32([[rng.uniform(-j, j) * W, rng.uniform(-j, j) * H] for _ in range(4)])
    roll = rng.gauss(0, 3)
    c = dst.mean(0)
    a = math.radians(roll)
    rot = np.float32([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    dst = (dst - c) @ rot.T + c
    scale = out_long / max(W, H) * rng.uniform(0.9, 1.25)
    dst = (dst - c) * scale + np.float32([W, H]) * scale / 2
    ow, oh = int(W * scale), int(H * scale)
    m = cv2.getPerspectiveTransform(src, dst)
    img = cv2.warpPerspective(img, m, (ow, oh), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT)
    inst = cv2.warpPerspective(inst.astype(np.float32), m, (ow, oh), flags=cv2.INTER_NEAREST, borderValue=0).astype(np.int32)
    turn = rng.random()
    k = 1 if turn < 0.1 else 3 if turn < 0.2 else 2 if turn < 0.25 else 0
    img, inst = np.ascontiguousarray(np.rot90(img, k)), np.ascontiguousarray(np.rot90(inst, k))
    f = img.astype(np.float32)
    h, w = inst.shape
    # light: a smooth gradient, vignette, a glare spot, dim exposure, colour cast
    gy, gx = np.mgrid[0:h, 0:w].astype(np.float32)
    gain = 1 + rng.uniform(-0.35, 0.35) * (gx / w - 0.5) + rng.uniform(-0.35, 0.35) * (gy / h - 0.5)
    r2 = ((gx - w / 2) / w) ** 2 + ((gy - h / 2) / h) ** 2
    gain *= 1 - rng.uniform(0, 0.6) * r2
    gain *= rng.uniform(0.45, 1.2)
    f *= gain[:, :, None] * np.float32([rng.uniform(0.85, 1.15) for _ in range(3)])
    if rng.random() < 0.3:
        cx, cy, rad = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.05, 0.3) * max(w, h)
        f += (rng.uniform(60, 200) * np.exp(-((gx - cx) ** 2 + (gy - cy) ** 2) / (2 * rad ** 2)))[:, :, None]
    if rng.random() < 0.6:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.3, 1.4))
    f += np.random.default_rng(rng.randint(0, 1 << 30)).normal(0, rng.uniform(0, 8), f.shape).astype(np.float32)
    img = np.clip(f, 0, 255).astype(np.uint8)
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(35, 95)])
    img = cv2.imdecode(enc, cv2.IMREAD_UNCHANGED)
    return img, inst


def sample(renderer, rng, out_long=960):
    s = renderer.scene(rng)
    img, inst = photographed(rng, s.img, s.inst, out_long)
    return img, inst, s.kinds


def targets(inst, kinds, core=0.64):
    """The shrunk core of each visible spine (pixels at least `core` of the way from its edge to its middle line),
    and the weight mask (0 on don't-care: face-out covers and fragments too small to judge)."""
    h, w = inst.shape
    target = np.zeros((h, w), np.float32)
    weight = np.ones((h, w), np.float32)
    ids = np.unique(inst)
    for i in ids[ids > 0]:
        ys, xs = np.nonzero(inst == i)
        y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
        m = (inst[y0:y1, x0:x1] == i).astype(np.uint8)
        if kinds.get(int(i)) != "spine":
            weight[y0:y1, x0:x1][m > 0] = 0
            continue
        dt = cv2.distanceTransform(np.pad(m, 1), cv2.DIST_L2, 3)[1:-1, 1:-1]
        half = dt.max()
        if half < 1.5 or m.sum() < 30:  # a sliver: neither spine nor background
            weight[y0:y1, x0:x1][m > 0] = 0
            continue
        target[y0:y1, x0:x1][dt >= core * half] = 1
        # the band between core and edge stays background, so touching spines' cores stay apart
    return target, weight


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--count", type=int, default=6)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--real", nargs="*", default=[], help="PHOTO TRUTH.json pairs of licensed photos")
    a = p.parse_args()
    pairs = list(zip(a.real[::2], a.real[1::2]))
    r = Renderer(pairs)
    os.makedirs(a.out, exist_ok=True)
    for n in range(a.count):
        rng = random.Random(a.seed * 100003 + n)
        img, inst, kinds = sample(r, rng)
        t, wgt = targets(inst, kinds)
        Image.fromarray(img).save(os.path.join(a.out, "%03d.jpg" % n), quality=90)
        vis = (img * 0.5).astype(np.uint8)
        vis[t > 0] = (0, 255, 0)
        vis[wgt == 0] = (255, 0, 0)
        Image.fromarray(vis).save(os.path.join(a.out, "%03d-target.jpg" % n), quality=85)


if __name__ == "__main__":
    main()
