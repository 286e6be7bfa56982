#include "CPixelLoops.h"

/* No fused multiply-adds: the sums must round as the Swift loop's do, term by term. */
#pragma STDC FP_CONTRACT OFF

static inline uint8_t to_byte(float v) {
    float t = v + 0.5f;
    if (!(t > 0.0f)) t = 0.0f;
    if (t > 255.0f) t = 255.0f;
    return (uint8_t)t;
}

void shelf_area_resample(const uint8_t *src, intptr_t width, intptr_t channels,
                         const intptr_t *row_first, const intptr_t *row_source, const float *row_weight, intptr_t out_height,
                         const intptr_t *col_first, const intptr_t *col_source, const float *col_weight, intptr_t out_width,
                         float *acc, uint8_t *dst) {
    const intptr_t row_len = width * channels;
    for (intptr_t oy = 0; oy < out_height; oy++) {
        for (intptr_t i = 0; i < row_len; i++) acc[i] = 0.0f;
        for (intptr_t k = row_first[oy]; k < row_first[oy + 1]; k++) {
            const float w = row_weight[k];
            const uint8_t *row = src + row_source[k] * row_len;
            for (intptr_t i = 0; i < row_len; i++) acc[i] += w * (float)row[i];
        }
        uint8_t *out = dst + oy * out_width * channels;
        if (channels == 3) {
            for (intptr_t ox = 0; ox < out_width; ox++) {
                float v0 = 0.0f, v1 = 0.0f, v2 = 0.0f;
                for (intptr_t k = col_first[ox]; k < col_first[ox + 1]; k++) {
                    const float w = col_weight[k];
                    const float *a = acc + col_source[k] * 3;
                    v0 += w * a[0]; v1 += w * a[1]; v2 += w * a[2];
                }
                out[ox * 3] = to_byte(v0);
                out[ox * 3 + 1] = to_byte(v1);
                out[ox * 3 + 2] = to_byte(v2);
            }
        } else {
            for (intptr_t ox = 0; ox < out_width; ox++) {
                for (intptr_t ch = 0; ch < channels; ch++) {
                    float v = 0.0f;
                    for (intptr_t k = col_first[ox]; k < col_first[ox + 1]; k++) {
                        v += col_weight[k] * acc[col_source[k] * channels + ch];
                    }
                    out[ox * channels + ch] = to_byte(v);
                }
            }
        }
    }
}
