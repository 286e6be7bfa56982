/*
 * libjpeg-turbo behind setjmp. libjpeg's error_exit must not return and a longjmp must never cross Swift
 * frames, so every jump starts and ends in this file. Warnings are silenced (no stderr chatter), except
 * "Premature end of JPEG file", which libjpeg would paper over with grey: that one is a truncation error.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#include "CImageCodecs.h"

_Static_assert(sizeof(((shelf_codec_error *)0)->message) >= JMSG_LENGTH_MAX, "message must hold a libjpeg message");
/* Swift allocates these and C fills them: pin the layout both sides were compiled against. */
_Static_assert(sizeof(shelf_jpeg_header) == 8 * sizeof(int32_t), "shelf_jpeg_header is eight int32 fields");
_Static_assert(sizeof(shelf_png_header) == 6 * sizeof(int32_t), "shelf_png_header is six int32 fields");

/* Progressive files can carry thousands of tiny scans that cost minutes each: a decompression bomb in time. */
#define SHELF_JPEG_MAX_SCANS 500

struct shelf_jpeg_error_mgr {
    struct jpeg_error_mgr pub; /* pub first: libjpeg hands us a jpeg_error_mgr pointer */
    jmp_buf escape;
    int strict;    /* damage warnings are errors */
    int finishing; /* every scanline is out: only damage warnings still count */
    int damaged;   /* the jump came from a damage warning */
    int saw_eof;   /* the data ran out (libjpeg substituted an EOI) */
    char eof_message[JMSG_LENGTH_MAX];
    int code;
    char message[JMSG_LENGTH_MAX];
};

static void shelf_jpeg_error_exit(j_common_ptr c) {
    struct shelf_jpeg_error_mgr *e = (struct shelf_jpeg_error_mgr *)c->err;
    if (e->code == SHELF_OK) {
        if (e->saw_eof) {
            /* Whatever broke, it broke because the data ended early (a header cut short, ...). */
            e->code = SHELF_ERR_TRUNCATED;
            c->err->format_message(c, e->message);
            longjmp(e->escape, 1);
        }
        switch (c->err->msg_code) {
        /* Valid JPEGs this build cannot decode: say "unsupported", not "corrupt". */
        case JERR_BAD_PRECISION: case JERR_NOT_COMPILED: case JERR_SOF_UNSUPPORTED:
        case JERR_CONVERSION_NOTIMPL: case JERR_ARITH_NOTIMPL: case JERR_FRACT_SAMPLE_NOTIMPL:
        case JERR_CCIR601_NOTIMPL: case JERR_NOTIMPL:
            e->code = SHELF_ERR_UNSUPPORTED;
            break;
        default:
            e->code = SHELF_ERR_CORRUPT;
        }
        c->err->format_message(c, e->message);
    }
    longjmp(e->escape, 1);
}

/* libjpeg's warnings that mean the pixels are damaged (it would paint grey or smear and carry on). */
static int shelf_jpeg_warning_damages(const struct jpeg_error_mgr *err) {
    switch (err->msg_code) {
    case JWRN_HUFF_BAD_CODE: case JWRN_ARITH_BAD_CODE: case JWRN_HIT_MARKER:
    case JWRN_MUST_RESYNC: case JWRN_BOGUS_PROGRESSION:
        return 1;
    case JWRN_EXTRANEOUS_DATA: {
        /* A few stray bytes before a marker are common and harmless; hundreds left over before EOI or a
         * restart marker mean the entropy decoder misread the scan. */
        int count = err->msg_parm.i[0], marker = err->msg_parm.i[1];
        return count > 256 && (marker == 0xD9 || (marker >= 0xD0 && marker <= 0xD7));
    }
    default: /* extraneous bytes between markers, unknown JFIF revision, odd SOS fields: harmless */
        return 0;
    }
}

/*
 * msg_level -1 is a warning. libjpeg's memory source reports running out of data (JWRN_JPEG_EOF) and
 * then feeds a fake EOI; whether that matters shows later. If the entropy decoder then needs bits it does
 * not have, it warns JWRN_HIT_MARKER and paints grey: that is a truncated file. If it only prefetched past
 * the end of a complete scan (the file lacks just its EOI), nothing is missing. Damage warnings are errors
 * in strict mode (djpeg exits 2 on them too).
 */
static void shelf_jpeg_emit_message(j_common_ptr c, int msg_level) {
    if (msg_level != -1) return;
    struct shelf_jpeg_error_mgr *e = (struct shelf_jpeg_error_mgr *)c->err;
    c->err->num_warnings++;
    if (c->err->msg_code == JWRN_JPEG_EOF) {
        if (!e->finishing && !e->saw_eof) {
            e->saw_eof = 1;
            c->err->format_message(c, e->eof_message);
        }
        return;
    }
    if (e->finishing && c->err->msg_code == JWRN_HIT_MARKER) return;
    if (e->saw_eof && !e->finishing && shelf_jpeg_warning_damages(c->err)) { /* HIT_MARKER, MUST_RESYNC, ... */
        e->code = SHELF_ERR_TRUNCATED;
        memcpy(e->message, e->eof_message, sizeof e->message);
        longjmp(e->escape, 1);
    }
    if (e->strict && shelf_jpeg_warning_damages(c->err)) {
        e->damaged = 1;
        e->code = SHELF_ERR_CORRUPT;
        c->err->format_message(c, e->message);
        longjmp(e->escape, 1);
    }
}

static void shelf_jpeg_progress(j_common_ptr c) {
    if (c->is_decompressor && ((j_decompress_ptr)c)->input_scan_number > SHELF_JPEG_MAX_SCANS) {
        struct shelf_jpeg_error_mgr *e = (struct shelf_jpeg_error_mgr *)c->err;
        e->code = SHELF_ERR_CORRUPT;
        snprintf(e->message, sizeof e->message, "more than %d progressive scans", SHELF_JPEG_MAX_SCANS);
        longjmp(e->escape, 1);
    }
}

static void shelf_jpeg_init_errors(struct shelf_jpeg_error_mgr *jerr) {
    jpeg_std_error(&jerr->pub);
    jerr->pub.error_exit = shelf_jpeg_error_exit;
    jerr->pub.emit_message = shelf_jpeg_emit_message;
    jerr->strict = 1;
    jerr->finishing = 0;
    jerr->damaged = 0;
    jerr->saw_eof = 0;
    jerr->eof_message[0] = 0;
    jerr->code = SHELF_OK;
    jerr->message[0] = 0;
}

static int shelf_jpeg_fail(struct shelf_jpeg_error_mgr *jerr, shelf_codec_error *err) {
    err->code = jerr->code == SHELF_OK ? SHELF_ERR_CORRUPT : jerr->code;
    memcpy(err->message, jerr->message, sizeof jerr->message);
    err->message[sizeof err->message - 1] = 0;
    return err->code;
}

static int shelf_jpeg_color_model(J_COLOR_SPACE cs) {
    switch (cs) {
    case JCS_GRAYSCALE: return SHELF_JPEG_GRAY;
    case JCS_RGB: case JCS_YCbCr: return SHELF_JPEG_RGB;
    case JCS_CMYK: return SHELF_JPEG_CMYK;
    case JCS_YCCK: return SHELF_JPEG_YCCK;
    default: return SHELF_JPEG_OTHER;
    }
}

static void shelf_jpeg_fill_header(j_decompress_ptr cinfo, shelf_jpeg_header *out) {
    out->width = (int32_t)cinfo->image_width;
    out->height = (int32_t)cinfo->image_height;
    out->components = cinfo->num_components;
    out->color_model = shelf_jpeg_color_model(cinfo->jpeg_color_space);
    out->progressive = cinfo->progressive_mode ? 1 : 0;
    out->adobe_marker = cinfo->saw_Adobe_marker ? 1 : 0;
    out->output_width = (int32_t)cinfo->output_width;
    out->output_height = (int32_t)cinfo->output_height;
}

/* Output colour space for a stored one: libjpeg converts gray/YCbCr/RGB to RGB (or gray) itself; CMYK and
 * YCCK come out as CMYK and are converted here. Returns the components libjpeg will deliver. */
static int shelf_jpeg_choose_output(j_decompress_ptr cinfo, int channels) {
    switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE: case JCS_RGB: case JCS_YCbCr:
        /* Gray output from YCbCr is just Y: libjpeg skips the chroma IDCTs and colour conversion. */
        cinfo->out_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_EXT_RGB;
        return channels == 1 ? 1 : 3;
    case JCS_CMYK: case JCS_YCCK:
        cinfo->out_color_space = JCS_CMYK;
        return 4;
    default:
        return 0;
    }
}

int shelf_jpeg_read_header(const void *data, size_t size, int scale_denom, shelf_jpeg_header *out,
                           shelf_codec_error *err) {
    struct jpeg_decompress_struct cinfo;
    struct shelf_jpeg_error_mgr jerr;
    memset(out, 0, sizeof *out);
    err->code = SHELF_OK;
    err->message[0] = 0;
    cinfo.err = &jerr.pub;
    shelf_jpeg_init_errors(&jerr);
    if (setjmp(jerr.escape)) {
        jpeg_destroy_decompress(&cinfo);
        return shelf_jpeg_fail(&jerr, err);
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, (const unsigned char *)data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    if (shelf_jpeg_choose_output(&cinfo, 3) == 0) {
        jerr.code = SHELF_ERR_UNSUPPORTED;
        snprintf(jerr.message, sizeof jerr.message, "unsupported JPEG colour space %d", (int)cinfo.jpeg_color_space);
        jpeg_destroy_decompress(&cinfo);
        return shelf_jpeg_fail(&jerr, err);
    }
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned int)(scale_denom > 0 ? scale_denom : 1);
    jpeg_calc_output_dimensions(&cinfo);
    shelf_jpeg_fill_header(&cinfo, out);
    jpeg_destroy_decompress(&cinfo);
    return SHELF_OK;
}

/* Adobe (Photoshop, phones) stores CMYK inverted; without the APP14 marker it is plain. Either way we
 * mix the ink multiplicatively, which is what Pillow, ImageMagick and browsers do without a profile. */
static void shelf_cmyk_row_to(const JSAMPLE *in, unsigned char *out, JDIMENSION width, int inverted, int channels) {
    for (JDIMENSION x = 0; x < width; x++, in += 4, out += channels) {
        unsigned c = in[0], m = in[1], y = in[2], k = in[3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        /* now c,m,y,k are "amount of light let through": channel = c * k / 255, rounded */
        unsigned r = c * k + 128, g = m * k + 128, b = y * k + 128;
        r = (r + (r >> 8)) >> 8; g = (g + (g >> 8)) >> 8; b = (b + (b >> 8)) >> 8;
        if (channels == 1) {
            out[0] = (unsigned char)((77 * r + 150 * g + 29 * b + 128) >> 8); /* BT.601 luma, as ShelfImage */
        } else {
            out[0] = (unsigned char)r; out[1] = (unsigned char)g; out[2] = (unsigned char)b;
        }
    }
}

int shelf_jpeg_decode(const void *data, size_t size, int scale_denom, int fast_dct, int accept_damage,
                      int channels, void *out, size_t out_size, int32_t expected_width, int32_t expected_height,
                      shelf_codec_error *err) {
    struct jpeg_decompress_struct cinfo;
    struct shelf_jpeg_error_mgr jerr;
    struct jpeg_progress_mgr progress;
    err->code = SHELF_OK;
    err->message[0] = 0;
    cinfo.err = &jerr.pub;
    shelf_jpeg_init_errors(&jerr);
    jerr.strict = accept_damage ? 0 : 1;
    if (setjmp(jerr.escape)) {
        jpeg_destroy_decompress(&cinfo); /* frees every pool, including the CMYK row buffer */
        if (jerr.finishing && !jerr.damaged) return SHELF_OK; /* junk after complete pixels */
        return shelf_jpeg_fail(&jerr, err);
    }
    jpeg_create_decompress(&cinfo);
    progress.progress_monitor = shelf_jpeg_progress;
    cinfo.progress = &progress;
    jpeg_mem_src(&cinfo, (const unsigned char *)data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    if (channels != 1 && channels != 3) channels = 3;
    int out_components = shelf_jpeg_choose_output(&cinfo, channels);
    if (out_components == 0) {
        jerr.code = SHELF_ERR_UNSUPPORTED;
        snprintf(jerr.message, sizeof jerr.message, "unsupported JPEG colour space %d", (int)cinfo.jpeg_color_space);
        jpeg_destroy_decompress(&cinfo);
        return shelf_jpeg_fail(&jerr, err);
    }
    cinfo.scale_num = 1;
    cinfo.scale_denom = (unsigned int)(scale_denom > 0 ? scale_denom : 1);
    cinfo.dct_method = fast_dct ? JDCT_IFAST : JDCT_ISLOW;
    jpeg_calc_output_dimensions(&cinfo);
    if ((int32_t)cinfo.output_width != expected_width || (int32_t)cinfo.output_height != expected_height
        || out_size != (size_t)cinfo.output_width * cinfo.output_height * (size_t)channels) {
        jerr.code = SHELF_ERR_ARGUMENT;
        snprintf(jerr.message, sizeof jerr.message, "output buffer does not match %ux%u",
                 cinfo.output_width, cinfo.output_height);
        jpeg_destroy_decompress(&cinfo);
        return shelf_jpeg_fail(&jerr, err);
    }
    jpeg_start_decompress(&cinfo);
    /* A multi-scan file has read all its scans by now; running out between two scans leaves a
     * blurry but "complete" image that no warning flags, so any EOF here is a truncation. */
    if (jerr.saw_eof && jpeg_has_multiple_scans(&cinfo)) {
        jerr.code = SHELF_ERR_TRUNCATED;
        memcpy(jerr.message, jerr.eof_message, sizeof jerr.message);
        jpeg_destroy_decompress(&cinfo);
        return shelf_jpeg_fail(&jerr, err);
    }

    unsigned char *pixels = (unsigned char *)out;
    const size_t stride = (size_t)cinfo.output_width * (size_t)channels;
    if (out_components == channels) {
        /* Straight into the caller's buffer: no intermediate rows. */
        while (cinfo.output_scanline < cinfo.output_height) {
            JSAMPROW rows[8];
            JDIMENSION left = cinfo.output_height - cinfo.output_scanline;
            int n = cinfo.rec_outbuf_height < 8 ? cinfo.rec_outbuf_height : 8;
            if ((JDIMENSION)n > left) n = (int)left;
            for (int i = 0; i < n; i++)
                rows[i] = pixels + (size_t)(cinfo.output_scanline + (JDIMENSION)i) * stride;
            jpeg_read_scanlines(&cinfo, rows, (JDIMENSION)n);
        }
    } else {
        JSAMPARRAY cmyk = (*cinfo.mem->alloc_sarray)((j_common_ptr)&cinfo, JPOOL_IMAGE,
                                                      cinfo.output_width * 4, 1);
        const int inverted = cinfo.saw_Adobe_marker ? 1 : 0;
        while (cinfo.output_scanline < cinfo.output_height) {
            JDIMENSION y = cinfo.output_scanline;
            if (jpeg_read_scanlines(&cinfo, cmyk, 1) == 1)
                shelf_cmyk_row_to(cmyk[0], pixels + (size_t)y * stride, cinfo.output_width, inverted, channels);
        }
    }
    /* Reading on to EOI reveals leftover entropy data (a misread scan) in strict mode. A missing EOI or
     * a broken marker after complete pixels does not make the image wrong, so those still succeed. */
    jerr.finishing = 1;
    if (jerr.strict) jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return SHELF_OK;
}

int shelf_jpeg_encode(const void *pixels, int32_t width, int32_t height, int32_t components, int quality,
                      void **out_data, size_t *out_size, shelf_codec_error *err) {
    struct jpeg_compress_struct cinfo;
    struct shelf_jpeg_error_mgr jerr;
    /* libjpeg grows the buffer through this address-taken pointer, so it is current after a longjmp. */
    unsigned char *mem = NULL;
    unsigned long mem_size = 0;
    *out_data = NULL;
    *out_size = 0;
    err->code = SHELF_OK;
    err->message[0] = 0;
    if (width <= 0 || height <= 0 || (components != 1 && components != 3) || width > 65500 || height > 65500) {
        err->code = SHELF_ERR_ARGUMENT;
        snprintf(err->message, sizeof err->message, "cannot encode %dx%d with %d components as JPEG",
                 width, height, components);
        return err->code;
    }
    cinfo.err = &jerr.pub;
    shelf_jpeg_init_errors(&jerr);
    if (setjmp(jerr.escape)) {
        jpeg_destroy_compress(&cinfo);
        free(mem);
        return shelf_jpeg_fail(&jerr, err);
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &mem, &mem_size);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = components;
    cinfo.in_color_space = components == 1 ? JCS_GRAYSCALE : JCS_EXT_RGB;
    jpeg_set_defaults(&cinfo); /* 4:2:0, ISLOW, JFIF */
    jpeg_set_quality(&cinfo, quality < 1 ? 1 : quality > 100 ? 100 : quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    const size_t stride = (size_t)width * (size_t)components;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)((const unsigned char *)pixels + (size_t)cinfo.next_scanline * stride);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out_data = mem;
    *out_size = mem_size;
    return SHELF_OK;
}
