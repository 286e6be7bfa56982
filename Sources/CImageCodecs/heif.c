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
#include <stdint.h>
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

/* ISOBMFF boxes, read only as far as the item references: big-endian fields, every read bounds-checked. */
static uint32_t shelf_be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static uint32_t shelf_be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }

/* The box at `at` within [0, end): its type, where its payload starts and where it ends. 0 when malformed. */
static int shelf_box(const uint8_t *d, size_t at, size_t end, uint32_t *type, size_t *payload, size_t *box_end) {
    if (end < 8 || at > end - 8) return 0;
    uint64_t size = shelf_be32(d + at);
    *type = shelf_be32(d + at + 4);
    size_t header = 8;
    if (size == 1) {
        if (end < 16 || at > end - 16) return 0;
        size = (uint64_t)shelf_be32(d + at + 8) << 32 | shelf_be32(d + at + 12);
        header = 16;
    } else if (size == 0) {
        size = end - at;
    }
    if (size < header || size > end - at) return 0;
    *payload = at + header;
    *box_end = at + (size_t)size;
    return 1;
}

#define SHELF_FOURCC(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))
/* Where the top-level meta box's children lie (past its version and flags); 0 when there is none. */
static int shelf_meta(const uint8_t *d, size_t size, size_t *children, size_t *end) {
    uint32_t type;
    size_t payload, box_end, at = 0;
    while (shelf_box(d, at, size, &type, &payload, &box_end)) {
        if (type == SHELF_FOURCC('m', 'e', 't', 'a')) {
            *children = payload + 4;
            *end = box_end;
            return *children <= box_end;
        }
        at = box_end;
    }
    return 0;
}

/* A 100 MP photo in 512-pixel tiles has 400; more references than this is no photo. */
enum { SHELF_HEIF_MAX_REFS = 4096 };

typedef struct { uint32_t from, to; } shelf_ref;
static int shelf_cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}
static int shelf_cmp_ref_to(const void *a, const void *b) {
    return shelf_cmp_u32(&((const shelf_ref *)a)->to, &((const shelf_ref *)b)->to);
}
static size_t shelf_node(const uint32_t *ids, size_t m, uint32_t id) {
    const uint32_t *p = bsearch(&id, ids, m, sizeof *ids, shelf_cmp_u32);
    return (size_t)(p - ids);
}

/* Whether the references contain a loop: Kahn's method from the sinks. An item that refers to nothing left is
 * taken away with the references into it; a loop is what can never be taken away. */
static int shelf_refs_loop(shelf_ref *refs, size_t n) {
    uint32_t *ids = malloc(sizeof(uint32_t) * 2 * n + 1);
    size_t *out = calloc(2 * n + 1, sizeof(size_t)), *queue = malloc(sizeof(size_t) * (2 * n + 1));
    int loop = 0;
    if (!ids || !out || !queue) goto done;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) { ids[m++] = refs[i].from; ids[m++] = refs[i].to; }
    qsort(ids, m, sizeof *ids, shelf_cmp_u32);
    size_t unique = 0;
    for (size_t i = 0; i < m; i++) if (unique == 0 || ids[unique - 1] != ids[i]) ids[unique++] = ids[i];
    m = unique;
    for (size_t i = 0; i < n; i++) out[shelf_node(ids, m, refs[i].from)]++;
    qsort(refs, n, sizeof *refs, shelf_cmp_ref_to);
    size_t head = 0, tail = 0;
    for (size_t v = 0; v < m; v++) if (out[v] == 0) queue[tail++] = v;
    while (head < tail) {
        const uint32_t id = ids[queue[head++]];
        /* The references into `id`: a run of the list sorted by target. */
        size_t lo = 0, hi = n;
        while (lo < hi) { size_t mid = (lo + hi) / 2; if (refs[mid].to < id) lo = mid + 1; else hi = mid; }
        for (size_t k = lo; k < n && refs[k].to == id; k++) {
            const size_t u = shelf_node(ids, m, refs[k].from);
            if (--out[u] == 0) queue[tail++] = u;
        }
    }
    loop = tail < m;
done:
    free(ids);
    free(out);
    free(queue);
    return loop;
}

/*
 * Whether the file's derived images ('dimg' references: grids, overlays, identity items) refer back to
 * themselves, directly or through others, or are more than any photo has. libheif 1.15 (Debian 12's) follows
 * such a loop until its stack overflows, or until it cannot start another decoding thread and throws from a C++
 * thread, which aborts the process: a 1 KB file would crash the scan. So the references are read here first.
 * Returns 1 to refuse the file, 0 otherwise (no iref box is no loop; a box libheif will reject anyway
 * is left to it).
 */
static int shelf_heif_has_reference_loop(const uint8_t *d, size_t meta, size_t meta_end) {
    uint32_t type;
    size_t payload, box_end, at;
    size_t iref = 0, iref_end = 0;
    for (at = meta; shelf_box(d, at, meta_end, &type, &payload, &box_end); at = box_end) {
        if (type == SHELF_FOURCC('i', 'r', 'e', 'f')) { iref = payload; iref_end = box_end; break; }
    }
    if (iref == 0 || iref + 4 > iref_end) return 0;
    const int wide = d[iref] != 0; /* version 1: 32-bit item IDs */
    const size_t id_size = wide ? 4 : 2;
    shelf_ref *refs = malloc(sizeof(shelf_ref) * SHELF_HEIF_MAX_REFS);
    if (!refs) return 0;
    size_t n = 0;
    int refuse = 0;
    for (at = iref + 4; !refuse && shelf_box(d, at, iref_end, &type, &payload, &box_end); at = box_end) {
        /* A reference box too short for its source and count, or for the references it counts: libheif 1.15
         * reads them from the bytes after the box, where a damaged file can make an image its own source. */
        if (payload + id_size + 2 > box_end) { refuse = 1; break; }
        const size_t count = shelf_be16(d + payload + id_size);
        if (payload + id_size + 2 + count * id_size > box_end) { refuse = 1; break; }
        if (type != SHELF_FOURCC('d', 'i', 'm', 'g')) continue;
        const uint32_t source = wide ? shelf_be32(d + payload) : shelf_be16(d + payload);
        size_t q = payload + id_size + 2;
        for (size_t k = 0; k < count && q + id_size <= box_end; k++, q += id_size) {
            if (n == SHELF_HEIF_MAX_REFS) { refuse = 1; break; }
            refs[n].from = source;
            refs[n].to = wide ? shelf_be32(d + q) : shelf_be16(d + q);
            n++;
        }
    }
    if (!refuse && n > 0) refuse = shelf_refs_loop(refs, n);
    free(refs);
    return refuse;
}

/* Bits of an HEVC parameter set's RBSP, most significant first; -1 once past the end. */
typedef struct { const uint8_t *d; size_t n, bit; } shelf_bits;
static int64_t shelf_bits_u(shelf_bits *b, int k) {
    int64_t v = 0;
    for (int i = 0; i < k; i++) {
        if (b->bit >= b->n * 8) return -1;
        v = v << 1 | ((b->d[b->bit >> 3] >> (7 - (b->bit & 7))) & 1);
        b->bit++;
    }
    return v;
}
/* ue(v): Exp-Golomb; -1 when cut or longer than 32 bits. */
static int64_t shelf_bits_ue(shelf_bits *b) {
    int zeros = 0;
    for (;;) {
        int64_t bit = shelf_bits_u(b, 1);
        if (bit < 0 || zeros > 31) return -1;
        if (bit == 1) break;
        zeros++;
    }
    int64_t rest = shelf_bits_u(b, zeros);
    return rest < 0 ? -1 : ((int64_t)1 << zeros) - 1 + rest;
}

/*
 * The luma size an HEVC sequence parameter set (a NAL unit, its 2-byte header first) declares: 1 with *w, *h set,
 * 0 when it cannot be read this far (left to the decoder). H.265 7.3.2.2: the fields before the size are a few bits,
 * the profile, tier and level (12 bytes, and per sub-layer ones), the SPS id and the chroma format.
 */
static int shelf_hevc_sps_size(const uint8_t *nal, size_t n, uint32_t *w, uint32_t *h) {
    uint8_t rbsp[128];
    size_t m = 0;
    int zeros = 0;
    for (size_t i = 2; i < n && m < sizeof rbsp; i++) {
        if (zeros >= 2 && nal[i] == 3) { zeros = 0; continue; } /* emulation prevention */
        zeros = nal[i] == 0 ? zeros + 1 : 0;
        rbsp[m++] = nal[i];
    }
    shelf_bits b = { rbsp, m, 0 };
    shelf_bits_u(&b, 4);
    const int64_t sub_layers = shelf_bits_u(&b, 3);
    if (sub_layers < 0) return 0;
    b.bit += 1 + 96; /* temporal id nesting; general profile, tier and level */
    int profile[8] = { 0 }, level[8] = { 0 };
    for (int i = 0; i < sub_layers; i++) {
        profile[i] = (int)shelf_bits_u(&b, 1);
        level[i] = (int)shelf_bits_u(&b, 1);
    }
    if (sub_layers > 0) b.bit += 2 * (size_t)(8 - sub_layers);
    for (int i = 0; i < sub_layers; i++) b.bit += (profile[i] == 1 ? 88 : 0) + (level[i] == 1 ? 8 : 0);
    if (shelf_bits_ue(&b) < 0) return 0; /* sps id */
    const int64_t chroma = shelf_bits_ue(&b);
    if (chroma < 0) return 0;
    if (chroma == 3) b.bit += 1;
    const int64_t width = shelf_bits_ue(&b), height = shelf_bits_ue(&b);
    if (width < 0 || height < 0 || width > UINT32_MAX || height > UINT32_MAX) return 0;
    *w = (uint32_t)width;
    *h = (uint32_t)height;
    return 1;
}

/* Grows *w, *h to the largest size the SPS units of an hvcC property (payload at `at`, ending at `end`) code. Its
 * fixed part is 22 bytes; then arrays of NAL units by type, each unit with a 16-bit length. */
static void shelf_hvcc_coded_size(const uint8_t *d, size_t at, size_t end, uint64_t *w, uint64_t *h) {
    if (at > end || end - at < 23) return;
    size_t q = at + 22;
    const unsigned arrays = d[q++];
    for (unsigned a = 0; a < arrays && q + 3 <= end; a++) {
        const unsigned nal_type = d[q] & 0x3f, count = shelf_be16(d + q + 1);
        q += 3;
        for (unsigned k = 0; k < count && q + 2 <= end; k++) {
            const size_t len = shelf_be16(d + q);
            q += 2;
            if (len > end - q) return;
            uint32_t sw, sh;
            if (nal_type == 33 && shelf_hevc_sps_size(d + q, len, &sw, &sh)) {
                if (sw > *w) *w = sw;
                if (sh > *h) *h = sh;
            }
            q += len;
        }
    }
}

/* An unsigned big-endian field of `n` bytes (0 to 8) at d[at], if it lies before `end`. */
static int shelf_be_n(const uint8_t *d, size_t end, size_t *at, unsigned n, uint64_t *out) {
    if (n > 8 || *at > end || n > end - *at) return 0;
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) v = v << 8 | d[*at + i];
    *at += n;
    *out = v;
    return 1;
}

/*
 * Whether the sizes the file codes its images at are larger than every size it states (its ispe properties, which
 * the pixel limit is checked against). libheif 1.15 allocates by the coded sizes: an HEVC image by its SPS (in the
 * hvcC property), a grid by the output size in its own data, which it reads even from past the end of the idat box
 * holding it. Both were found by the fuzzer: 1 KB files stating 64x48 that took gigabytes. An SPS may round up to
 * the coding block (64 at most); a grid's data must lie inside its box. With no ispe at all, no side may pass 16384.
 * Returns 1 to refuse.
 */
static int shelf_heif_coded_size_exceeds(const uint8_t *d, size_t size, size_t meta, size_t meta_end) {
    uint32_t type;
    size_t payload, box_end, at;
    size_t ipco = 0, ipco_end = 0, iinf = 0, iinf_end = 0, iloc = 0, iloc_end = 0, idat = 0, idat_end = 0;
    for (at = meta; shelf_box(d, at, meta_end, &type, &payload, &box_end); at = box_end) {
        if (type == SHELF_FOURCC('i', 'i', 'n', 'f')) { iinf = payload; iinf_end = box_end; }
        if (type == SHELF_FOURCC('i', 'l', 'o', 'c')) { iloc = payload; iloc_end = box_end; }
        if (type == SHELF_FOURCC('i', 'd', 'a', 't')) { idat = payload; idat_end = box_end; }
        if (type != SHELF_FOURCC('i', 'p', 'r', 'p') || ipco) continue;
        size_t q = payload, inner_end;
        for (; shelf_box(d, q, box_end, &type, &payload, &inner_end); q = inner_end) {
            if (type == SHELF_FOURCC('i', 'p', 'c', 'o')) { ipco = payload; ipco_end = inner_end; break; }
        }
    }
    uint64_t stated_w = 0, stated_h = 0, coded_w = 0, coded_h = 0;
    for (at = ipco; ipco && shelf_box(d, at, ipco_end, &type, &payload, &box_end); at = box_end) {
        if (type == SHELF_FOURCC('i', 's', 'p', 'e') && payload + 12 <= box_end) {
            const uint32_t w = shelf_be32(d + payload + 4), h = shelf_be32(d + payload + 8);
            if (w > stated_w) stated_w = w;
            if (h > stated_h) stated_h = h;
        } else if (type == SHELF_FOURCC('h', 'v', 'c', 'C')) {
            shelf_hvcc_coded_size(d, payload, box_end, &coded_w, &coded_h);
        }
    }
    /* Grid items (iinf), where their data lies (iloc), and the output size it gives. */
    uint32_t grids[64];
    size_t n_grids = 0;
    if (iinf && iinf + 4 <= iinf_end) {
        size_t q = iinf + 4 + (d[iinf] == 0 ? 2 : 4), entry_end;
        for (; n_grids < 64 && shelf_box(d, q, iinf_end, &type, &payload, &entry_end); q = entry_end) {
            if (type != SHELF_FOURCC('i', 'n', 'f', 'e') || payload + 4 > entry_end) continue;
            const int version = d[payload];
            if (version < 2) continue;
            const size_t id_size = version == 2 ? 2 : 4;
            if (payload + 4 + id_size + 2 + 4 > entry_end) continue;
            const uint32_t id = id_size == 2 ? shelf_be16(d + payload + 4) : shelf_be32(d + payload + 4);
            if (shelf_be32(d + payload + 4 + id_size + 2) == SHELF_FOURCC('g', 'r', 'i', 'd')) grids[n_grids++] = id;
        }
    }
    if (n_grids && iloc && iloc + 8 <= iloc_end) {
        const int version = d[iloc];
        size_t q = iloc + 4;
        const unsigned offset_size = d[q] >> 4, length_size = d[q] & 15, base_size = d[q + 1] >> 4;
        const unsigned index_size = version >= 1 ? d[q + 1] & 15 : 0;
        q += 2;
        uint64_t items, v;
        if (!shelf_be_n(d, iloc_end, &q, version < 2 ? 2 : 4, &items)) return 0;
        for (uint64_t i = 0; i < items; i++) {
            uint64_t id, method = 0, base, extents, offset = 0, length = 0;
            if (!shelf_be_n(d, iloc_end, &q, version < 2 ? 2 : 4, &id)) return 0;
            if (version >= 1 && !shelf_be_n(d, iloc_end, &q, 2, &method)) return 0;
            method &= 15;
            if (!shelf_be_n(d, iloc_end, &q, 2, &v) || !shelf_be_n(d, iloc_end, &q, base_size, &base)
                || !shelf_be_n(d, iloc_end, &q, 2, &extents)) return 0;
            for (uint64_t e = 0; e < extents; e++) {
                uint64_t o, l;
                if (!shelf_be_n(d, iloc_end, &q, index_size, &v) || !shelf_be_n(d, iloc_end, &q, offset_size, &o)
                    || !shelf_be_n(d, iloc_end, &q, length_size, &l)) return 0;
                if (e == 0) { offset = o; length = l; }
            }
            int is_grid = 0;
            for (size_t g = 0; g < n_grids; g++) is_grid |= grids[g] == id;
            if (!is_grid || extents == 0) continue;
            /* The grid's data: in the file (method 0) or in the idat box (method 1), wholly inside it. */
            size_t start, end;
            if (method == 0) { start = 0; end = size; }
            else if (method == 1 && idat) { start = idat; end = idat_end; }
            else continue;
            if (base > end - start || offset > end - start - base) return 1;
            const size_t from = start + (size_t)(base + offset);
            const size_t avail = end - from;
            if (length == 0) length = avail;
            if (length > avail || length < 8) return 1;
            const int wide = d[from + 1] & 1;
            if (wide && length < 12) return 1;
            const uint64_t w = wide ? shelf_be32(d + from + 4) : shelf_be16(d + from + 4);
            const uint64_t h = wide ? shelf_be32(d + from + 8) : shelf_be16(d + from + 6);
            if (w > coded_w) coded_w = w;
            if (h > coded_h) coded_h = h;
        }
    }
    if (stated_w == 0 || stated_h == 0) return coded_w > 16384 || coded_h > 16384;
    return coded_w > stated_w + 64 || coded_h > stated_h + 64;
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
    /* Both checks read the meta box's children: found once. No meta box is left to libheif, which rejects it. */
    size_t meta, meta_end;
    if (shelf_meta((const uint8_t *)data, size, &meta, &meta_end)) {
        if (shelf_heif_has_reference_loop((const uint8_t *)data, meta, meta_end))
            return shelf_heif_fail_with(SHELF_ERR_CORRUPT, err,
                                        "a derived image refers back to itself or to too many images, or a reference box is cut short");
        if (shelf_heif_coded_size_exceeds((const uint8_t *)data, size, meta, meta_end))
            return shelf_heif_fail_with(SHELF_ERR_CORRUPT, err, "an image is coded larger than the file says it is");
    }
    struct heif_context *c = heif_context_alloc();
    if (!c) return shelf_heif_fail_with(SHELF_ERR_NOMEM, err, "cannot allocate a libheif context");
    /* No side longer than this, whatever a grid or a damaged box states (libheif's own limit is 32768 x 32768:
     * a 1 KB file reading a grid's size from past its idat box took 400 MB per plane; found by the fuzzer). A
     * 16384-pixel side holds any phone photo. */
    heif_context_set_maximum_image_size_limit(c, 16384);
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
