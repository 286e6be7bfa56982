#ifndef SHELF_PIXEL_LOOPS_H
#define SHELF_PIXEL_LOOPS_H
/*
 * Per-pixel loops that run once per photo on every scan, in C because Swift checks each float-to-byte
 * conversion for NaN and range: in the box-filter shrink that check cost more than the arithmetic (13% of
 * the loop's samples on one compare, perf). The callers in ShelfImage plan the work (taps and weights);
 * these only run it, with the same float operations in the same order, so the bytes are the Swift loop's.
 */
#include <stddef.h>
#include <stdint.h>

/*
 * Box-filter resample of `channels`-interleaved 8-bit rows. Output row y sums source rows
 * row_source[row_first[y] ..< row_first[y + 1]] with row_weight into `acc` (width * channels floats, the
 * caller's), then output pixel x sums acc's pixels col_source[col_first[x] ..< col_first[x + 1]] with
 * col_weight, rounded half up and held to 0...255. Indices are the caller's to keep in range.
 */
void shelf_area_resample(const uint8_t *src, intptr_t width, intptr_t channels,
                         const intptr_t *row_first, const intptr_t *row_source, const float *row_weight, intptr_t out_height,
                         const intptr_t *col_first, const intptr_t *col_source, const float *col_weight, intptr_t out_width,
                         float *acc, uint8_t *dst);

/*
 * Bilinear resample of `channels`-interleaved 8-bit rows with 8-bit fixed-point weights: output pixel (x, y)
 * blends source columns col_lo[x], col_hi[x] by col_frac[x] / 256 and rows row_lo[y], row_hi[y] by
 * row_frac[y] / 256, rounded to nearest. Indices are the caller's to keep in range.
 */
void shelf_bilinear_resample(const uint8_t *src, intptr_t width, intptr_t channels,
                             const intptr_t *row_lo, const intptr_t *row_hi, const intptr_t *row_frac, intptr_t out_height,
                             const intptr_t *col_lo, const intptr_t *col_hi, const intptr_t *col_frac, intptr_t out_width,
                             uint8_t *dst);

#endif
