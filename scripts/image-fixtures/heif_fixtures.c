/*
 * Writes the HEIC decoder fixtures (and the raw inputs cwebp/webpmux/img2webp turn into WebP fixtures)
 * for make-heif-webp.sh. heif-enc cannot write irot/imir transforms, 10-bit from raw samples, or an EXIF
 * block next to a transform, so the HEICs are encoded here through libheif's own encoder API (x265), the
 * same library heif-enc wraps.
 *
 * Every image is drawn from one asymmetric pattern (four coloured quadrants, a gradient bar, a dark corner
 * mark) so a wrong rotation or mirror shows. The eight orientation fixtures carry the same stored pixels
 * and differ only in their irot/imir boxes, so each must decode to orientation-1 turned by that EXIF value.
 *
 * Build: cc heif_fixtures.c $(pkg-config --cflags --libs libheif) -o heif_fixtures; run: heif_fixtures OUTDIR
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libheif/heif.h>

#define W 64
#define H 48

/* 16-bit value (0..65535) of channel c at (x, y); 8-bit images use the top byte, 10-bit the top 10 bits. */
static unsigned pattern16(int x, int y, int c) {
    static const unsigned quad[4][3] = {{220, 40, 40}, {40, 180, 60}, {40, 60, 200}, {240, 220, 60}};
    unsigned v;
    if (x < 12 && y < 12) {
        v = 10 * 257;
    } else if (y >= H / 2 - 4 && y < H / 2 + 4) {
        /* A smooth ramp: 10-bit keeps steps that 8-bit rounds away. */
        unsigned ramp = (unsigned)((65535.0 * x) / (W - 1));
        v = c == 0 ? ramp : c == 1 ? 32768 : 65535 - ramp;
    } else {
        v = quad[(y >= H / 2) * 2 + (x >= W / 2)][c] * 257;
    }
    return v;
}

static unsigned alpha8(int x, int y) {
    (void)y;
    if (x < 4) return 0;
    if (x >= W - 4) return 255;
    return (unsigned)(255 * x / (W - 1));
}

static void check(struct heif_error e, const char *what) {
    if (e.code != heif_error_Ok) {
        fprintf(stderr, "heif_fixtures: %s: %s\n", what, e.message);
        exit(1);
    }
}

static struct heif_image *make_image(int width, int height, int alpha, int bits) {
    struct heif_image *img;
    enum heif_chroma chroma = bits > 8 ? heif_chroma_interleaved_RRGGBB_LE
                              : alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB;
    check(heif_image_create(width, height, heif_colorspace_RGB, chroma, &img), "heif_image_create");
    check(heif_image_add_plane(img, heif_channel_interleaved, width, height, bits), "heif_image_add_plane");
    int stride;
    uint8_t *p = heif_image_get_plane(img, heif_channel_interleaved, &stride);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            /* Larger images repeat the pattern scaled up, so a thumbnail looks like its image. */
            int px = x * W / width, py = y * H / height;
            if (bits > 8) {
                uint8_t *o = p + y * stride + x * 6;
                for (int c = 0; c < 3; c++) {
                    unsigned v = pattern16(px, py, c) >> (16 - bits);
                    o[2 * c] = (uint8_t)(v & 0xFF);
                    o[2 * c + 1] = (uint8_t)(v >> 8);
                }
            } else {
                uint8_t *o = p + y * stride + x * (alpha ? 4 : 3);
                for (int c = 0; c < 3; c++) o[c] = (uint8_t)(pattern16(px, py, c) >> 8);
                if (alpha) o[3] = (uint8_t)alpha8(px, py);
            }
        }
    return img;
}

/* A big-endian TIFF block with IFD0 holding only Orientation. */
static size_t exif_orientation(uint8_t *b, int orientation) {
    static const uint8_t head[] = {'M', 'M', 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1};
    memcpy(b, head, sizeof head);
    size_t n = sizeof head;
    b[n++] = 0; b[n++] = (uint8_t)orientation; b[n++] = 0; b[n++] = 0; /* value, padded */
    b[n++] = 0; b[n++] = 0; b[n++] = 0; b[n++] = 0;                   /* no next IFD */
    return n;
}

static void write_heic(const char *dir, const char *name, struct heif_image *img, int orientation, int with_exif,
                       int thumbnail_bbox) {
    struct heif_context *ctx = heif_context_alloc();
    struct heif_encoder *enc;
    check(heif_context_get_encoder_for_format(ctx, heif_compression_HEVC, &enc), "HEVC encoder");
    check(heif_encoder_set_lossy_quality(enc, 90), "quality");
    struct heif_encoding_options *options = heif_encoding_options_alloc();
    options->image_orientation = (enum heif_orientation)orientation;
    struct heif_image_handle *handle;
    check(heif_context_encode_image(ctx, img, enc, options, &handle), "encode");
    if (with_exif) {
        uint8_t exif[64];
        size_t n = exif_orientation(exif, orientation);
        check(heif_context_add_exif_metadata(ctx, handle, exif, (int)n), "exif");
    }
    if (thumbnail_bbox > 0) {
        struct heif_image_handle *thumb;
        check(heif_context_encode_thumbnail(ctx, img, handle, enc, options, thumbnail_bbox, &thumb), "thumbnail");
        if (thumb) heif_image_handle_release(thumb);
    }
    heif_encoding_options_free(options);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    check(heif_context_write_to_file(ctx, path), path);
    heif_image_handle_release(handle);
    heif_encoder_release(enc);
    heif_context_free(ctx);
}

/* Binary PPM (P6) or PAM with alpha: the raw inputs for cwebp and img2webp. */
static void write_pnm(const char *dir, const char *name, int alpha, int inverted) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) { perror(path); exit(1); }
    if (alpha) fprintf(f, "P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n", W, H);
    else fprintf(f, "P6\n%d %d\n255\n", W, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            for (int c = 0; c < 3; c++) {
                unsigned v = pattern16(x, y, c) >> 8;
                fputc(inverted ? 255 - (int)v : (int)v, f);
            }
            if (alpha) fputc((int)alpha8(x, y), f);
        }
    fclose(f);
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: heif_fixtures OUTDIR\n"); return 2; }
    const char *dir = argv[1];
    check(heif_init(NULL), "heif_init");
    struct heif_image *rgb = make_image(W, H, 0, 8);
    char name[64];
    for (int o = 1; o <= 8; o++) {
        snprintf(name, sizeof name, "heic-orientation-%d.heic", o);
        write_heic(dir, name, rgb, o, 0, 0);
    }
    /* irot/imir for orientation 6 plus EXIF saying 6 as well, as phones write it: must turn once. */
    write_heic(dir, "heic-orientation-6-exif.heic", rgb, 6, 1, 0);
    heif_image_release(rgb);

    struct heif_image *rgba = make_image(W, H, 1, 8);
    write_heic(dir, "heic-alpha.heic", rgba, 1, 0, 0);
    heif_image_release(rgba);

    struct heif_image *deep = make_image(W, H, 0, 10);
    write_heic(dir, "heic-10bit.heic", deep, 1, 0, 0);
    heif_image_release(deep);

    /* 256x192 with a 128x96 thumbnail: a 1/2 decode may use the thumbnail, 1/1 must not. */
    struct heif_image *big = make_image(4 * W, 4 * H, 0, 8);
    write_heic(dir, "heic-thumbnail.heic", big, 1, 0, 128);
    heif_image_release(big);

    write_pnm(dir, "pattern.ppm", 0, 0);
    write_pnm(dir, "pattern-inverted.ppm", 0, 1);
    write_pnm(dir, "pattern-alpha.pam", 1, 0);
    uint8_t exif[64];
    size_t n = exif_orientation(exif, 6);
    snprintf(name, sizeof name, "%s/exif-6.tiff", dir);
    FILE *f = fopen(name, "wb");
    if (!f || fwrite(exif, 1, n, f) != n) { perror(name); return 1; }
    fclose(f);
    heif_deinit();
    return 0;
}
