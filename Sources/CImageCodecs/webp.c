/*
 * libwebp and libwebpdemux behind the same two-call, error-value shape as JPEG and PNG. libwebp returns a
 * VP8StatusCode and never jumps or aborts; the shim maps those codes to ours, lets libwebp write straight
 * into Swift's buffer (or scale inside the decoder), and composites alpha onto white with the same rule as
 * PNG. An animation is decoded with WebPAnimDecoder, which composes frame 1 onto the canvas the way a
 * viewer shows it; only the first frame is decoded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <webp/decode.h>
#include <webp/demux.h>

#include "CImageCodecs.h"
#include "over_white.h"

_Static_assert(sizeof(shelf_webp_header) == 5 * sizeof(int32_t), "shelf_webp_header is five int32 fields");

static int shelf_webp_fail(int code, shelf_codec_error *err, const char *message) {
    err->code = code;
    snprintf(err->message, sizeof err->message, "%s", message);
    return code;
}

static int shelf_webp_status(VP8StatusCode status, shelf_codec_error *err) {
    switch (status) {
    case VP8_STATUS_OK: return SHELF_OK;
    case VP8_STATUS_NOT_ENOUGH_DATA: return shelf_webp_fail(SHELF_ERR_TRUNCATED, err, "not enough data");
    case VP8_STATUS_UNSUPPORTED_FEATURE: return shelf_webp_fail(SHELF_ERR_UNSUPPORTED, err, "unsupported feature");
    case VP8_STATUS_OUT_OF_MEMORY: return shelf_webp_fail(SHELF_ERR_NOMEM, err, "out of memory");
    case VP8_STATUS_INVALID_PARAM: return shelf_webp_fail(SHELF_ERR_ARGUMENT, err, "invalid parameter");
    case VP8_STATUS_BITSTREAM_ERROR: return shelf_webp_fail(SHELF_ERR_CORRUPT, err, "bitstream error");
    default: return shelf_webp_fail(SHELF_ERR_CORRUPT, err, "decoding failed");
    }
}

/* The RIFF size field promises this many bytes; fewer present means the file was cut short. */
static int shelf_webp_riff_truncated(const unsigned char *d, size_t size) {
    if (size < 12) return 1;
    size_t riff = (size_t)d[4] | (size_t)d[5] << 8 | (size_t)d[6] << 16 | (size_t)d[7] << 24;
    return riff + 8 > size;
}

int shelf_webp_read_header(const void *data, size_t size, shelf_webp_header *out, shelf_codec_error *err) {
    memset(out, 0, sizeof *out);
    err->code = SHELF_OK;
    err->message[0] = 0;
    WebPBitstreamFeatures f;
    /* Parses RIFF, VP8X (the canvas) and the first frame header only; allocates nothing. */
    VP8StatusCode status = WebPGetFeatures((const uint8_t *)data, size, &f);
    if (status != VP8_STATUS_OK) return shelf_webp_status(status, err);
    out->width = f.width;
    out->height = f.height;
    out->has_alpha = f.has_alpha ? 1 : 0;
    out->has_animation = f.has_animation ? 1 : 0;
    out->lossless = f.format == 2 ? 1 : 0;
    return SHELF_OK;
}

static int shelf_webp_decode_animation(const void *data, size_t size, unsigned char *out, int32_t width, int32_t height,
                                       shelf_codec_error *err) {
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) return shelf_webp_fail(SHELF_ERR_UNSUPPORTED, err, "libwebpdemux version mismatch");
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    WebPData input = {(const uint8_t *)data, size};
    WebPAnimDecoder *dec = WebPAnimDecoderNew(&input, &options);
    if (!dec) {
        return shelf_webp_riff_truncated(data, size)
            ? shelf_webp_fail(SHELF_ERR_TRUNCATED, err, "the animation ends early")
            : shelf_webp_fail(SHELF_ERR_CORRUPT, err, "cannot parse the animation");
    }
    WebPAnimInfo info;
    int rc = SHELF_OK;
    uint8_t *frame = NULL;
    int timestamp = 0;
    if (!WebPAnimDecoderGetInfo(dec, &info)) {
        rc = shelf_webp_fail(SHELF_ERR_CORRUPT, err, "cannot read the animation header");
    } else if ((int32_t)info.canvas_width != width || (int32_t)info.canvas_height != height) {
        rc = shelf_webp_fail(SHELF_ERR_ARGUMENT, err, "an animation decodes only at its canvas size");
    } else if (!WebPAnimDecoderGetNext(dec, &frame, &timestamp) || !frame) {
        rc = shelf_webp_riff_truncated(data, size)
            ? shelf_webp_fail(SHELF_ERR_TRUNCATED, err, "the first frame ends early")
            : shelf_webp_fail(SHELF_ERR_CORRUPT, err, "cannot decode the first frame");
    } else {
        for (int32_t y = 0; y < height; y++)
            shelf_rgba_row_over_white(frame + (size_t)y * (size_t)width * 4, out + (size_t)y * (size_t)width * 3,
                                      (size_t)width);
    }
    WebPAnimDecoderDelete(dec); /* owns `frame` */
    return rc;
}

int shelf_webp_decode_rgb(const void *data, size_t size, void *out, size_t out_size, int32_t out_width,
                          int32_t out_height, shelf_codec_error *err) {
    err->code = SHELF_OK;
    err->message[0] = 0;
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) return shelf_webp_fail(SHELF_ERR_UNSUPPORTED, err, "libwebp version mismatch");
    VP8StatusCode status = WebPGetFeatures((const uint8_t *)data, size, &config.input);
    if (status != VP8_STATUS_OK) return shelf_webp_status(status, err);
    if (out_width <= 0 || out_height <= 0 || out_width > config.input.width || out_height > config.input.height
        || out_size != (size_t)out_width * (size_t)out_height * 3)
        return shelf_webp_fail(SHELF_ERR_ARGUMENT, err, "output buffer does not match the image");
    if (config.input.has_animation)
        return shelf_webp_decode_animation(data, size, (unsigned char *)out, out_width, out_height, err);

    if (out_width != config.input.width || out_height != config.input.height) {
        config.options.use_scaling = 1;
        config.options.scaled_width = out_width;
        config.options.scaled_height = out_height;
    }
    unsigned char *scratch = NULL;
    config.output.is_external_memory = 1;
    if (!config.input.has_alpha) {
        config.output.colorspace = MODE_RGB;
        config.output.u.RGBA.rgba = (uint8_t *)out;
        config.output.u.RGBA.stride = out_width * 3;
        config.output.u.RGBA.size = out_size;
    } else {
        const size_t rgba_size = (size_t)out_width * (size_t)out_height * 4;
        scratch = malloc(rgba_size);
        if (!scratch) return shelf_webp_fail(SHELF_ERR_NOMEM, err, "out of memory for the RGBA image");
        config.output.colorspace = MODE_RGBA;
        config.output.u.RGBA.rgba = scratch;
        config.output.u.RGBA.stride = out_width * 4;
        config.output.u.RGBA.size = rgba_size;
    }
    status = WebPDecode((const uint8_t *)data, size, &config);
    WebPFreeDecBuffer(&config.output); /* external memory: frees nothing of ours, only internal state */
    if (status != VP8_STATUS_OK) {
        free(scratch);
        return shelf_webp_status(status, err);
    }
    if (scratch) {
        for (int32_t y = 0; y < out_height; y++)
            shelf_rgba_row_over_white(scratch + (size_t)y * (size_t)out_width * 4,
                                      (unsigned char *)out + (size_t)y * (size_t)out_width * 3, (size_t)out_width);
        free(scratch);
    }
    return SHELF_OK;
}
