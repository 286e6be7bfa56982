#include "CPixelLoops.h"

void shelf_bilinear_resample(const uint8_t *src, intptr_t width, intptr_t channels,
                             const intptr_t *row_lo, const intptr_t *row_hi, const intptr_t *row_frac, intptr_t out_height,
                             const intptr_t *col_lo, const intptr_t *col_hi, const intptr_t *col_frac, intptr_t out_width,
                             uint8_t *dst) {
    const intptr_t row_len = width * channels;
    uint8_t *out = dst;
    for (intptr_t oy = 0; oy < out_height; oy++) {
        const uint8_t *r0 = src + row_lo[oy] * row_len, *r1 = src + row_hi[oy] * row_len;
        const intptr_t fy = row_frac[oy], gy = 256 - fy;
        for (intptr_t ox = 0; ox < out_width; ox++) {
            const intptr_t x0 = col_lo[ox] * channels, x1 = col_hi[ox] * channels;
            const intptr_t fx = col_frac[ox], gx = 256 - fx;
            for (intptr_t ch = 0; ch < channels; ch++) {
                const intptr_t top = (intptr_t)r0[x0 + ch] * gx + (intptr_t)r0[x1 + ch] * fx;
                const intptr_t bottom = (intptr_t)r1[x0 + ch] * gx + (intptr_t)r1[x1 + ch] * fx;
                *out++ = (uint8_t)((top * gy + bottom * fy + 32768) >> 16);
            }
        }
    }
}
