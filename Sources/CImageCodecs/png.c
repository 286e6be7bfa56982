/*
 * libpng's classic API behind setjmp. We use the classic API rather than png_image because we want
 * control over two things the simplified API decides for us: it composites alpha in linear light and
 * applies gAMA, while every reference decoder (Pillow, browsers without colour management) composites the
 * stored values. All jumps start and end in this file; Swift sees a return code and a message.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

#include "CImageCodecs.h"
#include "over_white.h"

/* Everything a longjmp must find again lives here, in memory libpng can reach, not in volatile locals. */
struct shelf_png_context {
    const unsigned char *data;
    size_t size;
    size_t pos;
    int code;
    char message[200];
    unsigned char *scratch; /* RGBA rows when alpha is composited; freed on every path */
    unsigned char *out;     /* encoder output, grown by doubling */
    size_t out_size;
    size_t out_capacity;
};

static void shelf_png_error(png_structp png, png_const_charp msg) {
    struct shelf_png_context *ctx = (struct shelf_png_context *)png_get_error_ptr(png);
    if (ctx->code == SHELF_OK) {
        ctx->code = SHELF_ERR_CORRUPT;
        snprintf(ctx->message, sizeof ctx->message, "%s", msg ? msg : "libpng error");
    }
    png_longjmp(png, 1);
}

/* libpng downgrades a short IDAT stream to a warning and leaves rows blank: for us that is corrupt data. */
static void shelf_png_warning(png_structp png, png_const_charp msg) {
    if (msg && strstr(msg, "Not enough image data")) {
        struct shelf_png_context *ctx = (struct shelf_png_context *)png_get_error_ptr(png);
        ctx->code = SHELF_ERR_TRUNCATED;
        snprintf(ctx->message, sizeof ctx->message, "%s", msg);
        png_longjmp(png, 1);
    }
}

static void shelf_png_read(png_structp png, png_bytep dst, size_t length) {
    struct shelf_png_context *ctx = (struct shelf_png_context *)png_get_io_ptr(png);
    if (length > ctx->size - ctx->pos) {
        ctx->code = SHELF_ERR_TRUNCATED;
        snprintf(ctx->message, sizeof ctx->message, "PNG data ends after %zu bytes", ctx->size);
        png_longjmp(png, 1);
    }
    memcpy(dst, ctx->data + ctx->pos, length);
    ctx->pos += length;
}

static int shelf_png_finish(struct shelf_png_context *ctx, shelf_codec_error *err) {
    free(ctx->scratch);
    ctx->scratch = NULL;
    err->code = ctx->code == SHELF_OK ? SHELF_ERR_CORRUPT : ctx->code;
    memcpy(err->message, ctx->message, sizeof err->message);
    err->message[sizeof err->message - 1] = 0;
    return err->code;
}

static void shelf_png_init(struct shelf_png_context *ctx, const void *data, size_t size, shelf_codec_error *err) {
    memset(ctx, 0, sizeof *ctx);
    ctx->data = (const unsigned char *)data;
    ctx->size = size;
    err->code = SHELF_OK;
    err->message[0] = 0;
}

static void shelf_png_fill_header(png_structp png, png_infop info, shelf_png_header *out) {
    out->width = (int32_t)png_get_image_width(png, info);
    out->height = (int32_t)png_get_image_height(png, info);
    out->bit_depth = png_get_bit_depth(png, info);
    out->color_type = png_get_color_type(png, info);
    out->interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
    out->has_alpha = (out->color_type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS);
}

int shelf_png_read_header(const void *data, size_t size, shelf_png_header *out, shelf_codec_error *err) {
    struct shelf_png_context ctx;
    shelf_png_init(&ctx, data, size, err);
    memset(out, 0, sizeof *out);
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, shelf_png_error, shelf_png_warning);
    if (!png) { ctx.code = SHELF_ERR_NOMEM; return shelf_png_finish(&ctx, err); }
    png_infop info = png_create_info_struct(png);
    if (!info) { png_destroy_read_struct(&png, NULL, NULL); ctx.code = SHELF_ERR_NOMEM; return shelf_png_finish(&ctx, err); }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        return shelf_png_finish(&ctx, err);
    }
    png_set_read_fn(png, &ctx, shelf_png_read);
    png_read_info(png, info);
    shelf_png_fill_header(png, info, out);
    png_destroy_read_struct(&png, &info, NULL);
    return SHELF_OK;
}

int shelf_png_decode_rgb(const void *data, size_t size, void *out, size_t out_size,
                         int32_t expected_width, int32_t expected_height, shelf_codec_error *err) {
    struct shelf_png_context ctx;
    shelf_png_init(&ctx, data, size, err);
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, shelf_png_error, shelf_png_warning);
    if (!png) { ctx.code = SHELF_ERR_NOMEM; return shelf_png_finish(&ctx, err); }
    png_infop info = png_create_info_struct(png);
    if (!info) { png_destroy_read_struct(&png, NULL, NULL); ctx.code = SHELF_ERR_NOMEM; return shelf_png_finish(&ctx, err); }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        return shelf_png_finish(&ctx, err);
    }
    png_set_read_fn(png, &ctx, shelf_png_read);
    png_read_info(png, info);
    shelf_png_header h;
    shelf_png_fill_header(png, info, &h);
    if (h.width != expected_width || h.height != expected_height
        || out_size != (size_t)h.width * (size_t)h.height * 3) {
        ctx.code = SHELF_ERR_ARGUMENT;
        snprintf(ctx.message, sizeof ctx.message, "output buffer does not match %dx%d", h.width, h.height);
        png_destroy_read_struct(&png, &info, NULL);
        return shelf_png_finish(&ctx, err);
    }

    if (h.color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (h.color_type == PNG_COLOR_TYPE_GRAY && h.bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (h.bit_depth == 16) png_set_scale_16(png);
    if (!(h.color_type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(png);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);

    const size_t width = (size_t)h.width, height = (size_t)h.height;
    const int channels = png_get_channels(png, info);
    if ((channels != 3 && channels != 4) || png_get_rowbytes(png, info) != width * (size_t)channels) {
        ctx.code = SHELF_ERR_UNSUPPORTED;
        snprintf(ctx.message, sizeof ctx.message, "unexpected PNG layout after expansion (%d channels)", channels);
        png_destroy_read_struct(&png, &info, NULL);
        return shelf_png_finish(&ctx, err);
    }
    unsigned char *pixels = (unsigned char *)out;
    const size_t stride = width * 3;
    if (channels == 3) {
        /* Every pass writes into the final rows; libpng merges interlaced passes in place. */
        for (int pass = 0; pass < passes; pass++)
            for (size_t y = 0; y < height; y++)
                png_read_row(png, pixels + y * stride, NULL);
    } else if (passes == 1) {
        ctx.scratch = malloc(width * 4);
        if (!ctx.scratch) png_error(png, "out of memory for an RGBA row");
        for (size_t y = 0; y < height; y++) {
            png_read_row(png, ctx.scratch, NULL);
            shelf_rgba_row_over_white(ctx.scratch, pixels + y * stride, width);
        }
    } else {
        /* Interlaced with alpha: the passes need the whole RGBA image before compositing. */
        ctx.scratch = malloc(width * height * 4);
        if (!ctx.scratch) png_error(png, "out of memory for an interlaced RGBA image");
        for (int pass = 0; pass < passes; pass++)
            for (size_t y = 0; y < height; y++)
                png_read_row(png, ctx.scratch + y * width * 4, NULL);
        for (size_t y = 0; y < height; y++)
            shelf_rgba_row_over_white(ctx.scratch + y * width * 4, pixels + y * stride, width);
    }
    /* No png_read_end: a damaged trailer after complete image data does not make the pixels wrong. */
    free(ctx.scratch);
    ctx.scratch = NULL;
    png_destroy_read_struct(&png, &info, NULL);
    return SHELF_OK;
}

static void shelf_png_write(png_structp png, png_bytep src, size_t length) {
    struct shelf_png_context *ctx = (struct shelf_png_context *)png_get_io_ptr(png);
    if (length > ctx->out_capacity - ctx->out_size) {
        size_t capacity = ctx->out_capacity ? ctx->out_capacity : 65536;
        while (capacity - ctx->out_size < length) capacity *= 2;
        unsigned char *grown = realloc(ctx->out, capacity);
        if (!grown) {
            ctx->code = SHELF_ERR_NOMEM;
            snprintf(ctx->message, sizeof ctx->message, "out of memory growing the PNG to %zu bytes", capacity);
            png_longjmp(png, 1);
        }
        ctx->out = grown;
        ctx->out_capacity = capacity;
    }
    memcpy(ctx->out + ctx->out_size, src, length);
    ctx->out_size += length;
}

static void shelf_png_flush(png_structp png) { (void)png; }

int shelf_png_encode(const void *pixels, int32_t width, int32_t height, int32_t components,
                     int compression_level, void **out_data, size_t *out_size, shelf_codec_error *err) {
    struct shelf_png_context ctx;
    shelf_png_init(&ctx, NULL, 0, err);
    *out_data = NULL;
    *out_size = 0;
    if (width <= 0 || height <= 0 || (components != 1 && components != 3)) {
        err->code = SHELF_ERR_ARGUMENT;
        snprintf(err->message, sizeof err->message, "cannot encode %dx%d with %d components as PNG",
                 width, height, components);
        return err->code;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, shelf_png_error, shelf_png_warning);
    if (!png) { ctx.code = SHELF_ERR_NOMEM; return shelf_png_finish(&ctx, err); }
    png_infop info = png_create_info_struct(png);
    if (!info) { png_destroy_write_struct(&png, NULL); ctx.code = SHELF_ERR_NOMEM; return shelf_png_finish(&ctx, err); }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(ctx.out);
        return shelf_png_finish(&ctx, err);
    }
    png_set_write_fn(png, &ctx, shelf_png_write, shelf_png_flush);
    png_set_compression_level(png, compression_level < 0 ? 6 : compression_level > 9 ? 9 : compression_level);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 components == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    const size_t stride = (size_t)width * (size_t)components;
    for (int32_t y = 0; y < height; y++)
        png_write_row(png, (png_const_bytep)pixels + (size_t)y * stride);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *out_data = ctx.out;
    *out_size = ctx.out_size;
    return SHELF_OK;
}
