/* clconvolve, method=sparse: convolve_sparse. A program is common.cl and this file.
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Build options (besides the common ones):
 *   -DNV=v -DMY=m    8*v samples of each of m rows per work-item, as method=vector (8*v a
 *                    multiple of CHANNELS; SKIPMASK must be 0)
 *
 * Arguments: the dense kernels' (common.cl; coef is unused), then
 *   taps     the matrix's non-zero coefficients, one int4 each: (dx, dy, the coefficient's
 *            float bits, 0), dx and dy in -RADIUS..RADIUS, the coefficient already divided;
 *            with -DCOMBINE (common.cl) the places where either matrix is non-zero, the
 *            second matrix's coefficient in the fourth field
 *   ntaps    how many
 * The list is data: a new matrix of the same side needs no new program.
 */

/* One output pixel from the taps alone, through the border rules (blocks touching a border);
 * pixels x in [width, span) are copied, as direct_pixel does. */
inline void
sparse_pixel (__global const uchar * src, int src_pitch, __global uchar * drow, int x, int y,
    int width, int height, __constant int4 * taps, int ntaps, float bias, uint passmask SHAPE_PARAMS)
{
  __global uchar *out = drow + x * PIX_BYTES;
  sum_t sum = (sum_t) (0.0f), sum2 = (sum_t) (0.0f);

  if (x >= width) {
    write_pix (READ (src + y * src_pitch + x * PIX_BYTES), out);
    return;
  }
  for (int t = 0; t < ntaps; t++) {
    int4 tap = taps[t];
    sum_t p = SUM_OF (fetch (src, src_pitch, width, height, x + tap.x, y + tap.y));

    sum += as_float (tap.z) * p;
    if (PAIRED)
      sum2 += as_float (tap.w) * p;
  }
  store (out, COMBINED (sum, sum2), bias, READ (src + y * src_pitch + x * PIX_BYTES),
      passmask);
}

/* method=sparse: each work-item computes VEC_PIXELS adjacent pixels on each of MY rows, looping
 * over the non-zero taps only. A tap is one shifted float8 load per vector, multiplied by the
 * same coefficient in every lane (channels never mix, and a pixel's neighbour at dx is
 * CHANNELS * dx samples away), so a 31-tap line costs 31 multiply-adds per sample instead of
 * 961; its offset and coefficient serve MY * NV vectors. Blocks touching a border take the
 * per-pixel path, over the taps too. */
__kernel void
convolve_sparse (int row0, __global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, float bias, uint passmask SHAPE_PARAMS, __constant int4 * taps, int ntaps)
{
  int xb = get_global_id (0) * VEC_PIXELS, y = row0 + (int) get_global_id (1) * MY;

  if (xb >= span || y >= height)
    return;
  src += src_offset;
  dst += dst_offset;
  if (xb >= RADIUS && y >= RADIUS && xb + VEC_PIXELS + RADIUS <= width &&
      y + MY - 1 + RADIUS < height) {
    __global const uchar *centre = src + y * src_pitch + xb * PIX_BYTES;
    float8 acc[MY][NV], acc2[MY][NV];

#pragma unroll
    for (int m = 0; m < MY; m++)
#pragma unroll
      for (int v = 0; v < NV; v++)
        acc[m][v] = acc2[m][v] = (float8) (0.0f);
    for (int t = 0; t < ntaps; t++) {
      int4 tap = taps[t];
      __global const uchar *in = centre + tap.y * src_pitch + tap.x * PIX_BYTES;
      float8 c = (float8) (as_float (tap.z)), c2 = (float8) (as_float (tap.w));

#pragma unroll
      for (int m = 0; m < MY; m++)
#pragma unroll
        for (int v = 0; v < NV; v++) {
          float8 p = convert_float8 (STORED8 (vload8 (v, CSAMPLES (in + m * src_pitch))));

          acc[m][v] = fma (c, p, acc[m][v]);
          if (PAIRED)
            acc2[m][v] = fma (c2, p, acc2[m][v]);
        }
    }
#pragma unroll
    for (int m = 0; m < MY; m++) {
      __global samp_t *out = SAMPLES (dst + (y + m) * dst_pitch + xb * PIX_BYTES);

#pragma unroll
      for (int v = 0; v < NV; v++)
        put8 (COMBINED (acc[m][v], acc2[m][v]), bias, passmask,
            CSAMPLES (centre + m * src_pitch), out, v);
    }
    return;
  }
  for (int m = 0; m < MY && y + m < height; m++)
    for (int b = 0; b < VEC_PIXELS && xb + b < span; b++)
      sparse_pixel (src, src_pitch, dst + (y + m) * dst_pitch, xb + b, y + m, width, height,
          taps, ntaps, bias, passmask SHAPE_ARGS);
}
