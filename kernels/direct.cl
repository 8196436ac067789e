/* clconvolve, method=float4: convolve_direct. A program is common.cl and this file.
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Build option (besides the common ones):
 *   -DBLOCK=n        adjacent pixels per work-item (register blocking); default 1
 * With -DGENERIC (common.cl) instead of -DKSIZE and -DBORDER, the kernel takes the matrix side
 * and the border as two more arguments, ksize and border, and computes one pixel per work-item.
 * Takes -DCOMBINE (common.cl): coef then holds both matrices.
 */

#ifndef BLOCK
#define BLOCK 1
#endif

/* method=float4: each work-item computes BLOCK adjacent pixels of a row (-DBLOCK, default 1)
 * straight from global memory with vector loads. Inside the plane the BLOCK windows share
 * their loads: each row of KSIZE + BLOCK - 1 input pixels is read once into registers and
 * feeds every output (register blocking); near a border each pixel takes the border path. */
__kernel void
convolve_direct (int row0, __global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, float bias, uint passmask SHAPE_PARAMS)
{
  int xb = get_global_id (0) * BLOCK, y = row0 + (int) get_global_id (1);
  __global uchar *drow = dst + dst_offset + y * dst_pitch;

  if (xb >= span || y >= height)
    return;
  src += src_offset;

#if BLOCK > 1
  if (xb >= RADIUS && y >= RADIUS && xb + BLOCK - 1 + RADIUS < width &&
      y + RADIUS < height) {
    __global const uchar *row = src + (y - RADIUS) * src_pitch + (xb - RADIUS) * PIX_BYTES;
    sum_t sum[BLOCK], sum2[BLOCK];

    for (int b = 0; b < BLOCK; b++)
      sum[b] = sum2[b] = (sum_t) (0.0f);
    for (int j = 0; j < KSIZE; j++, row += src_pitch) {
      sum_t in[KSIZE + BLOCK - 1];

      for (int i = 0; i < KSIZE + BLOCK - 1; i++)
        in[i] = LOAD_SUM (row + i * PIX_BYTES);
      for (int i = 0; i < KSIZE; i++) {
        float c = coef[j * KSIZE + i], c2 = PAIRED ? coef[(KSIZE + j) * KSIZE + i] : 0.0f;

        for (int b = 0; b < BLOCK; b++) {
          sum[b] += c * in[i + b];
          if (PAIRED)
            sum2[b] += c2 * in[i + b];
        }
      }
    }
    for (int b = 0; b < BLOCK; b++)
      store (drow + (xb + b) * PIX_BYTES, COMBINED (sum[b], sum2[b]), bias,
          READ (src + y * src_pitch + (xb + b) * PIX_BYTES), passmask);
    return;
  }
#endif
  for (int b = 0; b < BLOCK && xb + b < span; b++)
    direct_pixel (src, src_pitch, drow, xb + b, y, width, height, coef, bias,
        passmask SHAPE_ARGS);
}
