/* clconvolve, method=separable on GPUs, one kernel: convolve_lsep. A program is common.cl and
 * this file.
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Build options (besides the common ones):
 *   -DLSEP_TX=x -DLSEP_TY=y  tiles x pixels wide and y rows high (the band heights are
 *                            multiples of y)
 *   -DLSEP_NT=n -DLSEP_LX=l  work-groups of n work-items, l by n / l
 *   -DLSEP_VY=v              vertical sums of v rows at a time (y a multiple of v)
 *   -DLSEP_MX=m              outputs per work-item in the horizontal pass
 *   -DLSEP_RANK=r            vector pairs of the matrix (1 to CL_MAX_RANK)
 *   -DLSEP_RGB               4-sample pixels whose fourth sample is copied (passmask bit 3):
 *                            its sums are not taken
 */

#ifdef LSEP_TX
/* A work-group filters a tile of LSEP_TX x LSEP_TY output pixels, the vertical pass first.
 * Each work-item takes a column of the tile or of its halo (LSEP_TX + KSIZE - 1 columns:
 * neighbouring work-items read neighbouring pixels) and the vertical sums of all LSEP_TY rows
 * there, one per pair, from global memory, LSEP_VY rows at a time: each sample read and
 * converted once serves up to LSEP_VY sums. They go to local memory; after a barrier each
 * work-item takes the horizontal sums of LSEP_MX adjacent outputs of a row out of it (each
 * value read once serves up to LSEP_MX outputs). Nothing but the input and the output goes
 * through global memory (the two-pass kernels write and read back a float plane).
 * Rows and columns outside the plane map through the border rule (zeros for constant); pixels
 * from width to span are copied. coef: [pair][vertical KSIZE, horizontal KSIZE], as the other
 * separable kernels; rank gives only RANK_CENTRE (the pairs are LSEP_RANK). A launch covers
 * whole tiles, rows from row0. */

/* A stored sample as a float, exactly: its bits under the exponent of 2^23, less 2^23 (integer
 * and float additions, where a conversion instruction runs at a quarter of their rate on
 * GPUs); samples are below 2^16. Up to size 15, 4-sample pixels take the conversion
 * instructions instead: there the sums leave them room, and the bit form costs more
 * instructions than they do (docs/kernels.md, lsep). */
#define MAGIC 0x4B000000u
#define MAGIC_F 8388608.0f
#if defined (ONLY)
#define LSEP_LOAD(p) (as_float (MAGIC | (uint) STORED (CSAMPLES (p)[ONLY])) - MAGIC_F)
#elif CHANNELS == 1
#define LSEP_LOAD(p) (as_float (MAGIC | (uint) READ (p)) - MAGIC_F)
#elif CHANNELS == 2
#define LSEP_LOAD(p) (as_float2 ((uint2) (MAGIC) | convert_uint2 (READ_IF_AL (al, p))) - MAGIC_F)
#elif CHANNELS == 3
#define LSEP_LOAD(p) (as_float3 ((uint3) (MAGIC) | convert_uint3 (READ (p))) - MAGIC_F)
#elif KSIZE <= 15
#define LSEP_LOAD(p) convert_float4 (READ_IF_AL (al, p))
#else
#define LSEP_LOAD(p) (as_float4 ((uint4) (MAGIC) | convert_uint4 (READ_IF_AL (al, p))) - MAGIC_F)
#endif

/* what the sums are taken over: the pixel, or its first three samples (LSEP_RGB) */
#if defined (LSEP_RGB) && CHANNELS == 4 && !defined (ONLY)
typedef float3 lsum_t;
#define LSEP_SUM(v) ((v).xyz)
#define LSEP_OUT(a) ((float4) ((a), 0.0f))
#else
typedef sum_t lsum_t;
#define LSEP_SUM(v) (v)
#define LSEP_OUT(a) (a)
#endif

#define LSEP_COLS (LSEP_TX + KSIZE - 1)
/* column c's slot in a row of local memory: a spare one after every LSEP_MX, so that the
 * windows of neighbouring work-items, LSEP_MX + 1 slots apart, fall in different banks */
#define LSEP_SLOT(c) ((c) + (c) / LSEP_MX)
#define LSEP_ROW (LSEP_SLOT (LSEP_COLS - 1) + 1)
/* The vertical pass's KSIZE + LSEP_VY - 1 rows of a step are unrolled whole, so that the
 * coefficients are constants and the loads go out together; LSEP_VY bounds the registers they
 * hold, so that enough work-groups fit a compute unit */

/* The vertical sums of the tile's columns into vs; al: whole pixels in one load (the caller
 * passes a constant, so that each form is compiled without a test at every load) */
inline void
lsep_columns (__local lsum_t (*vs)[LSEP_TY][LSEP_ROW], int lid, int xs, int ys,
    __global const uchar * src, int src_pitch, int width, int height, int direct,
    __constant float *coef, const int al SHAPE_PARAMS)
{
  /* the vertical sums of column c */
  for (int c = lid; c < LSEP_COLS; c += LSEP_NT) {
    int x = xs - RADIUS + c;
    __global const uchar *col = src + (BORDER == BORDER_CONSTANT ? x :
        border_coord (x, width SHAPE_ARGS)) * PIX_BYTES;
    int outside = BORDER == BORDER_CONSTANT && (x < 0 || x >= width);

#pragma unroll 1
    for (int q = 0; q < LSEP_TY; q += LSEP_VY) {
      lsum_t acc[LSEP_RANK][LSEP_VY];

#pragma unroll
      for (int p = 0; p < LSEP_RANK; p++)
#pragma unroll
        for (int m = 0; m < LSEP_VY; m++)
          acc[p][m] = (lsum_t) (0.0f);
      if (!outside) {
#pragma unroll
        for (int t = 0; t < KSIZE + LSEP_VY - 1; t++) {
          int yy = ys - RADIUS + q + t;
          lsum_t s;

          if (direct)
            s = LSEP_SUM (LSEP_LOAD (col + yy * src_pitch));
          else if (BORDER == BORDER_CONSTANT && (yy < 0 || yy >= height))
            s = (lsum_t) (0.0f);
          else
            s = LSEP_SUM (LSEP_LOAD (col + (BORDER == BORDER_CONSTANT ? yy :
                        border_coord (yy, height SHAPE_ARGS)) * src_pitch));
#pragma unroll
          for (int p = 0; p < LSEP_RANK; p++)
#pragma unroll
            for (int m = 0; m < LSEP_VY; m++)
              if (t - m >= 0 && t - m < KSIZE)
                acc[p][m] += coef[2 * p * KSIZE + t - m] * s;
        }
      }
#pragma unroll
      for (int p = 0; p < LSEP_RANK; p++)
#pragma unroll
        for (int m = 0; m < LSEP_VY; m++)
          vs[p][q + m][LSEP_SLOT (c)] = acc[p][m];
    }
  }
}

__kernel __attribute__ ((reqd_work_group_size (LSEP_LX, LSEP_NT / LSEP_LX, 1)))
void
convolve_lsep (int row0, __global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, int rank, float bias, uint passmask SHAPE_PARAMS)
{
  __local lsum_t vs[LSEP_RANK][LSEP_TY][LSEP_ROW];
  int lid = get_local_id (1) * LSEP_LX + get_local_id (0);
  int xs = get_group_id (0) * LSEP_TX, ys = row0 + (int) get_group_id (1) * LSEP_TY;
  int ye = min (ys + LSEP_TY, height);
  /* the tile's rows and their halo inside the plane: no row to map */
  int direct = ys - RADIUS >= 0 && ys + LSEP_TY - 1 + RADIUS < height;

  src += src_offset;
  dst += dst_offset;
  if (WHOLE_PIX_IO && ((src_offset | src_pitch) & (PIX_BYTES - 1)) == 0)
    lsep_columns (vs, lid, xs, ys, src, src_pitch, width, height, direct, coef, 1 SHAPE_ARGS);
  else
    lsep_columns (vs, lid, xs, ys, src, src_pitch, width, height, direct, coef, 0 SHAPE_ARGS);
  barrier (CLK_LOCAL_MEM_FENCE);
  /* the horizontal sums: LSEP_MX adjacent outputs of row r from column c0 */
  for (int task = lid; task < LSEP_TX / LSEP_MX * LSEP_TY; task += LSEP_NT) {
    int c0 = task % (LSEP_TX / LSEP_MX) * LSEP_MX, r = task / (LSEP_TX / LSEP_MX), y = ys + r;
    __global const uchar *in = src + y * src_pitch;
    __global uchar *out = dst + y * dst_pitch;
    float cw = CENTRE_W (coef, rank, LSEP_RANK);
    lsum_t acc[LSEP_MX];

    if (y >= ye)
      continue;
#pragma unroll
    for (int m = 0; m < LSEP_MX; m++)
      acc[m] = (lsum_t) (0.0f);
#pragma unroll
    for (int p = 0; p < LSEP_RANK; p++) {
      __constant float *h = coef + (2 * p + 1) * KSIZE;

#pragma unroll
      for (int t = 0; t < KSIZE + LSEP_MX - 1; t++) {
        lsum_t s = vs[p][r][LSEP_SLOT (c0 + t)];

#pragma unroll
        for (int m = 0; m < LSEP_MX; m++)
          if (t - m >= 0 && t - m < KSIZE)
            acc[m] += h[t - m] * s;
      }
    }
#pragma unroll
    for (int m = 0; m < LSEP_MX; m++) {
      int x = xs + c0 + m;

      if (x < span) {
        pix_t centre = READ (in + x * PIX_BYTES);

        if (x < width)
          store (out + x * PIX_BYTES, LSEP_OUT (acc[m] + cw * LSEP_SUM (SUM_OF (centre))),
              bias, centre, passmask);
        else
          write_pix (centre, out + x * PIX_BYTES);
      }
    }
  }
}
#endif
