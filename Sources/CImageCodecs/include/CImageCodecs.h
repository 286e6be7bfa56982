#ifndef SHELF_IMAGE_CODECS_H
#define SHELF_IMAGE_CODECS_H
/*
 * Why this shim exists: libjpeg reports fatal errors through error_exit, which must not return, and
 * libpng's classic API longjmps. A longjmp that crosses Swift frames is undefined behaviour, so every
 * codec call that can fail runs here, behind a setjmp, and Swift only ever sees a return code and a
 * message. Symbols carry the shelf_ prefix. Buffers are `void *` so Swift never has to bindMemory.
 *
 * Decoding is two calls on purpose: `*_read_header` tells Swift the output size, Swift checks the pixel
 * limit and allocates the final RGB array, and `*_decode_rgb` writes straight into it. Parsing a header
 * twice costs microseconds; it saves a full-image copy.
 */
#include <stddef.h>
#include <stdint.h>

/* Return codes. 0 is success; Swift maps the rest to ShelfImageError.Code. */
enum {
    SHELF_OK = 0,
    SHELF_ERR_CORRUPT = 1,      /* the codec rejected the data */
    SHELF_ERR_TRUNCATED = 2,    /* the data ends before the image does */
    SHELF_ERR_NOMEM = 3,        /* malloc failed */
    SHELF_ERR_ARGUMENT = 4,     /* caller passed a buffer or size that does not match */
    SHELF_ERR_UNSUPPORTED = 5,  /* valid file, but a feature we do not decode (e.g. 12-bit JPEG) */
    SHELF_ERR_LIMIT = 6,        /* the file asks for more than the codec's own security limits allow */
};

/* The codec's own one-line text; 200 is libjpeg's JMSG_LENGTH_MAX. */
typedef struct {
    int code;
    char message[200];
} shelf_codec_error;

/* Colour models of a JPEG as stored. */
enum {
    SHELF_JPEG_GRAY = 1,
    SHELF_JPEG_RGB = 2,   /* YCbCr or RGB: libjpeg converts either to RGB */
    SHELF_JPEG_CMYK = 3,
    SHELF_JPEG_YCCK = 4,
    SHELF_JPEG_OTHER = 5,
};

typedef struct {
    int32_t width;          /* as stored */
    int32_t height;
    int32_t components;
    int32_t color_model;    /* SHELF_JPEG_* */
    int32_t progressive;
    int32_t adobe_marker;   /* 1 when an Adobe APP14 marker was seen: CMYK is stored inverted */
    int32_t output_width;   /* after DCT scaling by 1/scale_denom */
    int32_t output_height;
} shelf_jpeg_header;

/* Reads the JPEG header (up to the first scan) and computes the output size for 1/scale_denom. */
int shelf_jpeg_read_header(const void *data, size_t size, int scale_denom, shelf_jpeg_header *out,
                           shelf_codec_error *err);

/*
 * Decodes to interleaved 8-bit RGB (channels 3) or gray (channels 1) at 1/scale_denom into `out`
 * (out_size bytes, exactly output_width * output_height * channels). `fast_dct` picks JDCT_IFAST over JDCT_ISLOW. A premature end of
 * data (libjpeg's JWRN_JPEG_EOF warning) is reported as SHELF_ERR_TRUNCATED instead of grey fill; the
 * warnings that mean damaged entropy data (bad Huffman code, resync) are SHELF_ERR_CORRUPT unless
 * `accept_damage` is non-zero.
 */
int shelf_jpeg_decode(const void *data, size_t size, int scale_denom, int fast_dct, int accept_damage,
                      int channels, void *out, size_t out_size, int32_t expected_width, int32_t expected_height,
                      shelf_codec_error *err);

/*
 * Encodes interleaved 8-bit pixels (components 1 = gray, 3 = RGB) at `quality` 1-100, 4:2:0 for RGB.
 * On success *out_data is malloc'd: the caller frees it with free().
 */
int shelf_jpeg_encode(const void *pixels, int32_t width, int32_t height, int32_t components, int quality,
                      void **out_data, size_t *out_size, shelf_codec_error *err);

typedef struct {
    int32_t width;
    int32_t height;
    int32_t bit_depth;
    int32_t color_type;     /* PNG_COLOR_TYPE_* */
    int32_t interlaced;
    int32_t has_alpha;      /* alpha channel or tRNS */
} shelf_png_header;

int shelf_png_read_header(const void *data, size_t size, shelf_png_header *out, shelf_codec_error *err);

/*
 * Decodes any PNG to interleaved 8-bit RGB in `out` (width * height * 3 bytes): palettes expanded,
 * 16-bit scaled with rounding, gray widened, alpha (channel or tRNS) composited onto white.
 * Gamma chunks are ignored on purpose: every reference decoder we compare against does the same.
 */
int shelf_png_decode_rgb(const void *data, size_t size, void *out, size_t out_size,
                         int32_t expected_width, int32_t expected_height, shelf_codec_error *err);

/* Encodes 8-bit pixels (components 1 = gray, 3 = RGB). *out_data is malloc'd: free() it. */
int shelf_png_encode(const void *pixels, int32_t width, int32_t height, int32_t components,
                     int compression_level, void **out_data, size_t *out_size, shelf_codec_error *err);

/*
 * HEIF/HEIC through libheif (HEVC by libde265). libheif reports every failure as a returned heif_error,
 * so no setjmp is needed; the shim exists to keep the two-call shape (header, then decode into Swift's
 * buffer), to turn heif_error into our codes while its message is still alive, and to keep C++ types
 * and libheif's ownership rules out of Swift. libheif's security limits stay at their defaults.
 */
typedef struct {
    int32_t stored_width;      /* ispe of the primary image: what the decoder will allocate */
    int32_t stored_height;
    int32_t width;             /* after libheif's irot/imir/clap: what decode returns, upright */
    int32_t height;
    int32_t has_alpha;
    int32_t bit_depth;         /* luma bits per pixel (8, 10, 12) */
    int32_t thumbnail_width;   /* the largest thumbnail, upright; 0 when there is none */
    int32_t thumbnail_height;
    int32_t thumbnail_stored_width;
    int32_t thumbnail_stored_height;
    int32_t top_level_images;
} shelf_heif_header;

int shelf_heif_read_header(const void *data, size_t size, shelf_heif_header *out, shelf_codec_error *err);

/*
 * Decodes the primary image (or, with use_thumbnail, its largest thumbnail) to 8-bit RGB in `out`
 * (expected_width * expected_height * 3 bytes): irot/imir applied by libheif and nothing else (the EXIF
 * orientation a HEIF may also carry describes the same turn and is ignored), higher bit depths reduced to
 * 8 by libheif, alpha composited onto white. Decoding is libheif's default, non-strict, as heif-convert's:
 * files from phones carry harmless quirks (decoding warnings) that strict mode would refuse.
 */
int shelf_heif_decode_rgb(const void *data, size_t size, int use_thumbnail, void *out, size_t out_size,
                          int32_t expected_width, int32_t expected_height, shelf_codec_error *err);

/*
 * WebP through libwebp (still images) and libwebpdemux (the first frame of an animation). libwebp
 * returns status codes and never aborts; the shim gives it the same two-call shape as the others.
 */
typedef struct {
    int32_t width;          /* the canvas: VP8X when present, else the VP8/VP8L frame */
    int32_t height;
    int32_t has_alpha;
    int32_t has_animation;
    int32_t lossless;       /* 1 VP8L, 0 VP8 or mixed */
} shelf_webp_header;

int shelf_webp_read_header(const void *data, size_t size, shelf_webp_header *out, shelf_codec_error *err);

/*
 * Decodes to 8-bit RGB in `out` at out_width x out_height: a smaller size than the canvas uses libwebp's
 * scaler inside the decoder (no full-size buffer). Alpha is composited onto white. An animation gives
 * its first frame, fully composed on the canvas, and only at canvas size.
 */
int shelf_webp_decode_rgb(const void *data, size_t size, void *out, size_t out_size, int32_t out_width,
                          int32_t out_height, shelf_codec_error *err);

/*
 * Advises the kernel to back a large, not yet touched buffer with transparent huge pages (no-op below
 * 4 MiB or where unsupported). Call it before the first write; see memory.c for the numbers.
 */
void shelf_advise_huge_pages(void *buffer, size_t size);

#endif
