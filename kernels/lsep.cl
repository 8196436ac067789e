/* clconvolve, method=separable on GPUs, one kernel: convolve_lsep. A program is common.cl and
 * this file.
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Build options (besides the common ones):
 *   -DLSEP_TW=w -DLSEP_TH=h  work-groups of w x h work-items
 *   -DLSEP_MY=m              input and output rows per work-item and step (default 1)
 *   -DSTRIP=s                output rows of a work-group (a multiple of h)
 *   -DLSEP_RANK=r            vector pairs of the matrix (1 to CL_MAX_RANK)
 */

#ifdef LSEP_TW
/* A work-group filters a strip of STRIP rows of LSEP_TW columns, walking down it LSEP_TH x
 * LSEP_MY input rows at a time: each work-item takes the horizontal sums of LSEP_MY input rows
 * at its column (one per pair, read from global memory: neighbouring work-items read
 * neighbouring pixels) into a ring of rows in local memory, then the vertical sums of LSEP_MY
 * adjacent output rows out of the ring (each ring row read once serves all of them). The ring
 * holds the KSIZE - 1 + LSEP_TH LSEP_MY rows the outputs of a step need, so nothing but the
 * input and the output goes through global memory (the two-pass kernels write and read back a
 * float plane).
 * Rows and columns outside the plane map through the border rule (zeros for constant); pixels
 * from width to span are copied. coef: [pair][vertical KSIZE, horizontal KSIZE], as the other
 * separable kernels; rank gives only RANK_CENTRE (the pairs are LSEP_RANK). A launch covers
 * whole strips (the band heights are multiples of STRIP), rows from row0. */

#ifndef LSEP_MY
#define LSEP_MY 1
#endif
#define STEP (LSEP_TH * LSEP_MY)
#define RING (KSIZE - 1 + STEP)

/* A stored sample as a float, exactly: its bits under the exponent of 2^23, less 2^23 (integer
 * and float additions, where a conversion instruction runs at a quarter of their rate on
 * GPUs); samples are below 2^16. */
#define MAGIC 0x4B000000u
#define MAGIC_F 8388608.0f
#if defined (ONLY)
#define LSEP_LOAD(p) (as_float (MAGIC | (uint) STORED (CSAMPLES (p)[ONLY])) - MAGIC_F)
#elif CHANNELS == 1
#define LSEP_LOAD(p) (as_float (MAGIC | (uint) READ (p)) - MAGIC_F)
#elif CHANNELS == 2
#define LSEP_LOAD(p) (as_float2 ((uint2) (MAGIC) | convert_uint2 (READ (p))) - MAGIC_F)
#elif CHANNELS == 3
#define LSEP_LOAD(p) (as_float3 ((uint3) (MAGIC) | convert_uint3 (READ (p))) - MAGIC_F)
#else
#define LSEP_LOAD(p) (as_float4 ((uint4) (MAGIC) | convert_uint4 (READ (p))) - MAGIC_F)
#endif

__kernel __attribute__ ((reqd_work_group_size (LSEP_TW, LSEP_TH, 1)))
void
convolve_lsep (int row0, __global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, int rank, float bias, uint passmask SHAPE_PARAMS)
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
  for (int b = 0; b < n_in; b += STEP) {
    /* the horizontal sums of input rows b + ly + LSEP_TH m */
    for (int m = 0; m < LSEP_MY; m++) {
      int i = b + ly + LSEP_TH * m;

      if (i < n_in && x < width) {
        int yy = ys - RADIUS + i;
        int slot = i % RING;

        if (BORDER != BORDER_CONSTANT)
          yy = border_coord (yy, height SHAPE_ARGS);
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
                s += h[t] * LSEP_LOAD (q + t * PIX_BYTES);
            } else {
              for (int t = 0; t < KSIZE; t++)
                s += h[t] * SUM_OF (fetch (src, src_pitch, width, height, x + t - RADIUS, yy));
            }
            ring[p][slot][lx] = s;
          }
        }
      }
    }
    barrier (CLK_LOCAL_MEM_FENCE);
    /* output rows ys + o .. + LSEP_MY - 1 (o = b + LSEP_MY ly - (KSIZE - 1)): input rows
     * o .. o + KSIZE + LSEP_MY - 2, all in the ring now */
    {
      int o = b + LSEP_MY * ly - (KSIZE - 1);
      sum_t acc[LSEP_MY];

      for (int m = 0; m < LSEP_MY; m++)
        acc[m] = (sum_t) (0.0f);
      if (o + LSEP_MY > 0 && x < width) {
        int s0 = (o + RING) % RING;

        for (int p = 0; p < LSEP_RANK; p++) {
          __constant float *v = coef + 2 * p * KSIZE;

#pragma unroll
          for (int t = 0; t < KSIZE + LSEP_MY - 1; t++) {
            int s = s0 + t;
            sum_t r = ring[p][s >= RING ? s - RING : s][lx];

#pragma unroll
            for (int m = 0; m < LSEP_MY; m++)
              if (t - m >= 0 && t - m < KSIZE)
                acc[m] += v[t - m] * r;
          }
        }
      }
      for (int m = 0; m < LSEP_MY; m++) {
        int y = ys + o + m;

        if (o + m >= 0 && y < ye && x < span) {
          __global const uchar *centre = src + y * src_pitch + x * PIX_BYTES;
          __global uchar *out = dst + y * dst_pitch + x * PIX_BYTES;

          pix_t c = READ (centre);

          if (x >= width)
            write_pix (c, out);
          else
            store (out, acc[m] + CENTRE_W (coef, rank, LSEP_RANK) * SUM_OF (c), bias, c,
                passmask);
        }
      }
    }
    barrier (CLK_LOCAL_MEM_FENCE);
  }
}
#endif
