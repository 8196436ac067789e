/* clconvolve: 2-D correlation of one image plane with a KSIZE x KSIZE coefficient matrix.
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One plane of 8-bit interleaved samples: sample c of pixel (x, y) is at
 *   src[src_offset + y * src_pitch + x * CHANNELS + c].
 * Planar and semi-planar formats run a kernel per plane with their own offset, pitch and size.
 *
 * Build options (the host builds one program per combination and keeps it):
 *   -DKSIZE=n        odd matrix side, 1..63
 *   -DCHANNELS=c     samples per pixel: 1, 2 or 4
 *   -DBORDER=b       0 clamp, 1 mirror (dcb|abcd|cba), 2 wrap, 3 constant (zeros)
 *   -DTILE_W=w -DTILE_H=h   work-group size of convolve_tiled
 *
 * Arguments of both kernels (same order, so the host sets them in one place):
 *   src, src_offset, src_pitch, dst, dst_offset, dst_pitch, width, height,
 *   coef (KSIZE*KSIZE floats, already divided by the divisor), bias, passmask
 *   (bit c set: sample c is copied from the centre pixel, e.g. alpha).
 * out = saturate (round (sum coef * in + bias)), round half away from zero.
 * The host may run a horizontal band of rows: global work offset (0, first row), width and
 * height still those of the whole plane (borders are the plane's).
 */

#ifndef KSIZE
#error "build with -DKSIZE=<odd side>"
#endif
#define RADIUS (KSIZE / 2)

#define BORDER_CLAMP 0
#define BORDER_MIRROR 1
#define BORDER_WRAP 2
#define BORDER_CONSTANT 3

#if CHANNELS == 1
typedef uchar pix_t;
typedef float acc_t;
#define READ(p) (*(p))
#define WRITE(v, p) (*(p) = (v))
#define TO_ACC(v) convert_float (v)
#define TO_PIX(v) convert_uchar_sat (v)
#elif CHANNELS == 2
typedef uchar2 pix_t;
typedef float2 acc_t;
#define READ(p) vload2 (0, p)
#define WRITE(v, p) vstore2 (v, 0, p)
#define TO_ACC(v) convert_float2 (v)
#define TO_PIX(v) convert_uchar2_sat (v)
#define PASS_MASK(m) ((int2) (-(int) ((m) & 1u), -(int) (((m) >> 1) & 1u)))
#elif CHANNELS == 4
typedef uchar4 pix_t;
typedef float4 acc_t;
#define READ(p) vload4 (0, p)
#define WRITE(v, p) vstore4 (v, 0, p)
#define TO_ACC(v) convert_float4 (v)
#define TO_PIX(v) convert_uchar4_sat (v)
#define PASS_MASK(m) ((int4) (-(int) ((m) & 1u), -(int) (((m) >> 1) & 1u), \
      -(int) (((m) >> 2) & 1u), -(int) (((m) >> 3) & 1u)))
#else
#error "CHANNELS must be 1, 2 or 4"
#endif

/* Maps a coordinate outside 0..n-1 back inside (not used for BORDER_CONSTANT). */
inline int
border_coord (int v, int n)
{
#if BORDER == BORDER_CLAMP
  return clamp (v, 0, n - 1);
#elif BORDER == BORDER_MIRROR
  if (n == 1)
    return 0;
  int period = 2 * n - 2;
  v %= period;
  if (v < 0)
    v += period;
  return v < n ? v : period - v;
#elif BORDER == BORDER_WRAP
  v %= n;
  return v < 0 ? v + n : v;
#else
  return v;
#endif
}

/* The pixel at (x, y), which may lie outside the plane. */
inline pix_t
fetch (__global const uchar * src, int pitch, int width, int height, int x, int y)
{
#if BORDER == BORDER_CONSTANT
  if (x < 0 || y < 0 || x >= width || y >= height)
    return (pix_t) (0);
#else
  x = border_coord (x, width);
  y = border_coord (y, height);
#endif
  return READ (src + y * pitch + x * CHANNELS);
}

inline void
store (__global uchar * p, acc_t sum, float bias, pix_t centre, uint passmask)
{
  acc_t v = round (sum + bias);
#ifdef PASS_MASK
  v = select (v, TO_ACC (centre), PASS_MASK (passmask));
#endif
  WRITE (TO_PIX (v), p);
}

/* method=float4: one work-item per pixel, straight from global memory with vector loads;
 * work-items whose window lies inside the plane skip the border arithmetic. */
__kernel void
convolve_direct (__global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height,
    __constant float *coef, float bias, uint passmask)
{
  int x = get_global_id (0), y = get_global_id (1);
  acc_t sum = (acc_t) (0.0f);

  if (x >= width || y >= height)
    return;
  src += src_offset;

  if (x >= RADIUS && y >= RADIUS && x + RADIUS < width && y + RADIUS < height) {
    __global const uchar *row = src + (y - RADIUS) * src_pitch + (x - RADIUS) * CHANNELS;

    for (int j = 0; j < KSIZE; j++, row += src_pitch)
      for (int i = 0; i < KSIZE; i++)
        sum += coef[j * KSIZE + i] * TO_ACC (READ (row + i * CHANNELS));
  } else {
    for (int j = 0; j < KSIZE; j++)
      for (int i = 0; i < KSIZE; i++)
        sum += coef[j * KSIZE + i] *
            TO_ACC (fetch (src, src_pitch, width, height, x + i - RADIUS, y + j - RADIUS));
  }

  store (dst + dst_offset + y * dst_pitch + x * CHANNELS, sum, bias,
      READ (src + y * src_pitch + x * CHANNELS), passmask);
}

#ifdef TILE_W
#define TILE_PW (TILE_W + 2 * RADIUS)
#define TILE_PH (TILE_H + 2 * RADIUS)

/* method=tiled: a TILE_W x TILE_H work-group stages its tile plus the halo in local memory,
 * kept 8-bit (the pixel type) and converted when used. */
__kernel __attribute__ ((reqd_work_group_size (TILE_W, TILE_H, 1)))
void
convolve_tiled (__global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height,
    __constant float *coef, float bias, uint passmask)
{
  __local pix_t tile[TILE_PH * TILE_PW];
  int lx = get_local_id (0), ly = get_local_id (1);
  /* the tile's origin from the global id, which includes the work offset of a band */
  int x0 = (int) get_global_id (0) - lx, y0 = (int) get_global_id (1) - ly;
  int x = x0 + lx, y = y0 + ly;
  acc_t sum = (acc_t) (0.0f);

  src += src_offset;
  for (int ty = ly; ty < TILE_PH; ty += TILE_H)
    for (int tx = lx; tx < TILE_PW; tx += TILE_W)
      tile[ty * TILE_PW + tx] =
          fetch (src, src_pitch, width, height, x0 + tx - RADIUS, y0 + ty - RADIUS);
  barrier (CLK_LOCAL_MEM_FENCE);

  if (x >= width || y >= height)
    return;

  for (int j = 0; j < KSIZE; j++)
    for (int i = 0; i < KSIZE; i++)
      sum += coef[j * KSIZE + i] * TO_ACC (tile[(ly + j) * TILE_PW + lx + i]);

  store (dst + dst_offset + y * dst_pitch + x * CHANNELS, sum, bias,
      tile[(ly + RADIUS) * TILE_PW + lx + RADIUS], passmask);
}
#endif
