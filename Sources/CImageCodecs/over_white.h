#ifndef SHELF_OVER_WHITE_H
#define SHELF_OVER_WHITE_H
/* Private to the shims: the one alpha rule every decoder shares, so PNG, HEIF and WebP with the same
 * stored values give the same pixels. Not in include/: Swift never sees it. */
#include <stddef.h>

/* White background: out = (c * a + 255 * (255 - a)) / 255, rounded. */
static inline void shelf_rgba_row_over_white(const unsigned char *in, unsigned char *out, size_t width) {
    for (size_t x = 0; x < width; x++, in += 4, out += 3) {
        unsigned a = in[3], ia = 255 - a;
        for (int c = 0; c < 3; c++) {
            unsigned v = in[c] * a + 255 * ia + 127;
            out[c] = (unsigned char)(v / 255);
        }
    }
}

#endif
