#!/usr/bin/env python3
"""Synthetic bookshelf photos with exact ground truth, deterministic by seed.

    python3 samples/generate.py                    # writes samples/shelf-NN.{jpg,png,json}
    python3 samples/generate.py --only 1 3         # just those photos
    python3 samples/generate.py --overlay /tmp/ov  # also draws the ground truth on downscaled copies

Every photo is composed as a flat "scene" (back panel, shelf boards, books, bookends), lit, warped by a mild
camera homography (the ground-truth polygons go through the same homography), blurred, noised and saved.
Ground truth is in the pixel coordinates of the UPRIGHT image; photos with an EXIF orientation other than 1
store their pixels rotated so that a viewer applying the tag shows the upright shelf.

Needs Pillow and numpy, and the Debian fonts fonts-dejavu-core, fonts-liberation, fonts-freefont-ttf.
"""

import argparse
import json
import math
import os
import random
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))

# --------------------------------------------------------------------------------------------------------------
# Books: real public-domain titles. Authors with several titles make "series" runs of identical spines.

BOOKS = [
    ("Pride and Prejudice", "Jane Austen"), ("Sense and Sensibility", "Jane Austen"), ("Emma", "Jane Austen"),
    ("Persuasion", "Jane Austen"), ("Mansfield Park", "Jane Austen"), ("Northanger Abbey", "Jane Austen"),
    ("Great Expectations", "Charles Dickens"), ("Oliver Twist", "Charles Dickens"),
    ("David Copperfield", "Charles Dickens"), ("Bleak House", "Charles Dickens"),
    ("A Tale of Two Cities", "Charles Dickens"), ("Hard Times", "Charles Dickens"),
    ("Little Dorrit", "Charles Dickens"), ("The Pickwick Papers", "Charles Dickens"),
    ("Adventures of Huckleberry Finn", "Mark Twain"), ("The Adventures of Tom Sawyer", "Mark Twain"),
    ("The Prince and the Pauper", "Mark Twain"), ("Life on the Mississippi", "Mark Twain"),
    ("Moby-Dick", "Herman Melville"), ("Billy Budd", "Herman Melville"), ("Typee", "Herman Melville"),
    ("War and Peace", "Leo Tolstoy"), ("Anna Karenina", "Leo Tolstoy"), ("Resurrection", "Leo Tolstoy"),
    ("Crime and Punishment", "Fyodor Dostoevsky"), ("The Brothers Karamazov", "Fyodor Dostoevsky"),
    ("The Idiot", "Fyodor Dostoevsky"), ("Notes from Underground", "Fyodor Dostoevsky"),
    ("Don Quixote", "Miguel de Cervantes"), ("Exemplary Novels", "Miguel de Cervantes"),
    ("Jane Eyre", "Charlotte Bronte"), ("Villette", "Charlotte Bronte"), ("Shirley", "Charlotte Bronte"),
    ("Wuthering Heights", "Emily Bronte"), ("Agnes Grey", "Anne Bronte"),
    ("The Tenant of Wildfell Hall", "Anne Bronte"),
    ("Tess of the d'Urbervilles", "Thomas Hardy"), ("Far from the Madding Crowd", "Thomas Hardy"),
    ("Jude the Obscure", "Thomas Hardy"), ("The Mayor of Casterbridge", "Thomas Hardy"),
    ("The Return of the Native", "Thomas Hardy"),
    ("The Picture of Dorian Gray", "Oscar Wilde"), ("The Importance of Being Earnest", "Oscar Wilde"),
    ("Heart of Darkness", "Joseph Conrad"), ("Lord Jim", "Joseph Conrad"), ("Nostromo", "Joseph Conrad"),
    ("The Secret Agent", "Joseph Conrad"),
    ("Twenty Thousand Leagues Under the Sea", "Jules Verne"), ("Around the World in Eighty Days", "Jules Verne"),
    ("Journey to the Center of the Earth", "Jules Verne"), ("The Mysterious Island", "Jules Verne"),
    ("From the Earth to the Moon", "Jules Verne"),
    ("The Three Musketeers", "Alexandre Dumas"), ("The Count of Monte Cristo", "Alexandre Dumas"),
    ("Twenty Years After", "Alexandre Dumas"), ("The Man in the Iron Mask", "Alexandre Dumas"),
    ("Les Miserables", "Victor Hugo"), ("The Hunchback of Notre-Dame", "Victor Hugo"),
    ("Madame Bovary", "Gustave Flaubert"), ("Sentimental Education", "Gustave Flaubert"),
    ("Pere Goriot", "Honore de Balzac"), ("Eugenie Grandet", "Honore de Balzac"),
    ("Germinal", "Emile Zola"), ("Nana", "Emile Zola"), ("The Belly of Paris", "Emile Zola"),
    ("The Red and the Black", "Stendhal"), ("Candide", "Voltaire"),
    ("A Study in Scarlet", "Arthur Conan Doyle"), ("The Sign of the Four", "Arthur Conan Doyle"),
    ("The Hound of the Baskervilles", "Arthur Conan Doyle"), ("The Lost World", "Arthur Conan Doyle"),
    ("Treasure Island", "Robert Louis Stevenson"), ("Kidnapped", "Robert Louis Stevenson"),
    ("Strange Case of Dr Jekyll and Mr Hyde", "Robert Louis Stevenson"),
    ("The Time Machine", "H. G. Wells"), ("The War of the Worlds", "H. G. Wells"),
    ("The Invisible Man", "H. G. Wells"), ("The Island of Doctor Moreau", "H. G. Wells"),
    ("The Scarlet Letter", "Nathaniel Hawthorne"), ("The House of the Seven Gables", "Nathaniel Hawthorne"),
    ("Middlemarch", "George Eliot"), ("Silas Marner", "George Eliot"), ("The Mill on the Floss", "George Eliot"),
    ("Adam Bede", "George Eliot"),
    ("Barchester Towers", "Anthony Trollope"), ("The Warden", "Anthony Trollope"),
    ("The Way We Live Now", "Anthony Trollope"),
    ("Ivanhoe", "Walter Scott"), ("Rob Roy", "Walter Scott"), ("Waverley", "Walter Scott"),
    ("The Jungle Book", "Rudyard Kipling"), ("Kim", "Rudyard Kipling"), ("Just So Stories", "Rudyard Kipling"),
    ("Tales of Mystery and Imagination", "Edgar Allan Poe"), ("Gulliver's Travels", "Jonathan Swift"),
    ("Robinson Crusoe", "Daniel Defoe"), ("Moll Flanders", "Daniel Defoe"),
    ("The Odyssey", "Homer"), ("The Iliad", "Homer"), ("The Divine Comedy", "Dante Alighieri"),
    ("Hamlet", "William Shakespeare"), ("Macbeth", "William Shakespeare"), ("King Lear", "William Shakespeare"),
    ("The Tempest", "William Shakespeare"), ("Othello", "William Shakespeare"),
    ("Alice's Adventures in Wonderland", "Lewis Carroll"), ("Through the Looking-Glass", "Lewis Carroll"),
    ("Little Women", "Louisa May Alcott"), ("The Secret Garden", "Frances Hodgson Burnett"),
    ("A Little Princess", "Frances Hodgson Burnett"), ("The Wonderful Wizard of Oz", "L. Frank Baum"),
    ("The Call of the Wild", "Jack London"), ("White Fang", "Jack London"), ("The Sea-Wolf", "Jack London"),
    ("The Last of the Mohicans", "James Fenimore Cooper"), ("Walden", "Henry David Thoreau"),
    ("Leaves of Grass", "Walt Whitman"), ("The Trial", "Franz Kafka"), ("The Metamorphosis", "Franz Kafka"),
    ("Fathers and Sons", "Ivan Turgenev"), ("Dead Souls", "Nikolai Gogol"), ("Eugene Onegin", "Alexander Pushkin"),
    ("Faust", "Johann Wolfgang von Goethe"), ("The Sorrows of Young Werther", "Johann Wolfgang von Goethe"),
    ("The Prince", "Niccolo Machiavelli"), ("The Republic", "Plato"), ("Meditations", "Marcus Aurelius"),
    ("On the Origin of Species", "Charles Darwin"), ("The Pilgrim's Progress", "John Bunyan"),
    ("Paradise Lost", "John Milton"), ("The Canterbury Tales", "Geoffrey Chaucer"),
    ("Tom Jones", "Henry Fielding"), ("Tristram Shandy", "Laurence Sterne"),
    ("Vanity Fair", "William Makepeace Thackeray"), ("North and South", "Elizabeth Gaskell"),
    ("Cranford", "Elizabeth Gaskell"), ("The Woman in White", "Wilkie Collins"),
    ("The Moonstone", "Wilkie Collins"), ("Dracula", "Bram Stoker"), ("Frankenstein", "Mary Shelley"),
    ("The Age of Innocence", "Edith Wharton"), ("The House of Mirth", "Edith Wharton"),
    ("The Portrait of a Lady", "Henry James"), ("The Turn of the Screw", "Henry James"),
    ("The Red Badge of Courage", "Stephen Crane"), ("The Awakening", "Kate Chopin"),
    ("My Antonia", "Willa Cather"), ("O Pioneers!", "Willa Cather"),
    ("Dubliners", "James Joyce"), ("A Portrait of the Artist as a Young Man", "James Joyce"),
    ("A Room with a View", "E. M. Forster"), ("Howards End", "E. M. Forster"),
    ("The Wind in the Willows", "Kenneth Grahame"), ("Peter Pan", "J. M. Barrie"),
    ("The Thirty-Nine Steps", "John Buchan"), ("King Solomon's Mines", "H. Rider Haggard"),
    ("The Man Who Was Thursday", "G. K. Chesterton"), ("Anne of Green Gables", "L. M. Montgomery"),
    ("Black Beauty", "Anna Sewell"), ("Three Men in a Boat", "Jerome K. Jerome"),
    ("The Great Gatsby", "F. Scott Fitzgerald"), ("Uncle Tom's Cabin", "Harriet Beecher Stowe"),
    ("Heidi", "Johanna Spyri"), ("The Beautiful and Damned", "F. Scott Fitzgerald"),
]

FONT_DIRS = ["/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation",
             "/usr/share/fonts/truetype/freefont"]
FONT_FILES = [
    "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSansCondensed-Bold.ttf",
    "DejaVuSerifCondensed-Italic.ttf", "LiberationSerif-Regular.ttf", "LiberationSerif-Bold.ttf",
    "LiberationSans-Bold.ttf", "LiberationSansNarrow-Bold.ttf", "LiberationSans-Regular.ttf",
    "FreeSerif.ttf", "FreeSerifBold.ttf", "FreeSans.ttf", "FreeSansBold.ttf", "FreeSerifItalic.ttf",
]
MONO_FONT = "DejaVuSansMono-Bold.ttf"

# Cloth and paper colours seen on real shelves (RGB).
SPINE_COLOURS = [
    (28, 40, 72), (110, 26, 30), (30, 70, 45), (25, 25, 28), (232, 226, 208), (245, 243, 238), (214, 170, 48),
    (222, 110, 36), (24, 110, 120), (112, 74, 44), (120, 122, 128), (190, 40, 40), (120, 160, 200),
    (226, 140, 160), (70, 50, 90), (200, 190, 150), (60, 90, 150), (150, 160, 80), (240, 210, 90), (90, 30, 50),
    (200, 205, 210), (170, 70, 40), (48, 52, 60), (245, 236, 214),
]


def font_path(name):
    for d in FONT_DIRS:
        p = os.path.join(d, name)
        if os.path.exists(p):
            return p
    sys.exit(f"font {name} not found: apt-get install -y fonts-dejavu-core fonts-liberation fonts-freefont-ttf")


_font_cache = {}


def font(name, size):
    key = (name, int(size))
    if key not in _font_cache:
        _font_cache[key] = ImageFont.truetype(font_path(name), max(6, int(size)))
    return _font_cache[key]


def luminance(c):
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def jitter(rng, c, amount):
    return tuple(int(min(255, max(0, v + rng.uniform(-amount, amount)))) for v in c)


# --------------------------------------------------------------------------------------------------------------
# One spine, drawn upright (width = thickness across, height = along the book), as an RGBA image.

class Style:
    """Everything that makes two spines look alike: a series shares one Style."""

    def __init__(self, rng, hardcover, text_px):
        self.colour = jitter(rng, rng.choice(SPINE_COLOURS), 14)
        self.hardcover = hardcover
        self.font = rng.choice(FONT_FILES)
        light = luminance(self.colour) > 140
        gold = (206, 172, 92)
        if light:
            self.ink = rng.choice([(20, 20, 24), (40, 40, 90), (120, 20, 20), (20, 60, 40)])
        else:
            self.ink = gold if hardcover and rng.random() < 0.5 else rng.choice([(245, 243, 235), (250, 250, 250)])
        self.bands = hardcover and rng.random() < 0.7
        self.band_colour = gold if not light else (40, 30, 20)
        self.logo = (not hardcover) and rng.random() < 0.6
        self.logo_colour = rng.choice([(222, 110, 36), (20, 20, 20), (180, 30, 30), (30, 60, 140)])
        self.two_lines = rng.random() < 0.35
        # A band of a second colour across part of the spine (publisher design), same lightness as the base.
        self.block = None
        if rng.random() < 0.3:
            same = [c for c in SPINE_COLOURS if (luminance(c) > 140) == light and c != self.colour]
            a = rng.uniform(0.05, 0.6)
            self.block = (rng.choice(same), a, a + rng.uniform(0.08, 0.3))
        self.text_px = text_px  # target cap height in pixels


def render_strip(title, author, style, length, thickness, rng):
    """Title and author as horizontal text on a strip `length` long and `thickness` high (transparent)."""
    strip = Image.new("RGBA", (int(length), int(thickness)), (0, 0, 0, 0))
    d = ImageDraw.Draw(strip)
    cap = min(style.text_px, thickness * 0.42)
    size = cap / 0.72
    two = style.two_lines and thickness > 3.6 * cap
    for _ in range(30):
        ft = font(style.font, size)
        fa = font(style.font, size * 0.72)
        tw = d.textlength(title, font=ft)
        aw = d.textlength(author, font=fa)
        need = max(tw, aw) if two else tw + aw + size * 1.2
        if need <= length * 0.92 or size < 9:
            break
        size *= 0.92
    ft = font(style.font, size)
    fa = font(style.font, size * 0.72)
    tw = d.textlength(title, font=ft)
    aw = d.textlength(author, font=fa)
    mid = thickness / 2
    if two:
        d.text((length * 0.04 + (length * 0.92 - tw) / 2 * rng.random(), mid - size * 0.55), title, font=ft,
               fill=style.ink, anchor="lm")
        d.text((length * 0.04 + (length * 0.92 - aw) / 2 * rng.random(), mid + size * 0.55), author, font=fa,
               fill=style.ink, anchor="lm")
    else:
        x0 = length * 0.04
        d.text((x0, mid), title, font=ft, fill=style.ink, anchor="lm")
        d.text((length * 0.96 - aw, mid), author, font=fa, fill=style.ink, anchor="lm")
    return strip


def render_spine(book, w, h, rng):
    """The spine seen straight on, top of the book at the top of the image."""
    style = book["style"]
    w, h = int(round(w)), int(round(h))
    base = np.empty((h, w, 3), np.float32)
    base[:] = style.colour
    # Rounded spine: darker towards both edges, a slight highlight left of centre.
    x = (np.arange(w, dtype=np.float32) + 0.5) / w
    profile = 1.0 - 0.28 * np.abs(2 * x - 1) ** 2.2 + 0.06 * np.exp(-((x - 0.38) / 0.18) ** 2)
    if style.hardcover:
        profile -= 0.05 * np.abs(2 * x - 1) ** 0.6
    base *= profile[None, :, None]
    spine = Image.fromarray(np.clip(base, 0, 255).astype(np.uint8)).convert("RGBA")
    d = ImageDraw.Draw(spine)
    if style.block:
        colour, a, b = style.block
        d.rectangle([0, int(h * a), w, int(h * b)], fill=colour)
    if style.bands:
        for frac in (0.045, 0.065, 0.935, 0.955):
            y = int(h * frac)
            d.rectangle([0, y, w, y + max(2, h // 160)], fill=style.band_colour)
    if style.logo:
        s = int(min(w * 0.55, h * 0.06))
        y = int(h * 0.03)
        d.rectangle([(w - s) // 2, y, (w + s) // 2, y + s], fill=style.logo_colour)
    # Text region along the spine, leaving room for the label at the bottom.
    top = 0.1 * h if style.bands else (0.1 * h if style.logo else 0.04 * h)
    bottom = h - (0.2 * h if book["label"] else 0.1 * h if style.bands else 0.04 * h)
    strip = render_strip(book["title"], book["author"], style, bottom - top, w, rng)
    if book["direction"] != "bottom-to-top":  # a lying book is drawn top-to-bottom, then turned
        text = strip.transpose(Image.ROTATE_270)  # text start at the top, letter tops facing right
    else:
        text = strip.transpose(Image.ROTATE_90)  # text start at the bottom, letter tops facing left
    spine.alpha_composite(text, (0, int(top)))
    if book["label"]:
        lw = int(min(w * 0.78, 150))
        lh = int(max(lw * 0.9, 40))
        y1 = int(h * 0.965)
        lx = (w - lw) // 2
        d.rounded_rectangle([lx, y1 - lh, lx + lw, y1], radius=max(2, lw // 10), fill=(244, 244, 238))
        code = book["call"]
        fs = max(8, min(lh * 0.3, lw / (0.62 * max(len(line) for line in code.split("\n")) + 0.5)))
        d.multiline_text((lx + lw / 2, y1 - lh / 2), code, font=font(MONO_FONT, fs), fill=(25, 25, 25),
                         anchor="mm", align="center", spacing=2)
    # Edges of the cover board.
    d.line([(0, 0), (0, h)], fill=(0, 0, 0, 255), width=max(1, w // 60))
    d.line([(w - 1, 0), (w - 1, h)], fill=(0, 0, 0, 255), width=max(1, w // 60))
    return spine


# --------------------------------------------------------------------------------------------------------------
# Scene layout.

class Scene:
    def __init__(self, spec, rng):
        self.spec = spec
        self.rng = rng
        self.W, self.H = spec["size"]
        self.books = []  # dicts with polygon (scene coords), title, author, lying, row, direction, style...
        self.bookends = []  # polygons
        self.boards = []  # (y_front_top, thickness, top_surface, underside)
        self.rows = []  # (ceiling_y, floor_y)
        self.unused = list(range(len(BOOKS)))
        rng.shuffle(self.unused)

    # ---- choosing titles
    def take(self, author=None):
        if author:
            for i in self.unused:
                if BOOKS[i][1] == author:
                    self.unused.remove(i)
                    return BOOKS[i]
            return None
        if not self.unused:
            self.unused = list(range(len(BOOKS)))
            self.rng.shuffle(self.unused)
        return BOOKS[self.unused.pop()]

    def call_number(self, author):
        surname = author.split()[-1]
        if self.rng.random() < 0.5:
            return f"{self.rng.choice([823, 843, 863, 891, 813, 808])}\n{surname[:3].upper()}"
        return f"N {surname[:3].capitalize()}"

    def new_book(self, title, author, style, row, w, h):
        spec = self.spec
        return {
            "title": title, "author": author, "style": style, "row": row, "w": w, "h": h,
            "direction": "top-to-bottom" if self.rng.random() >= spec["btt"] else "bottom-to-top",
            "label": self.rng.random() < spec["labels"],
            "call": self.call_number(author),
        }

    def new_style(self, row_h):
        hard = self.rng.random() < self.spec.get("hardcovers", 0.45)
        return Style(self.rng, hard, self.rng.uniform(*self.spec["text_px"]))

    # ---- layout
    def layout(self):
        rng, W, H, spec = self.rng, self.W, self.H, self.spec
        n = spec["rows"]
        bt = H * rng.uniform(0.022, 0.032) * (1.4 if n == 1 else 1.0)
        top = H * spec.get("top", rng.uniform(-0.02, 0.06))
        bottom_margin = H * spec.get("bottom", rng.uniform(0.03, 0.1))
        pitch = (H - bottom_margin - bt - top) / n
        eye = H * rng.uniform(0.4, 0.6)
        self.eye = eye
        for i in range(n + 1):
            y = top + i * pitch
            d = (y - eye) / H
            surface = max(0.0, d) * 0.09 * H  # board top seen from above
            under = max(0.0, -d) * 0.05 * H  # board underside seen from below
            self.boards.append((y, bt, surface, under))
        for i in range(n):
            ceiling = self.boards[i][0] + self.boards[i][1] + self.boards[i][3]
            floor = self.boards[i + 1][0] - self.boards[i + 1][2] * 0.45
            self.rows.append((ceiling, floor))
        self.left = W * max(0.0, spec["sides"][0])  # a negative side means the shelf runs past the photo
        self.right = W * (1 - max(0.0, spec["sides"][1]))
        for r, (ceiling, floor) in enumerate(self.rows):
            self.fill_row(r, ceiling, floor)

    def fill_row(self, r, ceiling, floor):
        rng, spec = self.rng, self.spec
        clear = floor - ceiling
        x = self.left + (rng.uniform(-0.03, 0.0) * self.W if spec["sides"][0] < 0 else rng.uniform(0, 0.01) * self.W)
        right = self.right + (0.03 * self.W if spec["sides"][1] < 0 else 0)
        prev = None  # last standing upright book: (right_x, height)
        plan_stack = r in spec.get("stack_rows", [])
        plan_bookend = r in spec.get("bookend_rows", [])
        stack_at = rng.uniform(0.25, 0.75) if plan_stack else None
        bookend_at = rng.uniform(0.3, 0.8) if plan_bookend else None
        lean_next = None
        since_lean = 0  # books since the last leaning one, so lean-heavy photos always get some
        while x < right:
            frac = (x - self.left) / max(1, right - self.left)
            if stack_at is not None and frac >= stack_at and lean_next is None:
                stack_at = None
                x = self.place_stack(r, x + rng.uniform(0.01, 0.03) * self.W, floor, clear) + 4
                prev = None
                continue
            if bookend_at is not None and frac >= bookend_at and lean_next is None:
                bookend_at = None
                x = self.place_bookend(x + rng.uniform(0.0, 0.06) * self.W, floor, clear)
                prev = None
                continue
            if lean_next is None and rng.random() < spec["gaps"]:
                x += rng.uniform(0.03, 0.18) * clear
                prev = None
                continue
            # A series: 2-4 identical spines by one author, or one standalone book.
            run = 1
            author = None
            if rng.random() < spec["series"]:
                author = rng.choice([a for _, a in BOOKS])
                run = rng.randint(2, 4)
            style = self.new_style(clear)
            h = clear * rng.uniform(0.62, 0.95)
            w = clear * rng.choice([rng.uniform(0.04, 0.09), rng.uniform(0.07, 0.14), rng.uniform(0.12, 0.25)])
            if not style.hardcover:
                w = min(w, clear * 0.13)
            if lean_next is not None:  # this book holds up the one leaning on it
                h = max(h, lean_next)
                h = min(h, clear * 0.97)
            for k in range(run):
                if author:
                    tb = self.take(author)
                    if tb is None:
                        break
                else:
                    tb = self.take()
                book = self.new_book(tb[0], tb[1], style, r, w, h)
                lean = None
                since_lean += 1
                if lean_next is None and k == run - 1 and (rng.random() < spec["lean"]
                                                           or since_lean > spec.get("lean_every", 10 ** 6)):
                    lean = rng.choice(["left", "right"]) if prev else "right"
                    since_lean = 0
                if lean == "left":
                    theta = math.radians(rng.uniform(3, 12))
                    hh = min(h, prev[1] / math.cos(theta) * 0.985)
                    book["h"] = hh
                    px = prev[0] + hh * math.sin(theta)  # bottom-left corner: the pivot
                    ux, uy = -math.sin(theta), -math.cos(theta)  # up along the book
                    rx, ry = math.cos(theta), -math.sin(theta)  # across, left to right
                    bl = (px, floor)
                    self.set_poly(book, bl, (ux, uy), (rx, ry))
                    x = px + w * math.cos(theta) + 1
                    prev = None
                elif lean == "right":
                    theta = math.radians(rng.uniform(3, 12))
                    # pivot at the bottom-right corner; the top-right corner rests on the next book
                    brx = x + w * math.cos(theta)
                    ux, uy = math.sin(theta), -math.cos(theta)
                    rx, ry = math.cos(theta), math.sin(theta)
                    bl = (brx - w * rx, floor - w * ry)
                    self.set_poly(book, bl, (ux, uy), (rx, ry))
                    x = brx + h * math.sin(theta) + 1
                    lean_next = h * math.cos(theta) * 1.02
                    prev = None
                else:
                    self.set_poly(book, (x, floor), (0.0, -1.0), (1.0, 0.0))
                    x += w + rng.uniform(0, 3)
                    prev = (x, h)
                    if lean_next is not None and book["h"] >= lean_next * 0.98:
                        lean_next = None
                if lean_next is not None and lean != "right" and book["h"] >= lean_next * 0.98:
                    lean_next = None
                self.books.append(book)
                if x >= right:
                    break

    def set_poly(self, book, bl, up, across):
        w, h = book["w"], book["h"]
        bx, by = bl
        tl = (bx + up[0] * h, by + up[1] * h)
        tr = (tl[0] + across[0] * w, tl[1] + across[1] * w)
        br = (bx + across[0] * w, by + across[1] * w)
        book["poly"] = [tl, tr, br, bl]
        book["lying"] = False

    def place_stack(self, r, x, floor, clear):
        rng = self.rng
        n = rng.randint(2, 5)
        y = floor
        right = x
        base_len = min(clear * rng.uniform(0.6, 0.85), self.W * 0.26)
        for _ in range(n):
            t = clear * rng.uniform(0.06, 0.13)
            if floor - (y - t) > clear * 0.8:
                break
            length = base_len * rng.uniform(0.85, 1.1)
            x0 = x + rng.uniform(-0.04, 0.04) * base_len + 0.04 * base_len
            tb = self.take()
            style = self.new_style(clear)
            book = self.new_book(tb[0], tb[1], style, r, t, length)
            book["direction"] = "horizontal"
            book["lying"] = True
            # Seen lying on its back cover: the spine's top is its left end.
            book["poly"] = [(x0, y - t), (x0 + length, y - t), (x0 + length, y), (x0, y)]
            self.books.append(book)
            right = max(right, x0 + length)
            y -= t
        return right

    def place_bookend(self, x, floor, clear):
        w = clear * 0.035
        h = clear * self.rng.uniform(0.45, 0.6)
        self.bookends.append([(x, floor - h), (x + w, floor - h), (x + w, floor), (x, floor)])
        return x + w + 2


# --------------------------------------------------------------------------------------------------------------
# Painting the scene.

def smooth_noise(rng, shape, scale):
    """Low-frequency noise in [-1, 1] by upsampling a coarse random grid."""
    h, w = shape
    gh, gw = max(2, h // scale), max(2, w // scale)
    g = (rng.random((gh, gw)) * 255).astype(np.uint8)
    im = Image.fromarray(g).resize((w, h), Image.BICUBIC)
    return np.asarray(im, np.float32) / 127.5 - 1.0


def paint_background(scene, nrng):
    spec = scene.spec
    W, H = scene.W, scene.H
    panel = np.array(spec["panel"], np.float32)
    img = np.empty((H, W, 3), np.float32)
    img[:] = panel
    if spec.get("wood"):
        yy = np.arange(H, dtype=np.float32)[:, None]
        xx = np.arange(W, dtype=np.float32)[None, :]
        warp = smooth_noise(nrng, (H, W), 400) * 40
        grain = np.sin((xx + warp * 3) / 9.0 + np.sin(yy / 300.0) * 2) * 0.5 + 0.5
        img *= (0.9 + 0.1 * grain)[:, :, None]
    img *= (1.0 + 0.04 * smooth_noise(nrng, (H, W), 300))[:, :, None]
    return img


def paint_boards(scene, draw, rng):
    spec = scene.spec
    W = scene.W
    board = spec["board"]
    lighter = tuple(min(255, int(c * 1.08 + 8)) for c in board)
    darker = tuple(int(c * 0.7) for c in board)
    for (y, bt, surface, under) in scene.boards:
        if surface > 0:
            draw.rectangle([0, y - surface, W, y], fill=lighter)
        draw.rectangle([0, y, W, y + bt], fill=board)
        draw.line([(0, y), (W, y)], fill=tuple(min(255, c + 30) for c in board), width=3)
        draw.rectangle([0, y + bt - 3, W, y + bt], fill=darker)
        if under > 0:
            draw.rectangle([0, y + bt, W, y + bt + under], fill=darker)
    for side, frac in (("l", spec["sides"][0]), ("r", spec["sides"][1])):
        if frac <= 0:
            continue
        pw = frac * W
        x0, x1 = (0, pw) if side == "l" else (W - pw, W)
        draw.rectangle([x0, 0, x1, scene.H], fill=board)
        inner = x1 if side == "l" else x0
        draw.line([(inner, 0), (inner, scene.H)], fill=darker, width=4)


def shadow_mask(scene, rng):
    """Soft shadows cast on the back panel by books and boards, computed at 1/8 size."""
    f = 8
    w, h = scene.W // f, scene.H // f
    m = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(m)
    dx, dy = scene.spec["light_dir"]
    off = (dx * scene.W * 0.006, dy * scene.H * 0.006)
    for b in scene.books:
        d.polygon([((px + off[0]) / f, (py + off[1]) / f) for px, py in b["poly"]], fill=150)
    for p in scene.bookends:
        d.polygon([((px + off[0]) / f, (py + off[1]) / f) for px, py in p], fill=170)
    for (ceiling, floor) in scene.rows:  # the board above shades the top of each row
        for k in range(10):
            d.rectangle([0, (ceiling + k * scene.H * 0.006) / f, w, (ceiling + (k + 1) * scene.H * 0.006) / f],
                        fill=int(110 * (1 - k / 10)))
    m = m.filter(ImageFilter.GaussianBlur(scene.H * 0.004))
    return m.resize((scene.W, scene.H), Image.BILINEAR)


def paint_top_face(draw, scene, book):
    """Below the camera's eye line the top edge of a standing book (page block between the boards) shows."""
    if book["lying"]:
        return
    tl, tr, br, bl = book["poly"]
    t = max(0.0, (bl[1] - scene.eye) / scene.H) * 0.07 * book["h"]
    if t < 2:
        return
    pages = (232, 224, 200)
    cover = tuple(int(c * 0.8) for c in book["style"].colour)
    draw.polygon([(tl[0] + 2, tl[1] - t), (tr[0] - 2, tr[1] - t), tr, tl], fill=cover)
    e = max(2.0, (tr[0] - tl[0]) * 0.08)
    draw.polygon([(tl[0] + e, tl[1] - t * 0.9), (tr[0] - e, tr[1] - t * 0.9), (tr[0] - e, tr[1]), (tl[0] + e, tl[1])],
                 fill=pages)


def ceiling_shade(scene):
    """The board above each row darkens the top of the row, books included."""
    f = 8
    m = Image.new("L", (scene.W // f, scene.H // f), 0)
    d = ImageDraw.Draw(m)
    for (ceiling, floor) in scene.rows:
        span = (floor - ceiling) * 0.35
        for k in range(12):
            d.rectangle([0, (ceiling + k * span / 12) / f, m.width, (ceiling + (k + 1) * span / 12) / f],
                        fill=int(255 * (1 - k / 12) ** 2))
    m = m.filter(ImageFilter.GaussianBlur(3))
    return m.resize((scene.W, scene.H), Image.BILINEAR)


def paste_book(canvas, book, rng):
    (tl, tr, br, bl) = book["poly"]
    spine = render_spine(book, book["w"], book["h"], rng)
    if book["lying"]:
        spine = spine.transpose(Image.ROTATE_90)  # spine top to the left, text reading left to right
        cx = (tl[0] + br[0]) / 2
        cy = (tl[1] + br[1]) / 2
    else:
        angle = math.degrees(math.atan2(tr[1] - tl[1], tr[0] - tl[0]))  # clockwise tilt in image coordinates
        if abs(angle) > 0.01:
            spine = spine.rotate(-angle, resample=Image.BICUBIC, expand=True)
        cx = sum(p[0] for p in book["poly"]) / 4
        cy = sum(p[1] for p in book["poly"]) / 4
    canvas.alpha_composite(spine, (int(round(cx - spine.width / 2)), int(round(cy - spine.height / 2))))


def paint_bookend(draw, poly):
    (x0, y0), _, (x1, y1), _ = poly
    draw.rectangle([x0, y0, x1, y1], fill=(70, 72, 78))
    draw.rectangle([x0 + (x1 - x0) * 0.2, y0, x0 + (x1 - x0) * 0.35, y1], fill=(120, 122, 130))
    draw.rectangle([x0 - (x1 - x0) * 2.5, y1 - 6, x1, y1], fill=(60, 62, 66))


# --------------------------------------------------------------------------------------------------------------
# Camera: homography, lighting, blur, noise.

def homography(src, dst):
    """3x3 H with H @ src = dst (4 point pairs)."""
    a = []
    for (x, y), (u, v) in zip(src, dst):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    _, _, vt = np.linalg.svd(np.array(a, np.float64))
    hm = vt[-1].reshape(3, 3)
    return hm / hm[2, 2]


def apply_h(hm, pts):
    out = []
    for x, y in pts:
        u, v, w = hm @ np.array([x, y, 1.0])
        out.append((u / w, v / w))
    return out


def lighting(scene, nrng):
    spec = scene.spec
    W, H = scene.W, scene.H
    yy = np.linspace(-1, 1, H, dtype=np.float32)[:, None]
    xx = np.linspace(-1, 1, W, dtype=np.float32)[None, :]
    gx, gy = spec["gradient"]
    g = 1.0 + gx * xx + gy * yy
    g = g - 0.18 * (xx ** 2 + yy ** 2) * spec.get("vignette", 1.0)
    return g


def render(spec, out_dir, overlay_dir=None):
    seed = spec["seed"]
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    scene = Scene(spec, rng)
    scene.layout()

    img = paint_background(scene, nrng)
    shade = np.asarray(shadow_mask(scene, rng), np.float32) / 255.0
    img *= (1.0 - 0.55 * shade)[:, :, None]
    canvas = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8)).convert("RGBA")
    draw = ImageDraw.Draw(canvas)
    paint_boards(scene, draw, rng)
    for b in scene.books:
        paint_top_face(draw, scene, b)
    for b in scene.books:
        paste_book(canvas, b, rng)
    ceiling = np.asarray(ceiling_shade(scene), np.float32) / 255.0
    arr = np.asarray(canvas.convert("RGB"), np.float32) * (1.0 - 0.3 * ceiling)[:, :, None]
    canvas = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8)).convert("RGBA")
    draw = ImageDraw.Draw(canvas)
    for p in scene.bookends:
        paint_bookend(draw, p)
    photo = canvas.convert("RGB")

    # Mild perspective: the output's corners look at an inset, slightly skewed quad of the scene.
    W, H = scene.W, scene.H
    k = spec["perspective"]
    corners = [(0, 0), (W, 0), (W, H), (0, H)]
    src = [(W * (rng.uniform(0.2, 1) * k if i in (0, 3) else 1 - rng.uniform(0.2, 1) * k),
            H * (rng.uniform(0.2, 1) * k if i in (0, 1) else 1 - rng.uniform(0.2, 1) * k))
           for i, _ in enumerate(corners)]
    out_to_scene = homography(corners, src)
    scene_to_out = np.linalg.inv(out_to_scene)
    coeffs = (out_to_scene / out_to_scene[2, 2]).flatten()[:8]
    photo = photo.transform((W, H), Image.PERSPECTIVE, tuple(coeffs), Image.BICUBIC)

    arr = np.asarray(photo, np.float32)
    arr *= lighting(scene, nrng)[:, :, None]
    arr *= np.array(spec.get("tint", (1.0, 1.0, 1.0)), np.float32)[None, None, :]
    photo = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    photo = photo.filter(ImageFilter.GaussianBlur(spec.get("blur", 0.8)))
    if spec["noise"] > 0:
        arr = np.asarray(photo, np.int16)
        grain = nrng.normal(0, spec["noise"], (H, W, 1)).astype(np.float32)  # luma noise
        chroma = nrng.normal(0, spec["noise"] * 0.4, (H, W, 3)).astype(np.float32)
        arr = arr + np.round(grain + chroma).astype(np.int16)
        photo = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))

    # Ground truth in upright output pixels.
    spines = []
    for b in scene.books:
        poly = apply_h(scene_to_out, b["poly"])
        inside = all(0 <= x <= W - 1 and 0 <= y <= H - 1 for x, y in poly)
        if all(x < 0 or x > W - 1 for x, _ in poly) or all(y < 0 or y > H - 1 for _, y in poly):
            continue  # entirely outside the photo
        clamped = [[int(round(min(W - 1, max(0, x)))), int(round(min(H - 1, max(0, y))))] for x, y in poly]
        xs = [p[0] for p in clamped]
        ys = [p[1] for p in clamped]
        if max(xs) - min(xs) < 8:
            continue  # a sliver at the edge
        spines.append({
            "polygon": clamped,
            "bbox": [min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)],
            "title": b["title"], "author": b["author"], "lying": b["lying"], "row": b["row"],
            "partial": not inside, "direction": b["direction"],
        })

    name = spec["name"]
    stem = os.path.splitext(name)[0]
    gt = {"image": name, "width": W, "height": H, "spines": spines}
    with open(os.path.join(out_dir, stem + ".json"), "w") as f:
        json.dump(gt, f, indent=1, ensure_ascii=False)
        f.write("\n")

    orientation = spec.get("orientation", 1)
    stored = {1: photo, 3: photo.transpose(Image.ROTATE_180),
              6: photo.transpose(Image.ROTATE_90),  # viewer turns it 90 degrees clockwise
              8: photo.transpose(Image.ROTATE_270)}[orientation]
    path = os.path.join(out_dir, name)
    if name.endswith(".png"):
        if spec.get("palette"):
            stored = stored.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        stored.save(path, optimize=True)
    else:
        exif = Image.Exif()
        exif[0x0112] = orientation
        exif[0x010F] = "ShelfScan samples"  # Make
        exif[0x0110] = "generate.py"  # Model
        stored.save(path, quality=spec.get("quality", 80), exif=exif)

    if overlay_dir:
        os.makedirs(overlay_dir, exist_ok=True)
        s = 1400 / max(W, H)
        ov = photo.resize((int(W * s), int(H * s)), Image.BILINEAR)
        d = ImageDraw.Draw(ov)
        for sp in spines:
            colour = (255, 0, 255) if sp["partial"] else (0, 255, 0) if not sp["lying"] else (255, 160, 0)
            pts = [(x * s, y * s) for x, y in sp["polygon"]]
            d.line(pts + [pts[0]], fill=colour, width=2)
            d.ellipse([pts[0][0] - 3, pts[0][1] - 3, pts[0][0] + 3, pts[0][1] + 3], fill=(255, 0, 0))
        ov.save(os.path.join(overlay_dir, stem + "-overlay.png"))
    return len(spines)


# --------------------------------------------------------------------------------------------------------------
# The photo set. Sizes are upright; orientation 6/8 photos are portrait phones held upright.

WOOD = (150, 108, 68)
OAK = (186, 146, 98)
WHITE = (228, 226, 220)
GREY = (176, 178, 180)
DARK = (78, 52, 36)


def photo_specs(seed):
    base = dict(btt=0.3, labels=0.0, series=0.12, lean=0.06, gaps=0.03, text_px=(30, 46), sides=(-1, -1),
                perspective=0.02, noise=3.0, gradient=(0.08, -0.05), light_dir=(1, 1), quality=80)
    specs = [
        # 01: the README demo, an ordinary two-row home bookcase, upright.
        dict(size=(4000, 3000), rows=2, panel=OAK, board=OAK, wood=True, labels=0.0, lean=0.08,
             stack_rows=[], bookend_rows=[]),
        # 02: library shelving, white metal, call-number labels, portrait phone (EXIF 6).
        dict(size=(3024, 4032), orientation=6, rows=3, panel=WHITE, board=WHITE, labels=0.85, btt=0.5,
             gradient=(-0.1, 0.08), bookend_rows=[1], lean=0.05),
        # 03: one row close-up, leaning books and a bookend.
        dict(size=(4000, 3000), rows=1, panel=WOOD, board=WOOD, wood=True, lean=0.2, lean_every=4, gaps=0.06,
             text_px=(45, 60), bookend_rows=[0], top=0.12, bottom=0.12),
        # 04: four rows, portrait (EXIF 8), dark wood, dim light.
        dict(size=(3024, 4032), orientation=8, rows=4, panel=DARK, board=DARK, wood=True, gradient=(0.15, 0.1),
             noise=4.0, tint=(1.05, 0.98, 0.88), stack_rows=[2]),
        # 05: upside-down phone (EXIF 3), two rows with a flat stack.
        dict(size=(4000, 3000), orientation=3, rows=2, panel=GREY, board=WHITE, stack_rows=[1], labels=0.3,
             perspective=0.03),
        # 06: series runs: many identical adjacent spines.
        dict(size=(4000, 3000), rows=2, panel=OAK, board=OAK, wood=True, series=0.55, lean=0.04),
        # 07: three rows, strong side light, side panels visible (no partial books at the edges).
        dict(size=(4000, 3000), rows=3, panel=WHITE, board=WOOD, sides=(0.04, 0.05), gradient=(0.3, 0.0),
             light_dir=(-1, 1), labels=0.4, bookend_rows=[2]),
        # 08: lots of gaps and leaning books, mostly bottom-to-top text (continental editions).
        dict(size=(4000, 3000), rows=2, panel=WOOD, board=WOOD, wood=True, gaps=0.12, lean=0.22, lean_every=6, btt=0.8,
             stack_rows=[0]),
        # 09: portrait phone (EXIF 6), four rows of paperbacks, warm light.
        dict(size=(3024, 4032), orientation=6, rows=4, panel=OAK, board=OAK, wood=True, hardcovers=0.1,
             tint=(1.06, 1.0, 0.9), stack_rows=[3]),
        # 10: hardcover-heavy study, stronger perspective, larger text.
        dict(size=(4000, 3000), rows=2, panel=DARK, board=WOOD, wood=True, hardcovers=0.9, perspective=0.04,
             text_px=(40, 60)),
        # 11: noisy low-light shot, lower JPEG quality.
        dict(size=(4000, 3000), rows=3, panel=GREY, board=GREY, noise=6.0, quality=72, gradient=(-0.2, -0.15),
             labels=0.5),
        # 12: 3000 px wide landscape, single row with a stack and a bookend.
        dict(size=(3000, 2250), rows=1, panel=WHITE, board=OAK, stack_rows=[0], bookend_rows=[0], lean=0.12, lean_every=3,
             text_px=(34, 50), top=0.08, bottom=0.1),
        # 13: PNG (palette), two rows, no noise.
        dict(size=(3000, 2250), rows=2, panel=OAK, board=OAK, noise=0.0, palette=True, lean=0.1,
             stack_rows=[1]),
        # 14: PNG (palette), three rows, library labels.
        dict(size=(3000, 2250), rows=3, panel=WHITE, board=WHITE, noise=0.0, palette=True, labels=0.8,
             btt=0.5, bookend_rows=[0]),
    ]
    out = []
    for i, s in enumerate(specs, 1):
        spec = dict(base)
        spec.update(s)
        spec["seed"] = seed * 1000 + i
        spec["name"] = f"shelf-{i:02d}." + ("png" if i >= 13 else "jpg")
        out.append(spec)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--out", default=HERE)
    ap.add_argument("--only", type=int, nargs="*", help="photo numbers to (re)generate")
    ap.add_argument("--overlay", help="also write ground-truth overlays (downscaled PNGs) to this folder")
    args = ap.parse_args()
    for i, spec in enumerate(photo_specs(args.seed), 1):
        if args.only and i not in args.only:
            continue
        n = render(spec, args.out, args.overlay)
        size = os.path.getsize(os.path.join(args.out, spec["name"]))
        print(f"{spec['name']}: {spec['size'][0]}x{spec['size'][1]} orientation {spec.get('orientation', 1)}, "
              f"{n} spines, {size / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
