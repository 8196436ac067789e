/* clconvolve, method=separable, two passes: convolve_rows and convolve_cols, both kernels of one
 * program. A program is common.cl and this file; it has no build options of its own. With
 * -DGENERIC (common.cl) both kernels take the matrix side and the border as two more arguments,
 * ksize and border: the generic separable program, one per pixel shape.
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* method=separable: the matrix as `rank` pairs of a vertical and a horizontal vector
 * (coef: [pair][vertical KSIZE, horizontal KSIZE]), run as a row pass into a float buffer and a
 * column pass out of it. tmp holds one width x height plane of sum_t per pair, from element
 * tmp_offset on. With -DCOMBINE (common.cl) rank is RANK_A + 16 * the second matrix's pairs,
 * which follow the first's; without, it may carry RANK_CENTRE (a centre term). */

/* Pass 1: tmp_i(x, y) = sum_t horizontal_i[t] * in(x + t - RADIUS, y). */
__kernel void
convolve_rows (int row0, __global const uchar * src, int src_offset, int src_pitch, int width,
    int height, __global sum_t * tmp, int tmp_offset, __constant float *coef, int rank SHAPE_PARAMS)
{
  int x = get_global_id (0), y = row0 + (int) get_global_id (1);
  __global const uchar *row;

  if (x >= width || y >= height)
    return;
  src += src_offset;
  row = src + y * src_pitch;
  tmp += tmp_offset;
  for (int i = 0; i < RANK_ALL (rank); i++) {
    __constant float *h = coef + (2 * i + 1) * KSIZE;
    sum_t sum = (sum_t) (0.0f);

    if (x >= RADIUS && x + RADIUS < width) {
      for (int t = 0; t < KSIZE; t++)
        sum += h[t] * LOAD_SUM (row + (x + t - RADIUS) * PIX_BYTES);
    } else {
      for (int t = 0; t < KSIZE; t++)
        sum += h[t] * SUM_OF (fetch (src, src_pitch, width, height, x + t - RADIUS, y));
    }
    tmp[((size_t) i * height + y) * width + x] = sum;
  }
}

/* Pass 2: out(x, y) = sum_i sum_t vertical_i[t] * tmp_i(x, y + t - RADIUS), rows outside the
 * plane mapped by the border (zeros for constant); pixels from width to span copied. */
__kernel void
convolve_cols (int row0, __global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __global const sum_t * tmp, int tmp_offset, __constant float *coef, int rank, float bias,
    uint passmask SHAPE_PARAMS)
{
  int x = get_global_id (0), y = row0 + (int) get_global_id (1);
  __global uchar *out;
  sum_t sum = (sum_t) (0.0f), sum2 = (sum_t) (0.0f);

  if (x >= span || y >= height)
    return;
  src += src_offset;
  out = dst + dst_offset + y * dst_pitch + x * PIX_BYTES;
  if (x >= width) {
    write_pix (READ (src + y * src_pitch + x * PIX_BYTES), out);
    return;
  }
  tmp += tmp_offset;
  for (int i = 0; i < RANK_ALL (rank); i++) {
    __constant float *v = coef + 2 * i * KSIZE;
    sum_t part = (sum_t) (0.0f);

    for (int t = 0; t < KSIZE; t++) {
      int yy = y + t - RADIUS;

      if (BORDER == BORDER_CONSTANT) {
        if (yy < 0 || yy >= height)
          continue;
      } else {
        yy = border_coord (yy, height SHAPE_ARGS);
      }
      part += v[t] * tmp[((size_t) i * height + yy) * width + x];
    }
    /* the first matrix's pairs, then the second's */
    if (i < RANK_A (rank))
      sum += part;
    else
      sum2 += part;
  }
  {
    pix_t centre = READ (src + y * src_pitch + x * PIX_BYTES);

    sum += CENTRE_W (coef, rank, RANK_ALL (rank)) * SUM_OF (centre);
    store (out, COMBINED (sum, sum2), bias, centre, passmask);
  }
}
