#!/usr/bin/env python3
"""Hard synthetic shelf photos with exact ground truth, from a generator written apart from samples/generate.py.

    scripts/make-hard-shelves.py --out /tmp/hard-shelves [--count 12] [--seed 2026] [--variety] [--display SHARE]
        [--in-front SHARE]
    swift build -c release --product eval-detection
    .build/release/eval-detection --synthetic-hard /tmp/hard-shelves --runs 0 --explain

samples/ was made by the same hands that tuned the detector, so its figures flatter it. This generator draws what
trips detectors on real shelves and samples/ lacks: a whole cabinet with side panels (wood grain runs vertically,
like spine boundaries), hinges and posts; the wall around it (sometimes striped wallpaper) and the floor below it
(tiles, pavement); boxes, plant pots, picture frames and bookends among the books; books leaning at the row ends;
spine-on stacks of lying books; rows of mixed heights; perspective, roll, uneven light, blur, noise and JPEG.
Nothing here is fitted to: the photos are written to a folder outside the project and only measured.

Ground truth is the shared spine_boxes schema (polygon in image pixels, `lying`, `partial` for spines cut by the
photo's edge or hidden behind something, which are don't-care). Needs Pillow, numpy and Debian's fonts-dejavu-core.
"""

import argparse
import json
import math
import os
import random

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONT_DIR = "/usr/share/fonts/truetype/dejavu"
FONTS = ["DejaVuSans-Bold.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSansCondensed-Bold.ttf", "DejaVuSerif.ttf",
         "DejaVuSans.ttf", "DejaVuSerifCondensed-Bold.ttf"]
WORDS = ("river night garden stone winter house letters empire silent story north city light summer history "
         "secret ocean mountain war peace memory island kingdom journey shadow glass fire water travel bread "
         "music dream forest road machine world century").split()
NAMES = ("Anna Berg|Tomas Weber|Claire Dubois|Mark Hale|Rosa Lind|Ivan Petrov|Elena Ruiz|Paul Klein|"
         "Sara Holm|Jonas Meyer|Mia Costa|Leo Brandt").split("|")
W, H = 3200, 2400
# --variety: training shelves drawn outside the measured set's range, so that a model fitted on them is not
# lost on a shelf unlike them (close-ups of a few thick books, flat colours, a clean sensor). Off by default, and
# then no extra random draw is made: the same seed gives the same photos as before the option existed.
VARIETY = False
# --display SHARE: that share of the boards hold no standing row, only stacks of books lying spine-on and face-out
# pictures (a display shelf, the top of a bookcase). Off by default, with no extra draw.
DISPLAY = 0.0
# --in-front SHARE: that share of the rows have a stack of books lying in front of them, hiding the standing books'
# feet. Off by default, with no extra draw.
IN_FRONT = 0.0
# --on-top SHARE: that share of the rows have one or two books lying across the tops of their standing books,
# under the board above. Off by default, with no extra draw.
ON_TOP = 0.0


def title(rng):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4))).title()


def colour(rng, dark=None):
    # Muted, as printed covers and painted walls are: a random hue pulled part of the way to its grey.
    raw = [rng.randint(20, 235) for _ in range(3)]
    grey, pull = sum(raw) / 3, rng.uniform(0.2, 0.7)
    base = [int(c + (grey - c) * pull) for c in raw]
    if dark is True:
        base = [c // 3 for c in base]
    return tuple(base)


def texture(rng, w, h, base, grain=0, vertical=True, amount=14):
    """A flat colour with low-frequency shading and, for wood, grain lines along `vertical`."""
    a = np.zeros((h, w, 3), np.float32) + np.array(base, np.float32)
    small = np.random.default_rng(rng.randint(0, 1 << 30)).normal(0, amount, (max(2, h // 60), max(2, w // 60)))
    shade = np.asarray(Image.fromarray(small.astype(np.float32)).resize((w, h), Image.BILINEAR))
    a += shade[:, :, None]
    if grain:
        g = np.random.default_rng(rng.randint(0, 1 << 30))
        n = w if vertical else h
        lines = np.convolve(g.normal(0, grain, n), np.ones(3) / 3, mode="same")
        a += (lines[None, :, None] if vertical else lines[:, None, None])
    return np.clip(a, 0, 255)


def paste(canvas, patch, x, y, mask=None):
    h, w = patch.shape[:2]
    x0, y0, x1, y1 = max(0, x), max(0, y), min(canvas.shape[1], x + w), min(canvas.shape[0], y + h)
    if x0 >= x1 or y0 >= y1:
        return
    p = patch[y0 - y:y1 - y, x0 - x:x1 - x]
    if mask is None:
        canvas[y0:y1, x0:x1] = p
    else:
        m = mask[y0 - y:y1 - y, x0 - x:x1 - x, None]
        canvas[y0:y1, x0:x1] = canvas[y0:y1, x0:x1] * (1 - m) + p * m


def spine_image(rng, w, h, flat=False):
    """A spine standing upright: a cover colour, optional bands, the title and author printed along it."""
    base = colour(rng)
    img = Image.fromarray(texture(rng, w, h, base, amount=0 if flat else 6).astype(np.uint8))
    d = ImageDraw.Draw(img)
    ink = (245, 240, 230) if sum(base) < 360 else (20, 20, 25)
    if rng.random() < 0.5:
        band = colour(rng)
        for y in (int(h * rng.uniform(0.04, 0.12)), int(h * rng.uniform(0.82, 0.9))):
            d.rectangle([0, y, w, y + max(3, h // 60)], fill=band)
    if w >= 22:
        text = title(rng) + ("   " + rng.choice(NAMES) if rng.random() < 0.8 else "")
        size = max(10, int(w * rng.uniform(0.35, 0.6)))
        f = ImageFont.truetype(os.path.join(FONT_DIR, rng.choice(FONTS)), size)
        tw = int(d.textlength(text, font=f))
        strip = Image.new("RGBA", (min(tw + 10, int(h * 0.8)), size + 8), (0, 0, 0, 0))
        ImageDraw.Draw(strip).text((5, 2), text, font=f, fill=ink + (255,))
        strip = strip.rotate(-90 if rng.random() < 0.6 else 90, expand=True)
        off = (max(0, (w - strip.width) // 2), int(h * rng.uniform(0.12, 0.2)))
        img.paste(strip, off, strip)
    if rng.random() < 0.4 and w >= 30:
        f = ImageFont.truetype(os.path.join(FONT_DIR, "DejaVuSans-Bold.ttf"), max(8, w // 4))
        d.text((w // 6, int(h * 0.9)), rng.choice(["dtv", "rororo", "btb", "Knaur", "Vintage"])[: max(2, w // 12)],
               font=f, fill=ink)
    return np.asarray(img, np.float32)


def rotated(patch, angle_deg):
    """The patch turned about its centre (counter-clockwise for positive angles), with its coverage mask."""
    img = Image.fromarray(patch.astype(np.uint8))
    alpha = Image.new("L", img.size, 255)
    r = img.rotate(angle_deg, expand=True, resample=Image.BICUBIC)
    m = alpha.rotate(angle_deg, expand=True, resample=Image.BICUBIC)
    return np.asarray(r, np.float32), np.asarray(m, np.float32) / 255


def quad_rotated(cx, cy, w, h, angle_deg):
    """Corners TL, TR, BR, BL of a w x h rectangle turned counter-clockwise by angle about (cx, cy), y down."""
    a = math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    pts = []
    for dx, dy in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)):
        pts.append([cx + dx * c + dy * s, cy - dx * s + dy * c])
    return pts


def lying_stack(canvas, rng, x, sw, top, floor, books, row, thickness=(30, 70), shorter=40):
    """A spine-on stack of lying books about `sw` long on the board at `floor`, staggered."""
    y = floor
    for _ in range(rng.randint(2, 5)):
        t = rng.randint(*thickness)
        if y - t < top + 20:
            break
        length = sw - rng.randint(0, shorter)
        sp = spine_image(rng, t, length)  # drawn standing, then laid down
        lying = np.ascontiguousarray(np.rot90(sp, 1 if rng.random() < 0.5 else -1))
        bx = x + rng.randint(0, sw - length)
        paste(canvas, lying, bx, y - t)
        # As the book would stand: turned upright, its top is at the left end or the right end.
        books.append({"polygon": [[bx, y], [bx, y - t], [bx + length, y - t], [bx + length, y]],
                      "lying": True, "row": row})
        y -= t + rng.randint(0, 3)


def cover_image(rng, w, h):
    """A book standing face-out: its title across the cover in two or three lines of large print, the author
    smaller, a band or a picture panel (long edges across, as a stack's books have)."""
    base = colour(rng)
    img = Image.fromarray(texture(rng, w, h, base, amount=8).astype(np.uint8))
    d = ImageDraw.Draw(img)
    ink = (245, 240, 230) if sum(base) < 360 else (20, 20, 25)
    if rng.random() < 0.6:  # a picture panel
        y0 = int(h * rng.uniform(0.35, 0.55))
        d.rectangle([int(w * 0.08), y0, int(w * 0.92), int(h * rng.uniform(0.8, 0.9))], fill=colour(rng))
    if rng.random() < 0.5:  # a band across
        y = int(h * rng.uniform(0.25, 0.35))
        d.rectangle([0, y, w, y + max(4, h // 40)], fill=colour(rng))
    f = ImageFont.truetype(os.path.join(FONT_DIR, rng.choice(FONTS)), max(14, int(w * rng.uniform(0.09, 0.14))))
    y = int(h * rng.uniform(0.04, 0.1))
    for _ in range(rng.randint(1, 3)):
        d.text((int(w * 0.08), y), rng.choice(WORDS).upper() + " " + rng.choice(WORDS).upper(), font=f, fill=ink)
        y += int(f.size * 1.25)
    fa = ImageFont.truetype(os.path.join(FONT_DIR, rng.choice(FONTS)), max(10, f.size // 2))
    d.text((int(w * 0.08), int(h * rng.uniform(0.9, 0.94))), rng.choice(NAMES), font=fa, fill=ink)
    return np.asarray(img, np.float32)


def display_board(canvas, rng, x0, x1, top, floor, books, row):
    """A board with no standing row: stacks of books lying spine-on, as long as books stand tall, with bare
    board between them, books standing face-out (their covers are not spines: no truth, so a box on one is
    wrong) and plain pictures."""
    height = floor - top
    x = x0 + rng.randint(20, 160)
    while x < x1 - 250:
        room = x1 - x
        r = rng.random()
        if r < 0.65:
            sw = min(room, int(height * rng.uniform(0.5, 1.0)))
            lying_stack(canvas, rng, x, sw, top, floor, books, row, thickness=(22, 75), shorter=int(0.25 * sw))
            x += sw + rng.randint(60, 420)
        elif r < 0.85:
            fw, fh = rng.randint(260, 480), int(height * rng.uniform(0.5, 0.85))
            fw = min(fw, room)
            picture = cover_image(rng, fw, fh) if rng.random() < 0.6 else texture(rng, fw, fh, colour(rng), amount=30)
            paste(canvas, picture, x, floor - fh)
            x += fw + rng.randint(40, 300)
        else:
            x += rng.randint(150, 500)


def stack_in_front(canvas, rng, x0, x1, top, floor, books, first, row):
    """A stack of books lying spine-on in front of a row, hiding the feet of the books standing behind it. A book
    behind it whose visible part is a clean strip keeps that strip as its truth; one it hides partly across
    (an L-shaped part shows), or hides nearly whole, is don't-care."""
    height = floor - top
    length = int(height * rng.uniform(0.5, 0.95))
    if x1 - x0 < length + 40:
        return
    sx = rng.randint(x0 + 10, x1 - length - 10)
    silhouette = {}
    y = floor
    for _ in range(rng.randint(2, 4)):
        t = rng.randint(25, 70)
        if y - t < top + height * 0.3:
            break
        bl = length - rng.randint(0, int(0.2 * length))
        sp = spine_image(rng, t, bl)
        lying = np.ascontiguousarray(np.rot90(sp, 1 if rng.random() < 0.5 else -1))
        bx = sx + rng.randint(0, length - bl)
        paste(canvas, lying, bx, y - t)
        for xx in range(bx, bx + bl):
            silhouette[xx] = min(silhouette.get(xx, floor), y - t)
        books.append({"polygon": [[bx, y], [bx, y - t], [bx + bl, y - t], [bx + bl, y]], "lying": True, "row": row})
        y -= t + rng.randint(0, 3)
    for b in books[first:]:
        if b["lying"] or b.get("partial"):
            continue
        xs = [p[0] for p in b["polygon"]]
        bx0, bx1 = int(min(xs)), int(max(xs))
        tops = [silhouette.get(xx) for xx in range(bx0, bx1 + 1)]
        if all(t is None for t in tops):
            continue
        btop = min(p[1] for p in b["polygon"])
        upright = len(b["polygon"]) == 4 and abs(b["polygon"][0][1] - b["polygon"][1][1]) < 1e-6
        if None in tops or not upright or max(tops) - min(tops) > 12 or min(tops) - btop < 0.3 * (floor - btop):
            b["partial"] = True
            continue
        cut = min(tops)
        b["polygon"] = [[bx0, btop], [bx1, btop], [bx1, cut], [bx0, cut]]


def books_on_top(canvas, rng, x0, x1, top, floor, books, first, row):
    """One or two books lying spine-on across the tops of a row's standing books, in the gap under the board
    above: where a full shelf puts the books that no longer fit. Each rests on the tallest book under it."""
    length = rng.randint(220, 480)
    if x1 - x0 < length + 40:
        return
    bx = rng.randint(x0 + 10, x1 - length - 10)
    under = [b for b in books[first:] if not b["lying"]
             and min(p[0] for p in b["polygon"]) < bx + length and max(p[0] for p in b["polygon"]) > bx]
    if not under:
        return
    y = int(min(min(p[1] for p in b["polygon"]) for b in under))
    for _ in range(rng.randint(1, 2)):
        t = rng.randint(28, 60)
        if y - t < top + 15:
            break
        bl = length - rng.randint(0, 60)
        sp = spine_image(rng, t, bl)
        lying = np.ascontiguousarray(np.rot90(sp, 1 if rng.random() < 0.5 else -1))
        lx = bx + rng.randint(0, length - bl)
        paste(canvas, lying, lx, y - t)
        books.append({"polygon": [[lx, y], [lx, y - t], [lx + bl, y - t], [lx + bl, y]], "lying": True, "row": row,
                      "onTop": True})
        y -= t + rng.randint(0, 3)


def fill_row(canvas, rng, x0, x1, top, floor, books, row):
    """Books, stacks and clutter along one compartment, left to right."""
    if DISPLAY and rng.random() < DISPLAY:
        display_board(canvas, rng, x0, x1, top, floor, books, row)
        return
    x = x0 + rng.randint(0, 40)
    height = floor - top
    # With --variety, some rows are close-ups of thick books and some are painted in flat colour.
    close_up = VARIETY and rng.random() < 0.4
    flat = VARIETY and rng.random() < 0.4
    while x < x1 - 20:
        r = rng.random()
        room = x1 - x
        if r < 0.07 and room > 260:  # a plain box or a storage basket: wide, no print
            bw, bh = rng.randint(180, 420), int(height * rng.uniform(0.35, 0.8))
            bw = min(bw, room)
            paste(canvas, texture(rng, bw, bh, colour(rng), amount=10), x, floor - bh)
            x += bw + rng.randint(5, 40)
        elif r < 0.11 and room > 200:  # a plant pot with leaves
            pw, ph = rng.randint(120, 200), int(height * rng.uniform(0.25, 0.4))
            pot = texture(rng, pw, ph, (150, 80, 50), amount=8)
            paste(canvas, pot, x, floor - ph)
            leaves = Image.new("L", (pw + 80, int(height * 0.5)), 0)
            dl = ImageDraw.Draw(leaves)
            for _ in range(14):
                cx, cy = rng.randint(0, pw + 80), rng.randint(0, leaves.height)
                dl.ellipse([cx - 30, cy - 12, cx + 30, cy + 12], fill=255)
            m = np.asarray(leaves, np.float32) / 255
            paste(canvas, texture(rng, leaves.width, leaves.height, (40, 110, 50), amount=20), x - 40,
                  floor - ph - leaves.height + 10, m)
            x += pw + rng.randint(10, 50)
        elif r < 0.14 and room > 220:  # a picture frame leaning on the back
            fw, fh = rng.randint(160, 300), int(height * rng.uniform(0.45, 0.8))
            frame = texture(rng, fw, fh, colour(rng, dark=True), amount=4)
            inner = texture(rng, fw - 30, fh - 30, colour(rng), amount=30)
            frame[15:-15, 15:-15] = inner
            paste(canvas, frame, x, floor - fh)
            x += fw + rng.randint(5, 30)
        elif r < 0.2 and room > 250:  # a spine-on stack of lying books
            sw = rng.randint(200, min(420, room))
            lying_stack(canvas, rng, x, sw, top, floor, books, row)
            x += sw + rng.randint(5, 30)
        elif r < 0.23 and room > 120:  # a metal bookend
            paste(canvas, texture(rng, 14, int(height * 0.45), (170, 170, 175), amount=5), x, floor - int(height * 0.45))
            x += 14 + rng.randint(0, 6)
        else:  # a standing book, sometimes leaning on its neighbour
            bw = int(min(room, np.clip(rng.lognormvariate(math.log(60), 0.45), 18, 150)))
            if close_up:
                bw = int(min(room, np.clip(rng.lognormvariate(math.log(140), 0.35), 50, 330)))
            bh = int(height * rng.uniform(0.5, 0.95))
            if bw < 14:
                break
            lean = rng.uniform(8, 28) if rng.random() < 0.06 and room > 300 else 0
            sp = spine_image(rng, bw, bh, flat=flat)
            if lean:
                patch, m = rotated(sp, -lean)  # falls to the right, resting on its foot's left corner
                px = x
                paste(canvas, patch, px, floor - patch.shape[0], m)
                cx, cy = px + patch.shape[1] / 2, floor - patch.shape[0] / 2
                books.append({"polygon": quad_rotated(cx, cy, bw, bh, -lean), "lying": False, "row": row})
                x += patch.shape[1] + rng.randint(0, 10)
            else:
                paste(canvas, sp, x, floor - bh)
                books.append({"polygon": [[x, floor - bh], [x + bw, floor - bh], [x + bw, floor], [x, floor]],
                              "lying": False, "row": row})
                x += bw + (rng.randint(0, 4) if rng.random() < 0.9 else rng.randint(10, 60))


def scene(rng):
    canvas = np.zeros((H, W, 3), np.float32)
    wall = texture(rng, W, H, colour(rng), amount=12)
    if rng.random() < 0.35:  # striped wallpaper: long vertical edges outside the cabinet
        period = rng.randint(40, 120)
        stripes = ((np.arange(W) // period) % 2).astype(np.float32)[None, :, None] * rng.uniform(15, 45)
        wall = np.clip(wall + stripes, 0, 255)
    canvas[:] = wall
    # The cabinet: side panels with vertical grain, boards, a floor below.
    side = rng.randint(70, 150)
    cx0, cx1 = rng.randint(-side // 2, 350), W - rng.randint(-side // 2, 350)
    top0 = rng.randint(-200, 300)
    rows = rng.randint(2, 3)
    wood = (rng.randint(120, 200), rng.randint(80, 150), rng.randint(40, 100))
    board = rng.randint(40, 75)
    heights = [rng.randint(520, 760) for _ in range(rows)]
    bottom = top0 + board + sum(h + board for h in heights)
    if bottom > H - 150:
        scale = (H - 150 - top0) / (bottom - top0)
        heights = [int(h * scale) for h in heights]
        bottom = top0 + board + sum(h + board for h in heights)
    floor_tex = texture(rng, W, H - bottom, colour(rng), amount=20)
    if rng.random() < 0.6:  # tiles or pavement: a grid of joints
        tile = rng.randint(120, 300)
        for yy in range(0, H - bottom, tile // 2):
            floor_tex[yy:yy + 6] *= 0.6
        for xx in range(rng.randint(0, tile), W, tile):
            floor_tex[:, xx:xx + 6] *= 0.6
    canvas[bottom:] = floor_tex
    if DISPLAY and rng.random() < 0.5:  # a painted back, white or cream: no grain, no vertical edges
        shade = rng.randint(190, 240)
        back = texture(rng, cx1 - cx0, bottom - top0, (shade, shade - rng.randint(0, 12), shade - rng.randint(0, 25)), amount=6)
    else:
        back = texture(rng, cx1 - cx0, bottom - top0, tuple(int(c * 0.75) for c in wood), grain=6)
    paste(canvas, back, cx0, top0)
    books = []
    y = top0
    inner0, inner1 = cx0 + side, cx1 - side
    for r in range(rows):
        paste(canvas, texture(rng, cx1 - cx0, board, wood, grain=8, vertical=False), cx0, y)
        canvas[max(0, y + board - 5):max(0, y + board), max(0, cx0):cx1] *= 0.7
        top, floor = y + board, y + board + heights[r]
        # Shade under the board above: real compartments are darker at the top.
        canvas[max(0, top):max(0, top + 60), max(0, inner0):inner1] *= 0.75
        first = len(books)
        fill_row(canvas, rng, inner0, inner1, top, floor, books, r)
        if IN_FRONT and rng.random() < IN_FRONT:
            stack_in_front(canvas, rng, inner0, inner1, top, floor, books, first, r)
        if ON_TOP and rng.random() < ON_TOP:
            books_on_top(canvas, rng, inner0, inner1, top, floor, books, first, r)
        y = floor
    paste(canvas, texture(rng, cx1 - cx0, board, wood, grain=8, vertical=False), cx0, y)
    for x in (cx0, cx1 - side):
        panel = texture(rng, side, bottom - top0, wood, grain=10)
        panel[:, : side // 6] *= 0.8
        paste(canvas, panel, x, top0)
        for hy in (top0 + 250, bottom - 350):  # hinges
            paste(canvas, texture(rng, 22, 120, (190, 190, 195), amount=4), x + side // 2 - 11, hy)
    return canvas, books


def homography(src, dst):
    """The 3x3 map taking the four `src` corners to `dst`, with its last entry fixed at 1 (eight unknowns,
    two equations per corner)."""
    rows, rhs = [], []
    for (x, y), (u, v) in zip(src, dst):
        rows += [[x, y, 1, 0, 0, 0, -u * x, -u * y], [0, 0, 0, x, y, 1, -v * x, -v * y]]
        rhs += [u, v]
    return np.append(np.linalg.solve(np.array(rows, np.float64), np.array(rhs, np.float64)), 1).reshape(3, 3)


def photograph(canvas, books, rng):
    """Perspective and roll, uneven light, blur, noise: a handheld photo of the scene."""
    j = W * rng.uniform(0.0, 0.05)
    src = [(0, 0), (W, 0), (W, H), (0, H)]
    dst = [(rng.uniform(0, j), rng.uniform(0, j)), (W - rng.uniform(0, j), rng.uniform(0, j)),
           (W - rng.uniform(0, j), H - rng.uniform(0, j)), (rng.uniform(0, j), H - rng.uniform(0, j))]
    roll = math.radians(rng.uniform(-3, 3))
    c, s = math.cos(roll), math.sin(roll)
    # Zoomed in a little so the turned, skewed scene still fills the frame (a photo has no empty corners).
    zoom = 1.04 + 1.2 * abs(roll) + 1.5 * j / W
    dst = [(W / 2 + zoom * ((x - W / 2) * c - (y - H / 2) * s), H / 2 + zoom * ((x - W / 2) * s + (y - H / 2) * c))
           for x, y in dst]
    hm = homography(src, dst)
    inv = np.linalg.inv(hm)
    img = Image.fromarray(np.clip(canvas, 0, 255).astype(np.uint8))
    img = img.transform((W, H), Image.PERSPECTIVE, (inv / inv[2, 2]).flatten()[:8], resample=Image.BILINEAR)
    a = np.asarray(img, np.float32)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    gx, gy = rng.uniform(-0.35, 0.35), rng.uniform(-0.35, 0.35)
    light = 1 + gx * (xx / W - 0.5) + gy * (yy / H - 0.5) - 0.3 * (((xx / W - 0.5) ** 2 + (yy / H - 0.5) ** 2))
    a = a * light[:, :, None] * rng.uniform(0.7, 1.15)
    clean = VARIETY and rng.random() < 0.3  # a clean sensor and a sharp lens
    a += np.random.default_rng(rng.randint(0, 1 << 30)).normal(0, rng.uniform(0.5, 1.5) if clean else rng.uniform(2, 7), a.shape)
    img = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)).filter(
        ImageFilter.GaussianBlur(rng.uniform(0.3, 0.6) if clean else rng.uniform(0.5, 1.4)))
    out = []
    for b in books:
        pts = np.array(b["polygon"], np.float64)
        p = np.c_[pts, np.ones(len(pts))] @ hm.T
        p = p[:, :2] / p[:, 2:]
        xs, ys = p[:, 0], p[:, 1]
        inside = (xs.min() >= 0) and (ys.min() >= 0) and (xs.max() <= W) and (ys.max() <= H)
        poly = [[round(float(x), 1), round(float(y), 1)] for x, y in p]
        x0, y0 = max(0, float(xs.min())), max(0, float(ys.min()))
        x1, y1 = min(W, float(xs.max())), min(H, float(ys.max()))
        if x1 - x0 < 4 or y1 - y0 < 4:
            continue
        out.append({"polygon": poly, "bbox": [round(x0), round(y0), round(x1 - x0), round(y1 - y0)],
                    "title": "", "author": "", "lying": b["lying"], "row": b["row"], "partial": not inside or b.get("partial", False)})
        if b.get("onTop"):  # only with --on-top: the default files stay as they were
            out[-1]["onTop"] = True
    return img, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=12)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--variety", action="store_true",
                    help="training shelves beyond the measured range: close-ups of thick books, flat colours, clean photos")
    ap.add_argument("--display", type=float, default=0.0, metavar="SHARE",
                    help="the share of boards holding only stacks of lying books and face-out pictures")
    ap.add_argument("--in-front", type=float, default=0.0, metavar="SHARE",
                    help="the share of rows with a stack of books lying in front of them")
    ap.add_argument("--on-top", type=float, default=0.0, metavar="SHARE",
                    help="the share of rows with books lying across the tops of their standing books")
    args = ap.parse_args()
    global VARIETY, DISPLAY, IN_FRONT, ON_TOP
    IN_FRONT = args.in_front
    ON_TOP = args.on_top
    VARIETY = args.variety
    DISPLAY = args.display
    os.makedirs(args.out, exist_ok=True)
    for i in range(args.count):
        rng = random.Random(args.seed * 1000 + i)
        canvas, books = scene(rng)
        img, spines = photograph(canvas, books, rng)
        name = "hard-%02d" % (i + 1)
        img.save(os.path.join(args.out, name + ".jpg"), quality=rng.randint(80, 92))
        with open(os.path.join(args.out, name + ".json"), "w") as f:
            json.dump({"image": name + ".jpg", "width": W, "height": H, "spines": spines}, f, indent=1)
        print(name, len(spines), "spines")


if __name__ == "__main__":
    main()
