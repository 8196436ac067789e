/* clconvolve, method=separable on GPUs, one kernel: convolve_lsep. A program is common.cl and
 * this file.
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Build options (besides the common ones):
 *   -DLSEP_TW=w -DLSEP_TH=h  work-groups of w x h work-items
 *   -DSTRIP=s                output rows of a work-group (a multiple of h)
 *   -DLSEP_RANK=r            vector pairs of the matrix (1 to CL_MAX_RANK)
 */

#ifdef LSEP_TW
/* A work-group filters a strip of STRIP rows of LSEP_TW columns, walking down it LSEP_TH input
 * rows at a time: each work-item takes the horizontal sums of one input row at its column (one
 * per pair, read from global memory: neighbouring work-items read neighbouring pixels) into a
 * ring of rows in local memory, then the vertical sum of one output row out of the ring. The
 * ring holds the KSIZE rows an output row needs for each of the LSEP_TH outputs of a step, so
 * nothing but the input and the output goes through global memory (the two-pass kernels write
 * and read back a float plane), and 2 r KSIZE multiply-adds per sample.
 * Rows and columns outside the plane map through the border rule (zeros for constant); pixels
 * from width to span are copied. coef: [pair][vertical KSIZE, horizontal KSIZE], as the other
 * separable kernels; rank is not read (LSEP_RANK). A launch covers whole strips (the band
 * heights are multiples of STRIP), rows from row0. */

#define RING (KSIZE + LSEP_TH - 1)

__kernel __attribute__ ((reqd_work_group_size (LSEP_TW, LSEP_TH, 1)))
void
convolve_lsep (int row0, __global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, int rank, float bias, uint passmask)
{
  __local sum_t ring[LSEP_RANK][RING][LSEP_TW];
  int lx = get_local_id (0), ly = get_local_id (1);
  int x = get_group_id (0) * LSEP_TW + lx;
  int ys = row0 + (int) get_group_id (1) * STRIP;
  int ye = min (ys + STRIP, height);
  /* input rows ys - RADIUS .. ye - 1 + RADIUS, input row i (from 0) in ring slot i % RING */
  int n_in = ye - ys + KSIZE - 1;
  int inside = x >= RADIUS && x + RADIUS < width;

  src += src_offset;
  dst += dst_offset;
  for (int b = 0; b < n_in; b += LSEP_TH) {
    int i = b + ly, o = i - (KSIZE - 1);

    if (i < n_in && x < width) {
      int yy = ys - RADIUS + i;
      int slot = i % RING;

      if (BORDER != BORDER_CONSTANT)
        yy = border_coord (yy, height);
      if (yy < 0 || yy >= height) {
        for (int p = 0; p < LSEP_RANK; p++)
          ring[p][slot][lx] = (sum_t) (0.0f);
      } else {
        __global const uchar *row = src + yy * src_pitch;

        for (int p = 0; p < LSEP_RANK; p++) {
          __constant float *h = coef + (2 * p + 1) * KSIZE;
          sum_t s = (sum_t) (0.0f);

          if (inside) {
            __global const uchar *q = row + (x - RADIUS) * PIX_BYTES;

#pragma unroll
            for (int t = 0; t < KSIZE; t++)
              s += h[t] * LOAD_SUM (q + t * PIX_BYTES);
          } else {
            for (int t = 0; t < KSIZE; t++)
              s += h[t] * SUM_OF (fetch (src, src_pitch, width, height, x + t - RADIUS, yy));
          }
          ring[p][slot][lx] = s;
        }
      }
    }
    barrier (CLK_LOCAL_MEM_FENCE);
    /* output row ys + o: input rows o .. o + KSIZE - 1, all in the ring now */
    if (o >= 0 && i < n_in && x < span) {
      int y = ys + o;
      __global const uchar *centre = src + y * src_pitch + x * PIX_BYTES;
      __global uchar *out = dst + y * dst_pitch + x * PIX_BYTES;

      if (x >= width) {
        write_pix (READ (centre), out);
      } else {
        sum_t acc = (sum_t) (0.0f);
        int s0 = o % RING;

        for (int p = 0; p < LSEP_RANK; p++) {
          __constant float *v = coef + 2 * p * KSIZE;

#pragma unroll
          for (int t = 0; t < KSIZE; t++) {
            int s = s0 + t;

            acc += v[t] * ring[p][s >= RING ? s - RING : s][lx];
          }
        }
        store (out, acc, bias, READ (centre), passmask);
      }
    }
    barrier (CLK_LOCAL_MEM_FENCE);
  }
}
#endif
