/*
 * libheif behind the same two-call, error-value shape as JPEG and PNG. libheif returns a heif_error from
 * every call instead of jumping, so there is no setjmp here; what the shim adds is (1) copying the error
 * text while the context that owns it is alive, (2) mapping libheif's codes to ours (a file cut short is
 * "truncated", a security limit or a bad box is "corrupt", a codec we lack is "unsupported"), and (3)
 * copying libheif's padded rows, or compositing its RGBA onto white, into the buffer Swift allocated.
 *
 * Orientation: libheif applies the irot/imir (and clap) properties of the item it decodes. A HEIF may also
 * carry EXIF with an orientation tag describing the same turn; the HEIF spec says the transforms win, so
 * nothing here or in Swift applies EXIF on top: a photo is turned exactly once.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libheif/heif.h>

#include "CImageCodecs.h"
#include "over_white.h"

_Static_assert(sizeof(shelf_heif_header) == 11 * sizeof(int32_t), "shelf_heif_header is eleven int32 fields");

/* heif_init loads the codec plugins; it is reference counted and we never deinit: one init per process. */
static pthread_once_t shelf_heif_once = PTHREAD_ONCE_INIT;
static void shelf_heif_init_once(void) { (void)heif_init(NULL); }

static int shelf_heif_code(struct heif_error e) {
    switch (e.code) {
    case heif_error_Ok: return SHELF_OK;
    case heif_error_Invalid_input:
        return e.subcode == heif_suberror_End_of_data ? SHELF_ERR_TRUNCATED : SHELF_ERR_CORRUPT;
    case heif_error_Unsupported_filetype: case heif_error_Unsupported_feature:
    case heif_error_Color_profile_does_not_exist: case heif_error_Plugin_loading_error:
        return SHELF_ERR_UNSUPPORTED;
    case heif_error_Memory_allocation_error:
        /* Security_limit_exceeded: the file asks for more than libheif allows (size, boxes, tiles). */
        return e.subcode == heif_suberror_Security_limit_exceeded ? SHELF_ERR_LIMIT : SHELF_ERR_NOMEM;
    case heif_error_Usage_error: return SHELF_ERR_ARGUMENT;
    default: return SHELF_ERR_CORRUPT; /* decoder plugin errors: the HEVC data is damaged */
    }
}

/* Copies the message now: it lives in the context, which the caller releases next. */
static int shelf_heif_fail(struct heif_error e, shelf_codec_error *err) {
    err->code = shelf_heif_code(e);
    if (err->code == SHELF_OK) err->code = SHELF_ERR_CORRUPT;
    snprintf(err->message, sizeof err->message, "%s", e.message ? e.message : "libheif error");
    return err->code;
}

static int shelf_heif_fail_with(int code, shelf_codec_error *err, const char *message) {
    err->code = code;
    snprintf(err->message, sizeof err->message, "%s", message);
    return code;
}

/* Opens the context and the primary image handle; on failure fills err and releases what it opened. */
static int shelf_heif_open(const void *data, size_t size, struct heif_context **ctx, struct heif_image_handle **primary,
                           shelf_codec_error *err) {
    err->code = SHELF_OK;
    err->message[0] = 0;
    *ctx = NULL;
    *primary = NULL;
    pthread_once(&shelf_heif_once, shelf_heif_init_once);
    if (data == NULL || size == 0) return shelf_heif_fail_with(SHELF_ERR_TRUNCATED, err, "no data");
    struct heif_context *c = heif_context_alloc();
    if (!c) return shelf_heif_fail_with(SHELF_ERR_NOMEM, err, "cannot allocate a libheif context");
    /* Without copy: Swift keeps `data` alive for the whole call. */
    struct heif_error e = heif_context_read_from_memory_without_copy(c, data, size, NULL);
    if (e.code != heif_error_Ok) {
        shelf_heif_fail(e, err);
        heif_context_free(c);
        return err->code;
    }
    struct heif_image_handle *h = NULL;
    e = heif_context_get_primary_image_handle(c, &h);
    if (e.code != heif_error_Ok || !h) {
        if (e.code == heif_error_Ok) shelf_heif_fail_with(SHELF_ERR_CORRUPT, err, "no primary image");
        else shelf_heif_fail(e, err);
        heif_context_free(c);
        return err->code;
    }
    *ctx = c;
    *primary = h;
    return SHELF_OK;
}

/* The largest thumbnail of `primary` (by upright pixel count), or NULL. The caller releases it. */
static struct heif_image_handle *shelf_heif_largest_thumbnail(const struct heif_image_handle *primary) {
    heif_item_id ids[16];
    int n = heif_image_handle_get_list_of_thumbnail_IDs(primary, ids, 16);
    struct heif_image_handle *best = NULL;
    long long best_pixels = 0;
    for (int i = 0; i < n; i++) {
        struct heif_image_handle *t = NULL;
        if (heif_image_handle_get_thumbnail(primary, ids[i], &t).code != heif_error_Ok || !t) continue;
        long long pixels = (long long)heif_image_handle_get_width(t) * heif_image_handle_get_height(t);
        if (pixels > best_pixels) {
            if (best) heif_image_handle_release(best);
            best = t;
            best_pixels = pixels;
        } else {
            heif_image_handle_release(t);
        }
    }
    return best;
}

int shelf_heif_read_header(const void *data, size_t size, shelf_heif_header *out, shelf_codec_error *err) {
    memset(out, 0, sizeof *out);
    struct heif_context *ctx;
    struct heif_image_handle *h;
    if (shelf_heif_open(data, size, &ctx, &h, err) != SHELF_OK) return err->code;
    out->stored_width = heif_image_handle_get_ispe_width(h);
    out->stored_height = heif_image_handle_get_ispe_height(h);
    out->width = heif_image_handle_get_width(h);
    out->height = heif_image_handle_get_height(h);
    out->has_alpha = heif_image_handle_has_alpha_channel(h) ? 1 : 0;
    out->bit_depth = heif_image_handle_get_luma_bits_per_pixel(h);
    out->top_level_images = heif_context_get_number_of_top_level_images(ctx);
    struct heif_image_handle *t = shelf_heif_largest_thumbnail(h);
    if (t) {
        out->thumbnail_width = heif_image_handle_get_width(t);
        out->thumbnail_height = heif_image_handle_get_height(t);
        out->thumbnail_stored_width = heif_image_handle_get_ispe_width(t);
        out->thumbnail_stored_height = heif_image_handle_get_ispe_height(t);
        heif_image_handle_release(t);
    }
    heif_image_handle_release(h);
    heif_context_free(ctx);
    return SHELF_OK;
}

int shelf_heif_decode_rgb(const void *data, size_t size, int use_thumbnail, void *out, size_t out_size,
                          int32_t expected_width, int32_t expected_height, shelf_codec_error *err) {
    struct heif_context *ctx;
    struct heif_image_handle *primary;
    if (shelf_heif_open(data, size, &ctx, &primary, err) != SHELF_OK) return err->code;
    struct heif_image_handle *h = primary;
    if (use_thumbnail) {
        h = shelf_heif_largest_thumbnail(primary);
        if (!h) {
            heif_image_handle_release(primary);
            heif_context_free(ctx);
            return shelf_heif_fail_with(SHELF_ERR_ARGUMENT, err, "the image has no thumbnail");
        }
    }
    const int width = heif_image_handle_get_width(h), height = heif_image_handle_get_height(h);
    const int alpha = heif_image_handle_has_alpha_channel(h) ? 1 : 0;
    struct heif_image *img = NULL;
    int rc = SHELF_OK;
    if (width != expected_width || height != expected_height
        || out_size != (size_t)expected_width * (size_t)expected_height * 3) {
        char message[96];
        snprintf(message, sizeof message, "output buffer does not match %dx%d", width, height);
        rc = shelf_heif_fail_with(SHELF_ERR_ARGUMENT, err, message);
        goto done;
    }
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (!options) { rc = shelf_heif_fail_with(SHELF_ERR_NOMEM, err, "cannot allocate decoding options"); goto done; }
    options->ignore_transformations = 0; /* irot/imir/clap applied here, once */
    options->convert_hdr_to_8bit = 1;    /* 10- and 12-bit photos come out as 8-bit RGB */
    struct heif_error e = heif_decode_image(h, &img, heif_colorspace_RGB,
                                            alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, options);
    heif_decoding_options_free(options);
    if (e.code != heif_error_Ok || !img) {
        rc = e.code != heif_error_Ok ? shelf_heif_fail(e, err) : shelf_heif_fail_with(SHELF_ERR_CORRUPT, err, "no image");
        goto done;
    }
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(img, heif_channel_interleaved, &stride);
    const int bits = heif_image_get_bits_per_pixel(img, heif_channel_interleaved);
    if (!plane || heif_image_get_width(img, heif_channel_interleaved) != width
        || heif_image_get_height(img, heif_channel_interleaved) != height || bits != (alpha ? 32 : 24)
        || stride < width * (alpha ? 4 : 3)) {
        rc = shelf_heif_fail_with(SHELF_ERR_UNSUPPORTED, err, "libheif did not deliver 8-bit interleaved RGB");
        goto done;
    }
    unsigned char *pixels = (unsigned char *)out;
    const size_t row = (size_t)width * 3;
    if (!alpha) {
        for (int y = 0; y < height; y++) memcpy(pixels + (size_t)y * row, plane + (size_t)y * (size_t)stride, row);
    } else if (heif_image_is_premultiplied_alpha(img)) {
        /* Colour already carries a * c: over white adds the background's share, 255 - a. */
        for (int y = 0; y < height; y++) {
            const uint8_t *in = plane + (size_t)y * (size_t)stride;
            unsigned char *o = pixels + (size_t)y * row;
            for (int x = 0; x < width; x++, in += 4, o += 3)
                for (int c = 0; c < 3; c++) {
                    unsigned v = (unsigned)in[c] + 255u - in[3];
                    o[c] = (unsigned char)(v > 255 ? 255 : v);
                }
        }
    } else {
        for (int y = 0; y < height; y++)
            shelf_rgba_row_over_white(plane + (size_t)y * (size_t)stride, pixels + (size_t)y * row, (size_t)width);
    }
done:
    if (img) heif_image_release(img);
    if (h != primary) heif_image_handle_release(h);
    heif_image_handle_release(primary);
    heif_context_free(ctx);
    return rc;
}
