#ifndef SHELF_PIXEL_LOOPS_H
#define SHELF_PIXEL_LOOPS_H
/*
 * Per-pixel loops that run on every scan, in C for two reasons measured with perf. Swift checks each
 * float-to-byte conversion for NaN and range: in the box-filter shrink that check cost more than the
 * arithmetic (13% of the loop's samples on one compare). And Swift left the spine detector's per-pixel sums
 * scalar (one float per instruction, accumulators spilled), where C with restrict pointers runs them four
 * or eight at a time: detection's share of a scan went from 55 to 32 ms per photo. The Swift callers plan
 * the work (taps, weights, row offsets); these only run it, with the same float operations in the same
 * order, so every value is the Swift loop's.
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

/*
 * The spine detector's per-pixel planes from interleaved RGB (`width` x `height`): the colour planes and
 * luma (0.299 R + 0.587 G + 0.114 B) as floats, and the 3x3 Sobel gradient taken from whichever colour
 * plane changes most, split by orientation. A pixel whose across-change is at least its along-change
 * gets (strength - floor) / span, held to 0...1, in `vertical`, otherwise in `horizontal`; the other
 * plane and the one-pixel border stay 0.
 */
void shelf_edge_maps(const uint8_t *rgb, intptr_t width, intptr_t height, float floor, float span,
                     float *red, float *green, float *blue, float *luma, float *vertical, float *horizontal);

/*
 * Column sums along one slant through a band of rows: for each k < row_count, row rows[k] shifted by
 * offsets[k] columns adds plane[rows[k] * width + offsets[k] + x] to sum[x] for every x that stays in the
 * row, and 1 to count[x]. Rows at or below foot_top add vertical to foot and 1 to foot_count too.
 * Every output (width floats) is zeroed first.
 */
void shelf_slant_sums(const float *vertical, const float *luma, const float *red, const float *green, const float *blue,
                      intptr_t width, const intptr_t *rows, const intptr_t *offsets, intptr_t row_count, intptr_t foot_top,
                      float *coverage, float *lum, float *r, float *g, float *b, float *count, float *foot, float *foot_count);

/* shelf_slant_sums for the vertical-edge plane alone, without a foot. */
void shelf_slant_coverage(const float *vertical, intptr_t width, const intptr_t *rows, const intptr_t *offsets,
                          intptr_t row_count, float *coverage, float *count);

/*
 * Sum of squared bins after projecting weighted points along a line of `slope`: point i adds vs[i] to
 * bin (intptr_t)(ys[i] - xs[i] * slope + margin + 0.5) when that lies in 0 ..< bin_count. `bins` is the
 * caller's scratch.
 */
double shelf_projection_energy(const double *xs, const double *ys, const double *vs, intptr_t n, double slope,
                               double margin, double *bins, intptr_t bin_count);

#endif
