/* clconvolve, method=vector, split planes: convolve_vsplit. A program is common.cl and
 * this file.
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Build options (besides the common ones):
 *   -DSPLIT=s -DNX=n -DMY=m   16*n pixels of each of m rows per work-item, the samples of
 *                    mask s (1 to 3 of 4) computed as planes, the others copied
 *                    (CHANNELS 4, DEPTH 8, SKIPMASK 0, passmask the complement of s)
 */

#ifdef SPLIT
#if COMBINE
#error "-DCOMBINE: float4, sparse and separable only"
#endif

/* method=vector with the colour planes split (-DSPLIT=m, 8-bit 4-sample pixels): m holds the
 * samples computed (1 to 3 of the 4; the others, alpha or padding, are copied from the centre
 * pixel, so passmask must be their complement). Each work-item computes 16 NX adjacent pixels
 * on each of MY rows. A row of input pixels is loaded as packed 32-bit words and each computed
 * sample is taken out of them by a shift and a mask into a float16 per 16 pixels: one float16
 * holds one sample of 16 pixels (a plane), so a horizontal tap is a shift of one lane (one
 * vector align from two loaded vectors) and no multiply-add is spent on the copied sample,
 * which method=vector's interleaved float8 vectors carry in a quarter of their lanes (measured in
 * docs/kernels.md). */
#ifndef NX
#define NX 1
#endif
#define SPLIT_PLANES (((SPLIT) & 1) + ((SPLIT) >> 1 & 1) + ((SPLIT) >> 2 & 1) + ((SPLIT) >> 3 & 1))
#define SPLIT_SEG (NX + (2 * RADIUS + 15) / 16)         /* 16-pixel words per input row */
#define SPLIT_READ (16 * SPLIT_SEG)                     /* pixels those hold */
/* the bytes of the 32-bit pixel word kept from the centre pixel */
#define SPLIT_KEEP ((SPLIT & 1 ? 0u : 0xffu) | (SPLIT & 2 ? 0u : 0xff00u) | \
    (SPLIT & 4 ? 0u : 0xff0000u) | (SPLIT & 8 ? 0u : 0xff000000u))

#if CHANNELS != 4 || DEPTH != 8 || SKIPMASK != 0
#error "-DSPLIT needs 8-bit 4-sample pixels and SKIPMASK 0"
#endif
#if SPLIT_PLANES < 1 || SPLIT_PLANES > 3
#error "-DSPLIT names 1 to 3 samples"
#endif

/* 16 pixels as one unaligned move (PoCL would split a vload16 of bytes) */
typedef struct __attribute__ ((packed))
{
  uint16 v;
} word16_io;

/* The sample index of plane c (0..2): the c-th set bit of SPLIT. */
#define SPLIT_LOW(m) ((m) & 1 ? 0 : (m) & 2 ? 1 : (m) & 4 ? 2 : 3)
#define SPLIT_DROP(m) ((m) & ((m) - 1))                /* m without its lowest bit */
#define SPLIT_SAMPLE(c) ((c) == 0 ? SPLIT_LOW (SPLIT) : (c) == 1 ? \
    SPLIT_LOW (SPLIT_DROP (SPLIT)) : SPLIT_LOW (SPLIT_DROP (SPLIT_DROP (SPLIT))))

/* 16 consecutive lanes starting o lanes into p (o constant): one vector, or two joined. Where
 * the compiler is clang (PoCL among others), clang's shuffle builtin, one IR shuffle with
 * constant lanes: PoCL 5 compiled shuffle2 on float16 into a library call per window, and
 * swizzles joined in pieces were slower on PoCL 3.1 (docs/kernels.md). */
#if defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
#define SPLIT_BUILTIN_SHUFFLE 1
#endif
#endif

__attribute__ ((always_inline)) inline float16
window16 (const float16 * p, int o)
{
  float16 a = p[o / 16], b = o % 16 ? p[o / 16 + 1] : a;

#ifdef SPLIT_BUILTIN_SHUFFLE
#define WIN16(r) __builtin_shufflevector (a, b, r, r + 1, r + 2, r + 3, r + 4, r + 5, r + 6, \
    r + 7, r + 8, r + 9, r + 10, r + 11, r + 12, r + 13, r + 14, r + 15)
  switch (o % 16) {
    case 1:
      return WIN16 (1);
    case 2:
      return WIN16 (2);
    case 3:
      return WIN16 (3);
    case 4:
      return WIN16 (4);
    case 5:
      return WIN16 (5);
    case 6:
      return WIN16 (6);
    case 7:
      return WIN16 (7);
    case 8:
      return WIN16 (8);
    case 9:
      return WIN16 (9);
    case 10:
      return WIN16 (10);
    case 11:
      return WIN16 (11);
    case 12:
      return WIN16 (12);
    case 13:
      return WIN16 (13);
    case 14:
      return WIN16 (14);
    case 15:
      return WIN16 (15);
    default:
      return a;
  }
#undef WIN16
#else
  return o % 16 ? shuffle2 (a, b, (uint16) (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
          15) + (uint) (o % 16)) : a;
#endif
}

/* One input row's pixels xs .. xs + SPLIT_READ - 1 as words, where the block's window crosses
 * the plane's edge: each pixel mapped through the border rule (zeros for constant). */
inline void
vsplit_gather (uint16 * word, __global const uchar * src, int pitch, int xs, int yy, int width,
    int height SHAPE_PARAMS)
{
  uint w[SPLIT_READ];
  int ym = BORDER == BORDER_CONSTANT ? (yy < 0 || yy >= height ? -1 : yy) :
      border_coord (yy, height SHAPE_ARGS);

  for (int k = 0; k < SPLIT_READ; k++) {
    int xx = xs + k, xm = BORDER == BORDER_CONSTANT ? (xx < 0 || xx >= width ? -1 : xx) :
        border_coord (xx, width SHAPE_ARGS);

    w[k] = ym < 0 || xm < 0 ? 0u : as_uint (READ (src + ym * pitch + xm * 4));
  }
  for (int s = 0; s < SPLIT_SEG; s++)
    word[s] = vload16 (s, w);
}

/* The outputs of a block's 16 pixels from x on row y that end the row: those up to span, the
 * ones from width on copied */
inline void
vsplit_store_lanes (const float16 * acc, __global const uchar * src, int src_pitch,
    __global uchar * dst, int dst_pitch, int x, int y, int width, int span, float bias)
{
  float l[SPLIT_PLANES][16];

  for (int c = 0; c < SPLIT_PLANES; c++)
    vstore16 (acc[c], 0, l[c]);
  for (int k = 0; k < 16 && x + k < span; k++) {
    uint res = as_uint (READ (src + y * src_pitch + (x + k) * 4));

    if (x + k < width) {
      res &= SPLIT_KEEP;
      for (int c = 0; c < SPLIT_PLANES; c++)
        res |= convert_uint (clamp (l[c][k] + (bias + 0.5f), 0.0f, 255.0f)) <<
            (uint) (8 * SPLIT_SAMPLE (c));
    }
    write_pix (as_uchar4 (res), dst + y * dst_pitch + (x + k) * 4);
  }
}

/* A work-item's block whose window crosses the plane's edge: the same sums out of rows
 * gathered through the border, in loops left rolled (a few blocks a row: the program keeps one
 * unrolled body, the inside blocks'), and the pixels that end the row stored one by one */
__attribute__ ((noinline)) void
vsplit_edge (__global const uchar * src, int src_pitch, __global uchar * dst, int dst_pitch,
    int xb, int y, int width, int height, int span, __constant float *coef, float bias
    SHAPE_PARAMS)
{
  float16 acc[MY][SPLIT_PLANES][NX];
  float plane[SPLIT_READ];

  for (int m = 0; m < MY; m++)
    for (int c = 0; c < SPLIT_PLANES; c++)
      for (int v = 0; v < NX; v++)
        acc[m][c][v] = (float16) (0.0f);
#pragma unroll 1
  for (int r = 0; r < KSIZE + MY - 1; r++) {
    uint16 word[SPLIT_SEG];

    vsplit_gather (word, src, src_pitch, xb - RADIUS, y - RADIUS + r, width, height
        SHAPE_ARGS);
#pragma unroll 1
    for (int c = 0; c < SPLIT_PLANES; c++) {
      uint shift = 8 * SPLIT_SAMPLE (c);

      for (int s = 0; s < SPLIT_SEG; s++)
        vstore16 (convert_float16 (as_int16 (word[s] >> shift & 0xffu)), s, plane);
#pragma unroll 1
      for (int m = 0; m < MY; m++) {
        int j = r - m;

        if (j < 0 || j >= KSIZE)
          continue;
#pragma unroll 1
        for (int i = 0; i < KSIZE; i++) {
          float16 k = (float16) (coef[j * KSIZE + i]);

          for (int v = 0; v < NX; v++)
            acc[m][c][v] = fma (k, vload16 (0, plane + i + 16 * v), acc[m][c][v]);
        }
      }
    }
  }
  for (int m = 0; m < MY && y + m < height; m++)
    for (int v = 0; v < NX; v++) {
      float16 a[SPLIT_PLANES];

      for (int c = 0; c < SPLIT_PLANES; c++)
        a[c] = acc[m][c][v];
      vsplit_store_lanes (a, src, src_pitch, dst, dst_pitch, xb + 16 * v, y + m, width, span,
          bias);
    }
}

__kernel void
convolve_vsplit (int row0, __global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, float bias, uint passmask SHAPE_PARAMS)
{
  /* row0: a band's first row; each work-item below it covers MY rows */
  int xb = get_global_id (0) * 16 * NX, y = row0 + (int) get_global_id (1) * MY;

  if (xb >= span || y >= height)
    return;
  src += src_offset;
  dst += dst_offset;
  if (xb >= RADIUS && y >= RADIUS && xb - RADIUS + SPLIT_READ <= width &&
      y + MY - 1 + RADIUS < height) {
    __global const uchar *row = src + (y - RADIUS) * src_pitch + (xb - RADIUS) * 4;
    float16 acc[MY][SPLIT_PLANES][NX];

#pragma unroll
    for (int m = 0; m < MY; m++)
#pragma unroll
      for (int c = 0; c < SPLIT_PLANES; c++)
#pragma unroll
        for (int v = 0; v < NX; v++)
          acc[m][c][v] = (float16) (0.0f);
#pragma unroll
    for (int r = 0; r < KSIZE + MY - 1; r++, row += src_pitch) {
      uint16 word[SPLIT_SEG];

#pragma unroll
      for (int s = 0; s < SPLIT_SEG; s++)
        word[s] = ((__global const word16_io *) row)[s].v;
#pragma unroll
      for (int c = 0; c < SPLIT_PLANES; c++) {
        uint shift = 8 * SPLIT_SAMPLE (c);
        float16 plane[SPLIT_SEG];

#pragma unroll
        for (int s = 0; s < SPLIT_SEG; s++)
          plane[s] = convert_float16 (as_int16 (word[s] >> shift & 0xffu));
#pragma unroll
        for (int m = 0; m < MY; m++) {
          int j = r - m;        /* the coefficient row input row r meets for output row m */

          if (j < 0 || j >= KSIZE)
            continue;
#pragma unroll
          for (int i = 0; i < KSIZE; i++) {
            float16 k = (float16) (coef[j * KSIZE + i]);

#pragma unroll
            for (int v = 0; v < NX; v++)
              acc[m][c][v] = fma (k, window16 (plane, i + 16 * v), acc[m][c][v]);
          }
        }
      }
    }
    /* round half up as put8 does, and the copied bytes from the centre pixels */
#pragma unroll
    for (int m = 0; m < MY; m++) {
      __global const word16_io *centre =
          (__global const word16_io *) (src + (y + m) * src_pitch + xb * 4);
      __global word16_io *out = (__global word16_io *) (dst + (y + m) * dst_pitch + xb * 4);

#pragma unroll
      for (int v = 0; v < NX; v++) {
        uint16 res = centre[v].v & SPLIT_KEEP;

#pragma unroll
        for (int c = 0; c < SPLIT_PLANES; c++)
          res |= convert_uint16 (clamp (acc[m][c][v] + (bias + 0.5f), 0.0f, 255.0f)) <<
              (uint) (8 * SPLIT_SAMPLE (c));
        out[v].v = res;
      }
    }
    return;
  }
  vsplit_edge (src, src_pitch, dst, dst_pitch, xb, y, width, height, span, coef, bias
      SHAPE_ARGS);
}
#endif
