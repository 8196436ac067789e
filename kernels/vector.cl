/* clconvolve, method=vector: convolve_vector. A program is common.cl and this file.
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Build options (besides the common ones):
 *   -DNV=v -DMY=m    8*v samples of each of m rows per work-item (8*v a multiple of
 *                    CHANNELS: 3 or 6 for 3-sample pixels; SKIPMASK must be 0); defaults 2
 *                    and 1 (common.cl)
 */


/* method=vector: each work-item computes VEC_PIXELS adjacent pixels (NV float8 vectors of
 * samples, every channel at once) on each of MY adjacent rows. Each input row the block needs
 * is loaded and converted to float once and feeds every output row it reaches; the KSIZE
 * horizontal taps are shifted windows of it (a channel's neighbour is CHANNELS lanes away), so
 * the inner loop is one multiply-add per tap and vector: SIMD-friendly code for CPU compilers
 * (PoCL). Blocks touching a border take the per-pixel path. Needs SKIPMASK 0. */
__kernel void
convolve_vector (int row0, __global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, float bias, uint passmask SHAPE_PARAMS)
{
  /* row0: a band's first row; each work-item below it covers MY rows */
  int xb = get_global_id (0) * VEC_PIXELS, y = row0 + (int) get_global_id (1) * MY;

  if (xb >= span || y >= height)
    return;
  src += src_offset;
  dst += dst_offset;
  /* inside the plane, reads included (VEC_READ may pass the last needed pixel) */
  if (xb >= RADIUS && y >= RADIUS && xb - RADIUS + VEC_READ <= width &&
      y + MY - 1 + RADIUS < height) {
    __global const uchar *row = src + (y - RADIUS) * src_pitch + (xb - RADIUS) * PIX_BYTES;
    float8 acc[MY][NV];

#pragma unroll
    for (int m = 0; m < MY; m++)
#pragma unroll
      for (int v = 0; v < NV; v++)
        acc[m][v] = (float8) (0.0f);
#pragma unroll
    for (int r = 0; r < KSIZE + MY - 1; r++, row += src_pitch) {
      float8 seg[VEC_SEG];

#pragma unroll
      for (int s = 0; s < VEC_SEG; s++)
        seg[s] = convert_float8 (STORED8 (vload8 (s, CSAMPLES (row))));
#pragma unroll
      for (int m = 0; m < MY; m++) {
        int j = r - m;          /* the coefficient row input row r meets for output row m */

        if (j < 0 || j >= KSIZE)
          continue;
#pragma unroll
        for (int i = 0; i < KSIZE; i++) {
          float8 c = (float8) (coef[j * KSIZE + i]);

#pragma unroll
          for (int v = 0; v < NV; v++)
            acc[m][v] = fma (c, window8 (seg, i * CHANNELS + 8 * v), acc[m][v]);
        }
      }
    }
#pragma unroll
    for (int m = 0; m < MY; m++) {
      __global const samp_t *centre = CSAMPLES (src + (y + m) * src_pitch + xb * PIX_BYTES);
      __global samp_t *out = SAMPLES (dst + (y + m) * dst_pitch + xb * PIX_BYTES);

#pragma unroll
      for (int v = 0; v < NV; v++)
        put8 (acc[m][v], bias, passmask, centre, out, v);
    }
    return;
  }
  block_by_pixel (src, src_pitch, dst, dst_pitch, xb, y, VEC_PIXELS, MY, width, height, span,
      coef, bias, passmask SHAPE_ARGS);
}
