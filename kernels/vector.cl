/* clconvolve, method=vector: convolve_vector. A program is common.cl and this file.
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Build options (besides the common ones):
 *   -DNV=v -DMY=m    8*v samples of each of m rows per work-item (8*v a multiple of
 *                    CHANNELS: 3 or 6 for 3-sample pixels; SKIPMASK must be 0); defaults 2
 *                    and 1 (common.cl)
 */


/* A pixel's sums out of an array of samples: pixel k's CHANNELS lanes */
#if CHANNELS == 1
#define VEC_ACC_AT(a, k) ((a)[k])
#elif CHANNELS == 2
#define VEC_ACC_AT(a, k) vload2 (k, a)
#elif CHANNELS == 3
#define VEC_ACC_AT(a, k) vload3 (k, a)
#else
#define VEC_ACC_AT(a, k) vload4 (k, a)
#endif

/* One input row's samples from pixel xs on (VEC_SEG * 8 of them), where the block's window
 * crosses the plane's edge: each pixel mapped through the border rule (zeros for constant). */
inline void
vector_gather (float *w, __global const uchar * src, int pitch, int xs, int yy, int width,
    int height SHAPE_PARAMS)
{
  int ym = BORDER == BORDER_CONSTANT ? (yy < 0 || yy >= height ? -1 : yy) :
      border_coord (yy, height SHAPE_ARGS);

  for (int k = 0; k < VEC_SEG * 8; k += CHANNELS) {
    int xx = xs + k / CHANNELS, xm = BORDER == BORDER_CONSTANT ?
        (xx < 0 || xx >= width ? -1 : xx) : border_coord (xx, width SHAPE_ARGS);
    __global const samp_t *q = CSAMPLES (src + max (ym, 0) * pitch + max (xm, 0) * PIX_BYTES);

    for (int c = 0; c < CHANNELS && k + c < VEC_SEG * 8; c++)
      w[k + c] = ym < 0 || xm < 0 ? 0.0f : convert_float (STORED (q[c]));
  }
}

/* The outputs of a block's pixels from x on row y that end the row: those up to span, the ones
 * from width on copied */
inline void
vector_store_pixels (const float8 * acc, __global const uchar * src, int src_pitch,
    __global uchar * dst, int dst_pitch, int x, int y, int width, int span, float bias,
    uint passmask)
{
  float l[VEC_SAMPLES];

  for (int v = 0; v < NV; v++)
    vstore8 (acc[v], v, l);
  for (int k = 0; k < VEC_PIXELS && x + k < span; k++) {
    __global uchar *o = dst + y * dst_pitch + (x + k) * PIX_BYTES;
    pix_t centre = READ (src + y * src_pitch + (x + k) * PIX_BYTES);
    acc_t a = VEC_ACC_AT (l, k);

    if (x + k >= width)
      write_pix (centre, o);
    else
#ifdef ONLY
      store (o, PICK (a), bias, centre, passmask);
#else
      store (o, a, bias, centre, passmask);
#endif
  }
}

/* A work-item's block whose window crosses the plane's edge: the same sums out of rows
 * gathered through the border, in loops left rolled (a few blocks a row: the program keeps one
 * unrolled body, the inside blocks'), and the pixels that end the row stored one by one */
__attribute__ ((noinline)) void
vector_edge (__global const uchar * src, int src_pitch, __global uchar * dst, int dst_pitch,
    int xb, int y, int width, int height, int span, __constant float *coef, float bias,
    uint passmask SHAPE_PARAMS)
{
  float8 acc[MY][NV];
  float w[VEC_SEG * 8];

  for (int m = 0; m < MY; m++)
    for (int v = 0; v < NV; v++)
      acc[m][v] = (float8) (0.0f);
#pragma unroll 1
  for (int r = 0; r < KSIZE + MY - 1; r++) {
    vector_gather (w, src, src_pitch, xb - RADIUS, y - RADIUS + r, width, height SHAPE_ARGS);
#pragma unroll 1
    for (int m = 0; m < MY; m++) {
      int j = r - m;

      if (j < 0 || j >= KSIZE)
        continue;
#pragma unroll 1
      for (int i = 0; i < KSIZE; i++) {
        float8 c = (float8) (coef[j * KSIZE + i]);

        for (int v = 0; v < NV; v++)
          acc[m][v] = fma (c, vload8 (0, w + i * CHANNELS + 8 * v), acc[m][v]);
      }
    }
  }
  for (int m = 0; m < MY && y + m < height; m++) {
    if (xb + VEC_PIXELS <= width) {
      __global const samp_t *centre = CSAMPLES (src + (y + m) * src_pitch + xb * PIX_BYTES);
      __global samp_t *out = SAMPLES (dst + (y + m) * dst_pitch + xb * PIX_BYTES);

      for (int v = 0; v < NV; v++)
        put8 (acc[m][v], bias, passmask, centre, out, v);
    } else {
      vector_store_pixels (acc[m], src, src_pitch, dst, dst_pitch, xb, y + m, width, span,
          bias, passmask);
    }
  }
}

/* method=vector: each work-item computes VEC_PIXELS adjacent pixels (NV float8 vectors of
 * samples, every channel at once) on each of MY adjacent rows. Each input row the block needs
 * is loaded and converted to float once and feeds every output row it reaches; the KSIZE
 * horizontal taps are shifted windows of it (a channel's neighbour is CHANNELS lanes away), so
 * the inner loop is one multiply-add per tap and vector: SIMD-friendly code for CPU compilers
 * (PoCL). Blocks whose window crosses the plane's edge run vector_edge. Needs SKIPMASK 0. */
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
  vector_edge (src, src_pitch, dst, dst_pitch, xb, y, width, height, span, coef, bias, passmask
      SHAPE_ARGS);
}
