"""Turns ShelfScan's own detections on licensed photos into training truth for the spine model.

    .build/release/shelfscan scan --reader none --dry-run --json PHOTO... > scan.jsonl
    python3 scripts/spine-model/truth-from-scan.py scan.jsonl --out DIR [--long-side 1600] [--sure 0.8]

For each photo it writes DIR/NAME.jpg (turned upright as its EXIF says, shrunk to --long-side) and DIR/NAME.json in
the form train.py's --real reads (pixel polygons; "partial" marks a spine the network is neither taught to find
nor taught to pass over). A box the detector is less than --sure of is written as partial: a wrong box is then
no lesson either way, and a book the detector missed is taught as background, which is why only photos where it
misses little (rows seen close up, packed shelves) are worth feeding.

Only photos whose licence allows training belong here (docs/detection.md lists them): the
Dianaaaa/book-spine-segmentation photos (MIT) and MinHanLiWesley/book-spine-recognition's test photos
(Apache-2.0). Training only: nothing here is needed to build, run or test ShelfScan.
"""

import argparse
import json
import os

from PIL import Image, ImageOps


def main():
    p = argparse.ArgumentParser()
    p.add_argument("scan", help="the JSON lines `shelfscan scan --json` printed")
    p.add_argument("--out", required=True)
    p.add_argument("--long-side", type=int, default=1600)
    p.add_argument("--sure", type=float, default=0.8)
    p.add_argument("--margin", type=float, default=0.03, help="the photo is cut to its boxes and this share beyond")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for line in open(a.scan):
        books = json.loads(line)["data"]["detectedBooks"]
        if not books:
            continue
        photo = books[0]["work"]["originalImagePath"]
        img = ImageOps.exif_transpose(Image.open(photo)).convert("RGB")
        full_w, full_h = img.size
        # Cut to where the boxes are: a bay of books beside them that the detector passed over would be taught
        # as background.
        xs = [x * img.width for b in books for x, _ in b["polygon"]]
        ys = [y * img.height for b in books for _, y in b["polygon"]]
        m = a.margin * max(img.size)
        left, top = max(0, int(min(xs) - m)), max(0, int(min(ys) - m))
        img = img.crop((left, top, min(img.width, int(max(xs) + m)), min(img.height, int(max(ys) + m))))
        scale = min(1.0, a.long_side / max(img.size))
        img = img.resize((round(img.width * scale), round(img.height * scale)), Image.LANCZOS)
        name = os.path.splitext(os.path.basename(photo))[0]
        img.save(os.path.join(a.out, name + ".jpg"), quality=88)
        spines = []
        for b in books:
            poly = [[round((x * full_w - left) * scale, 1), round((y * full_h - top) * scale, 1)] for x, y in b["polygon"]]
            spines.append({"polygon": poly, "partial": b["confidence"] < a.sure})
        json.dump({"image": name + ".jpg", "width": img.width, "height": img.height, "spines": spines}, open(os.path.join(a.out, name + ".json"), "w"))
        print("%s: %d spines, %d sure" % (name, len(spines), sum(not s["partial"] for s in spines)))


if __name__ == "__main__":
    main()
