#include "CPixelLoops.h"
#include <math.h>

/* No fused multiply-adds: every value must round as the Swift loop's did, term by term. */
#pragma STDC FP_CONTRACT OFF

void shelf_edge_maps(const uint8_t *restrict rgb, intptr_t width, intptr_t height, float floor, float span,
                     float *restrict red, float *restrict green, float *restrict blue, float *restrict luma,
                     float *restrict vertical, float *restrict horizontal) {
    const intptr_t n = width * height;
    for (intptr_t i = 0; i < n; i++) {
        const float r = (float)rgb[3 * i], g = (float)rgb[3 * i + 1], b = (float)rgb[3 * i + 2];
        red[i] = r; green[i] = g; blue[i] = b;
        luma[i] = 0.299f * r + 0.587f * g + 0.114f * b;
    }
    for (intptr_t i = 0; i < n; i++) { vertical[i] = 0.0f; horizontal[i] = 0.0f; }
    if (width < 3 || height < 3) return;
    const float *planes[3] = { red, green, blue };
    const intptr_t w = width;
    for (intptr_t y = 1; y < height - 1; y++) {
        float *restrict vrow = vertical + y * w, *restrict hrow = horizontal + y * w;
        for (intptr_t x = 1; x < w - 1; x++) {
            float best_x = 0.0f, best_y = 0.0f;
            for (int c = 0; c < 3; c++) {
                const float *p = planes[c] + y * w + x;
                const float a = p[-w - 1], bq = p[-w], cq = p[-w + 1];
                const float d = p[-1], f = p[1];
                const float gq = p[w - 1], hq = p[w], k = p[w + 1];
                const float sx = fabsf((cq + 2 * f + k) - (a + 2 * d + gq)) * 0.25f;
                const float sy = fabsf((gq + 2 * hq + k) - (a + 2 * bq + cq)) * 0.25f;
                best_x = sx > best_x ? sx : best_x;
                best_y = sy > best_y ? sy : best_y;
            }
            /* Swift's min(1, max(0, v)): max keeps v when v >= 0, min keeps 1 unless v < 1. */
            const float vx = (best_x - floor) / span, vy = (best_y - floor) / span;
            const float cx = vx >= 0.0f ? vx : 0.0f, cy = vy >= 0.0f ? vy : 0.0f;
            if (best_x >= best_y) vrow[x] = cx < 1.0f ? cx : 1.0f;
            else hrow[x] = cy < 1.0f ? cy : 1.0f;
        }
    }
}

void shelf_slant_sums(const float *restrict vertical, const float *restrict luma, const float *restrict red,
                      const float *restrict green, const float *restrict blue, intptr_t width,
                      const intptr_t *rows, const intptr_t *offsets, intptr_t row_count, intptr_t foot_top,
                      float *restrict coverage, float *restrict lum, float *restrict r, float *restrict g,
                      float *restrict b, float *restrict count, float *restrict foot, float *restrict foot_count) {
    for (intptr_t x = 0; x < width; x++) {
        coverage[x] = 0; lum[x] = 0; r[x] = 0; g[x] = 0; b[x] = 0; count[x] = 0; foot[x] = 0; foot_count[x] = 0;
    }
    for (intptr_t k = 0; k < row_count; k++) {
        const intptr_t o = offsets[k];
        const intptr_t lo = o < 0 ? -o : 0, hi = o > 0 ? width - o : width;
        if (lo >= hi) continue;
        /* Row starts, indexed from o + lo >= 0 on: no pointer ever points before a plane. */
        const intptr_t row = rows[k] * width;
        const float *V = vertical + row, *L = luma + row, *R = red + row, *G = green + row, *B = blue + row;
        for (intptr_t x = lo; x < hi; x++) {
            coverage[x] += V[o + x]; lum[x] += L[o + x]; r[x] += R[o + x]; g[x] += G[o + x]; b[x] += B[o + x]; count[x] += 1.0f;
        }
        if (rows[k] >= foot_top) {
            for (intptr_t x = lo; x < hi; x++) { foot[x] += V[o + x]; foot_count[x] += 1.0f; }
        }
    }
}

void shelf_slant_coverage(const float *restrict vertical, intptr_t width, const intptr_t *rows, const intptr_t *offsets,
                          intptr_t row_count, float *restrict coverage, float *restrict count) {
    for (intptr_t x = 0; x < width; x++) { coverage[x] = 0; count[x] = 0; }
    for (intptr_t k = 0; k < row_count; k++) {
        const intptr_t o = offsets[k];
        const intptr_t lo = o < 0 ? -o : 0, hi = o > 0 ? width - o : width;
        if (lo >= hi) continue;
        const float *V = vertical + rows[k] * width;
        for (intptr_t x = lo; x < hi; x++) { coverage[x] += V[o + x]; count[x] += 1.0f; }
    }
}

double shelf_projection_energy(const double *xs, const double *ys, const double *vs, intptr_t n, double slope,
                               double margin, double *restrict bins, intptr_t bin_count) {
    for (intptr_t i = 0; i < bin_count; i++) bins[i] = 0;
    for (intptr_t i = 0; i < n; i++) {
        const double v = ys[i] - xs[i] * slope + margin + 0.5;
        if (!(v >= 0)) continue;
        const intptr_t b = (intptr_t)v;
        if (b < bin_count) bins[b] += vs[i];
    }
    double s = 0;
    for (intptr_t i = 0; i < bin_count; i++) s += bins[i] * bins[i];
    return s;
}
