#!/usr/bin/env python3
"""Builds the tiny decoder fixtures and their reference pixels into Tests/ShelfImageTests/Fixtures.

Every fixture is 16x12 (stored), drawn from one asymmetric pattern so a wrong rotation or flip shows.
Reference pixels come from Pillow (the reference decoder), made upright with ImageOps.exif_transpose and
composited onto white where there is alpha, and are saved as binary PPM next to the fixture
(`NAME.EXT.ref.ppm`). Pillow cannot write YCCK, Adobe-less CMYK, 16-bit RGB or interlaced PNGs, so those are
written by ycck.c (libjpeg) and a small PNG writer below; Pillow still decodes them for the reference.
"""
import io, os, struct, subprocess, sys, tempfile, zlib
import numpy as np
from PIL import Image, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', '..', 'Tests', 'ShelfImageTests', 'Fixtures')
W, H = 16, 12


def pattern():
    """Four coloured quadrants, a gradient bar and a dark corner mark: no symmetry at all."""
    a = np.zeros((H, W, 3), np.uint8)
    a[:6, :8] = (220, 40, 40)
    a[:6, 8:] = (40, 180, 60)
    a[6:, :8] = (40, 60, 200)
    a[6:, 8:] = (240, 220, 60)
    a[5:7, :, 0] = np.linspace(0, 255, W).astype(np.uint8)
    a[5:7, :, 1] = 128
    a[5:7, :, 2] = 255 - np.linspace(0, 255, W).astype(np.uint8)
    a[0:3, 0:3] = (10, 10, 10)
    return a


def alpha_ramp():
    x = np.linspace(0, 255, W)[None, :].repeat(H, 0)
    a = x.astype(np.uint8)
    a[:, :2] = 0
    a[:, -2:] = 255
    return a


def over_white(rgba):
    rgba = rgba.astype(np.uint32)
    a = rgba[..., 3:4]
    return ((rgba[..., :3] * a + 255 * (255 - a) + 127) // 255).astype(np.uint8)


def write_ppm(path, rgb):
    h, w, _ = rgb.shape
    with open(path, 'wb') as f:
        f.write(b'P6\n%d %d\n255\n' % (w, h))
        f.write(np.ascontiguousarray(rgb, np.uint8).tobytes())


def reference(path):
    """Pillow's upright RGB for a fixture, alpha laid over white, 16-bit gray scaled by 257."""
    im = Image.open(path)
    im = ImageOps.exif_transpose(im)
    if im.mode in ('I;16', 'I;16B', 'I'):
        v = np.array(im).astype(np.float64)
        g = np.clip(np.round(v / 257.0), 0, 255).astype(np.uint8)
        return np.stack([g, g, g], -1)
    if im.mode in ('RGBA', 'LA', 'PA') or (im.mode == 'P' and 'transparency' in im.info) or \
            (im.mode in ('L', 'RGB', '1') and 'transparency' in im.info):
        return over_white(np.array(im.convert('RGBA')))
    return np.array(im.convert('RGB'))


def png_chunk(tag, data):
    return struct.pack('>I', len(data)) + tag + data + struct.pack('>I', zlib.crc32(tag + data) & 0xffffffff)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def write_png(path, arr, color_type, bit_depth, interlace=False):
    """Minimal PNG writer (filter 0) for what Pillow cannot write: 16-bit RGB(A), Adam7 interlacing."""
    h, w = arr.shape[:2]
    arr = arr.reshape(h, w, -1)
    dtype = '>u2' if bit_depth == 16 else 'u1'

    def rows(sub):
        return b''.join(b'\x00' + sub[y].astype(dtype).tobytes() for y in range(sub.shape[0]))

    if interlace:
        raw = b''
        for x0, y0, dx, dy in ADAM7:
            sub = arr[y0::dy, x0::dx]
            if sub.shape[0] and sub.shape[1]:
                raw += rows(sub)
    else:
        raw = rows(arr)
    ihdr = struct.pack('>IIBBBBB', w, h, bit_depth, color_type, 0, 0, 1 if interlace else 0)
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + png_chunk(b'IHDR', ihdr) + png_chunk(b'IDAT', zlib.compress(raw, 9))
                + png_chunk(b'IEND', b''))


def exif_bytes(orientation, big_endian=False):
    """A minimal TIFF block with one IFD0 entry: Orientation (0x0112, SHORT)."""
    e = '>' if big_endian else '<'
    head = (b'MM' if big_endian else b'II') + struct.pack(e + 'HI', 42, 8)
    ifd = struct.pack(e + 'H', 1) + struct.pack(e + 'HHIHH', 0x0112, 3, 1, orientation, 0) + struct.pack(e + 'I', 0)
    return head + ifd


def main():
    base = pattern()
    im = Image.fromarray(base)
    os.makedirs(OUT, exist_ok=True)
    out = lambda n: os.path.join(OUT, n)
    made = []

    def save(name, fn):
        fn(out(name))
        made.append(name)

    # JPEG: subsamplings, progressive, gray, CMYK (Adobe, inverted), YCCK, Adobe-less CMYK.
    save('baseline-444.jpg', lambda p: im.save(p, quality=95, subsampling=0))
    save('baseline-422.jpg', lambda p: im.save(p, quality=95, subsampling=1))
    save('baseline-420.jpg', lambda p: im.save(p, quality=95, subsampling=2))
    with tempfile.TemporaryDirectory() as t:
        ppm = os.path.join(t, 'p.ppm')
        write_ppm(ppm, base)
        for name, sample in (('baseline-440.jpg', '1x2'), ('baseline-411.jpg', '4x1'), ('baseline-410.jpg', '4x2'),
                             ('mixed-sampling.jpg', '2x1,1x2,1x1'), ('sampling-3x1.jpg', '3x1')):
            subprocess.run(['cjpeg', '-quality', '95', '-sample', sample, '-outfile', out(name), ppm], check=True)
            made.append(name)
        tool = os.path.join(t, 'ycck')
        subprocess.run(['cc', '-O1', '-o', tool, os.path.join(HERE, 'ycck.c'), '-ljpeg'], check=True)
        # Adobe convention: the stored CMYK values are inverted (255 = no ink).
        cmyk_inverted = 255 - np.array(im.convert('CMYK'))
        for name, mode in (('ycck.jpg', 'ycck'), ('cmyk-no-adobe.jpg', 'cmyk-plain')):
            r = subprocess.run([tool, mode, str(W), str(H)], input=cmyk_inverted.tobytes(), capture_output=True, check=True)
            open(out(name), 'wb').write(r.stdout)
            made.append(name)
    save('progressive.jpg', lambda p: im.save(p, quality=95, progressive=True))
    save('gray.jpg', lambda p: im.convert('L').save(p, quality=95))
    save('cmyk-adobe.jpg', lambda p: im.convert('CMYK').save(p, quality=95))
    for o in range(1, 9):
        ex = Image.Exif()
        ex[0x0112] = o
        save(f'orientation-{o}.jpg', lambda p, ex=ex: im.save(p, quality=95, subsampling=0, exif=ex.tobytes()))
    save('orientation-6-bigendian.jpg',
         lambda p: im.save(p, quality=95, subsampling=0, exif=b'Exif\x00\x00' + exif_bytes(6, True)))

    # PNG: every colour type, bit depths, tRNS, interlacing, eXIf.
    rgba = np.dstack([base, alpha_ramp()])
    gray = np.array(im.convert('L'))
    save('rgb.png', lambda p: im.save(p))
    save('rgba.png', lambda p: Image.fromarray(rgba, 'RGBA').save(p))
    save('gray.png', lambda p: Image.fromarray(gray, 'L').save(p))
    save('gray-1bit.png', lambda p: Image.fromarray(gray, 'L').convert('1').save(p))
    save('gray-alpha.png', lambda p: Image.fromarray(np.dstack([gray, alpha_ramp()]), 'LA').save(p))
    pal = im.quantize(8)
    save('palette.png', lambda p: pal.save(p))
    save('palette-trns.png', lambda p: pal.save(p, transparency=bytes([0, 255, 128, 64, 255, 255, 200, 30])))
    g16 = (gray.astype(np.uint16) * 257 + np.arange(W, dtype=np.uint16)[None, :] * 7)
    save('gray-16.png', lambda p: write_png(p, g16, 0, 16))
    rgb16 = base.astype(np.uint16) * 257 + np.arange(W, dtype=np.uint16)[None, :, None] * 5
    save('rgb-16.png', lambda p: write_png(p, rgb16, 2, 16))
    rgba16 = np.dstack([rgb16, alpha_ramp().astype(np.uint16) * 257])
    save('rgba-16.png', lambda p: write_png(p, rgba16, 6, 16))
    save('rgb-interlaced.png', lambda p: write_png(p, base, 2, 8, interlace=True))
    save('rgba-interlaced.png', lambda p: write_png(p, rgba, 6, 8, interlace=True))
    save('orientation-8.png', lambda p: im.save(p, exif=exif_bytes(8)))

    for name in made:
        ref = reference(out(name))
        if name == 'cmyk-no-adobe.jpg':
            # Pillow assumes Adobe's inverted CMYK for every CMYK JPEG. Without the APP14 marker the values
            # are plain ink amounts (as Firefox reads them), so undo Pillow's inversion for the reference.
            ink = 255 - np.array(Image.open(out(name))).astype(np.uint32)  # stored values
            light = 255 - ink
            k = light[..., 3:4]
            ref = ((light[..., :3] * k + 127) // 255).astype(np.uint8)
        write_ppm(out(name + '.ref.ppm'), ref)
    print(f'{len(made)} fixtures in {os.path.normpath(OUT)}')


if __name__ == '__main__':
    main()
