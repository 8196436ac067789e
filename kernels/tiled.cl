/* clconvolve, method=tiled: convolve_tiled, register-blocked. A program is common.cl and this
 * file.
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Build options (besides the common ones):
 *   -DTILE_W=w -DTILE_H=h  work-group size (reqd_work_group_size)
 *   -DTILE_MX=a            adjacent output pixels per work-item along x (default 1)
 *   -DTILE_MY=b            adjacent output rows per work-item along y (default 1)
 *   -DTILE_FLOAT=0|1       local tile holds samples converted once to float (sum_t: float4 for
 *                          CHANNELS 4, float for ONLY) (1, default) or the raw samples (0,
 *                          converted at every use; 4x smaller for 8-bit RGBA)
 *   -DSPARSE               method=sparse on a GPU: the sums loop over the non-zero taps only
 *                          (sparse.cl's two last arguments, taps and ntaps, follow passmask);
 *                          only this form takes -DCOMBINE (common.cl)
 * A work-group covers (TILE_W*TILE_MX) x (TILE_H*TILE_MY) output pixels and stages that plus a
 * RADIUS halo in local memory:
 *   (TILE_W*TILE_MX + KSIZE-1 rounded up to a multiple of TILE_MX) * (TILE_H*TILE_MY + KSIZE-1)
 *   elements of sizeof (TILE_FLOAT ? sum_t : pix_t) bytes; the host must check it fits
 *   CL_DEVICE_LOCAL_MEM_SIZE (else lower TILE_MY or use TILE_FLOAT=0).
 * Host: local = {TILE_W, TILE_H}; global = {ceil (span / TILE_MX / TILE_W) * TILE_W,
 *   ceil (rows / TILE_MY / TILE_H) * TILE_H} work-items, no global work offset; a band of rows
 *   from row `first` passes row0 = first.
 * Work-item (lx, ly) computes pixels x0 + lx*TILE_MX + b, y0 + ly*TILE_MY + m, where
 * (x0, y0) = (0, row0) + group_id * tile extent (derived from get_global_id - get_local_id).
 * Each input sample loaded from local memory feeds every output of the work-item whose window
 * holds it (up to TILE_MX*TILE_MY FMAs per load). With TILE_MX > 1 the tile's columns are
 * stored de-interleaved (column c at (c % TILE_MX) * TILE_XW + c / TILE_MX) so the work-items
 * of a warp read consecutive addresses (no bank conflicts).
 * RGBA with passmask bit 3 (alpha copied): the alpha sums are not computed at all.
 * Global memory: pixels are read and written as whole pix_t (one 4-byte access for RGBA8)
 * when src_offset, src_pitch (dst_offset, dst_pitch) are multiples of PIX_BYTES (buffers are
 * aligned), else sample by sample (vload/vstore), decided at run time per work-group.
 */

#ifdef TILE_W
#ifndef TILE_MX
#define TILE_MX 1
#endif
#ifndef TILE_MY
#define TILE_MY 1
#endif
#ifndef TILE_FLOAT
#define TILE_FLOAT 1
#endif
#define TILE_OW (TILE_W * TILE_MX)      /* output pixels of a work-group, x */
#define TILE_OH (TILE_H * TILE_MY)
#define TILE_PW (TILE_OW + 2 * RADIUS)  /* input pixels staged, x */
#define TILE_PH (TILE_OH + 2 * RADIUS)
#define TILE_XW ((TILE_PW + TILE_MX - 1) / TILE_MX)     /* one de-interleaved column set */
#define TILE_ROW (TILE_XW * TILE_MX)                     /* row pitch of the tile, elements */
#define TILE_N (TILE_PW * TILE_PH)

#if TILE_FLOAT
typedef sum_t tile_t;
#define TILE_CONV(v) SUM_OF (v)
#define TILE_SUM(t) (t)
#else
typedef pix_t tile_t;
#define TILE_CONV(v) (v)
#define TILE_SUM(t) SUM_OF (t)
#endif

#if COMBINE && !defined (SPARSE)
#error "-DCOMBINE needs -DSPARSE in tiled.cl"
#endif

#ifdef SPARSE
#define TAPS_PARAMS , __constant int4 * taps, int ntaps
#define TAPS_ARGS , taps, ntaps
#else
#define TAPS_PARAMS
#define TAPS_ARGS
#endif

#if KSIZE <= 15
#define TILE_UNROLL _Pragma ("unroll")
#else
#define TILE_UNROLL
#endif

/* tile element of input column c (0..TILE_PW-1) in tile row r */
#define TILE_AT(r, c) ((r) * TILE_ROW + ((c) % TILE_MX) * TILE_XW + (c) / TILE_MX)

inline void
tile_write (pix_t v, __global uchar * p, int aligned)
{
#if SKIPMASK == 0 && WHOLE_PIX_IO
  if (aligned)
    *(__global pix_t *) p = v;
  else
#endif
    write_pix (v, p);
}

inline void
tiled_outputs (__local const tile_t * tile, __global const uchar * src, int src_pitch,
    __global uchar * dst, int dst_pitch, int width, int height, int span, int xb, int yb,
    int lx, int ly, __constant float *coef, float bias, uint passmask, const int skip_w,
    int src_al, int dst_al TAPS_PARAMS)
{
  sum_t sum[TILE_MY][TILE_MX];
#define CF(n) coef[n]

#pragma unroll
  for (int m = 0; m < TILE_MY; m++)
#pragma unroll
    for (int b = 0; b < TILE_MX; b++)
      sum[m][b] = (sum_t) (0.0f);

#ifdef SPARSE
  sum_t sum2[TILE_MY][TILE_MX];

#pragma unroll
  for (int m = 0; m < TILE_MY; m++)
#pragma unroll
    for (int b = 0; b < TILE_MX; b++)
      sum2[m][b] = (sum_t) (0.0f);
  /* each tap: one tile element per output of the work-item (for both sums with COMBINE) */
  for (int t = 0; t < ntaps; t++) {
    int4 tap = taps[t];
    float c = as_float (tap.z), c2 = as_float (tap.w);

#pragma unroll
    for (int m = 0; m < TILE_MY; m++)
#pragma unroll
      for (int b = 0; b < TILE_MX; b++) {
        int col = lx * TILE_MX + b + RADIUS + tap.x;
        sum_t p = TILE_SUM (tile[TILE_AT (ly * TILE_MY + m + RADIUS + tap.y, col)]);

#if CHANNELS == 4 && !defined (ONLY) && TILE_FLOAT
        if (skip_w) {
          sum[m][b].xyz += c * p.xyz;
          if (PAIRED)
            sum2[m][b].xyz += c2 * p.xyz;
        } else
#endif
        {
          sum[m][b] += c * p;
          if (PAIRED)
            sum2[m][b] += c2 * p;
        }
      }
  }
#pragma unroll
  for (int m = 0; m < TILE_MY; m++)
#pragma unroll
    for (int b = 0; b < TILE_MX; b++)
      sum[m][b] = COMBINED (sum[m][b], sum2[m][b]);
#else
  /* input row r of this work-item's window block feeds output row m with coefficient row
   * r - m; input column i feeds output column b with coefficient column i - b */
  TILE_UNROLL
  for (int r = 0; r < TILE_MY + KSIZE - 1; r++) {
    __local const tile_t *trow = tile + (ly * TILE_MY + r) * TILE_ROW + lx;

    TILE_UNROLL
    for (int i = 0; i < TILE_MX + KSIZE - 1; i++) {
      sum_t p = TILE_SUM (trow[(i % TILE_MX) * TILE_XW + i / TILE_MX]);

#pragma unroll
      for (int m = 0; m < TILE_MY; m++) {
        int j = r - m;

        if (j >= 0 && j < KSIZE) {
#pragma unroll
          for (int b = 0; b < TILE_MX; b++) {
            int t = i - b;

            if (t >= 0 && t < KSIZE) {
#if CHANNELS == 4 && !defined (ONLY) && TILE_FLOAT
              /* alpha copied: its sums are left out (written explicitly, so that the
               * compiler does not merge this copy with the 4-channel one) */
              if (skip_w)
                sum[m][b].xyz += CF (j * KSIZE + t) * p.xyz;
              else
#endif
                sum[m][b] += CF (j * KSIZE + t) * p;
            }
          }
        }
      }
    }
  }
#endif

#pragma unroll
  for (int m = 0; m < TILE_MY; m++) {
    int y = yb + m;

    if (y >= height)
      break;
#pragma unroll
    for (int b = 0; b < TILE_MX; b++) {
      int x = xb + b;
      __global uchar *out = dst + y * dst_pitch + x * PIX_BYTES;

      if (x >= span)
        break;
      if (x >= width) {
        write_pix (READ (src + y * src_pitch + x * PIX_BYTES), out);
        continue;
      }
#if defined (ONLY) || !TILE_FLOAT
      store (out, sum[m][b], bias, READ (src + y * src_pitch + x * PIX_BYTES), passmask);
#else
      {
        int c = lx * TILE_MX + b + RADIUS;
        sum_t centre = tile[(ly * TILE_MY + m + RADIUS) * TILE_ROW +
            (c % TILE_MX) * TILE_XW + c / TILE_MX];
        acc_t v = ROUND_OUT (sum[m][b], bias);

#ifdef PASS_MASK
        v = select (v, centre, PASS_MASK (passmask));
#endif
#if CHANNELS == 4
        if (skip_w)
          v.w = centre.w;
#endif
        tile_write (TO_PIX (v), out, dst_al);
      }
#endif
    }
  }
}

__kernel __attribute__ ((reqd_work_group_size (TILE_W, TILE_H, 1)))
void
convolve_tiled (int row0, __global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, float bias, uint passmask SHAPE_PARAMS TAPS_PARAMS)
{
  __local tile_t tile[TILE_PH * TILE_ROW];
  int lx = get_local_id (0), ly = get_local_id (1);
  /* the tile's origin: the group's place in work-items times the pixels per work-item, below
   * row0 (a band's first row) */
  int x0 = ((int) get_global_id (0) - lx) * TILE_MX;
  int y0 = row0 + ((int) get_global_id (1) - ly) * TILE_MY;
  int lid = ly * TILE_W + lx;
  int src_al, dst_al;

  src += src_offset;
  src_al = ((src_offset | src_pitch) & (PIX_BYTES - 1)) == 0;
  dst_al = ((dst_offset | dst_pitch) & (PIX_BYTES - 1)) == 0;
#define TILE_LOAD(RD) \
  if (x0 >= RADIUS && y0 >= RADIUS && x0 + TILE_PW - RADIUS <= width && \
      y0 + TILE_PH - RADIUS <= height) { \
    __global const uchar *base = src + (y0 - RADIUS) * src_pitch + (x0 - RADIUS) * PIX_BYTES; \
    for (int n = lid; n < TILE_N; n += TILE_W * TILE_H) { \
      int ty = n / TILE_PW, tx = n - ty * TILE_PW; \
      tile[TILE_AT (ty, tx)] = TILE_CONV (RD (base + ty * src_pitch + tx * PIX_BYTES)); \
    } \
  } else { \
    for (int n = lid; n < TILE_N; n += TILE_W * TILE_H) { \
      int ty = n / TILE_PW, tx = n - ty * TILE_PW; \
      tile[TILE_AT (ty, tx)] = TILE_CONV (fetch_pix (src, src_pitch, width, height, \
              x0 + tx - RADIUS, y0 + ty - RADIUS, src_al SHAPE_ARGS)); \
    } \
  }
  if (src_al) {
    TILE_LOAD (READ_AL)
  } else {
    TILE_LOAD (READ)
  }
  barrier (CLK_LOCAL_MEM_FENCE);

  {
    int xb = x0 + lx * TILE_MX, yb = y0 + ly * TILE_MY;

    if (xb >= span || yb >= height)
      return;
    dst += dst_offset;
#if CHANNELS == 4 && !defined (ONLY) && TILE_FLOAT
    if (passmask & 8u)
      tiled_outputs (tile, src, src_pitch, dst, dst_pitch, width, height, span, xb, yb, lx, ly,
          coef, bias, passmask, 1, src_al, dst_al TAPS_ARGS);
    else
#endif
      tiled_outputs (tile, src, src_pitch, dst, dst_pitch, width, height, span, xb, yb, lx, ly,
          coef, bias, passmask, 0, src_al, dst_al TAPS_ARGS);
  }
}
#endif
