/* clconvolve: 2-D correlation of one image plane with a KSIZE x KSIZE coefficient matrix.
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One view of a plane: pixels of CHANNELS samples of DEPTH bits (little-endian); sample c of
 * pixel (x, y) starts at byte
 *   src_offset + y * src_pitch + x * CHANNELS * DEPTH / 8 + c * DEPTH / 8.
 * Planar and semi-planar formats run a kernel per plane, packed 4:2:2 (YUY2, UYVY) one for the
 * luma view (2-byte pixels: Y and the chroma byte beside it) and one for the chroma view
 * (4-byte macropixels), each with its own offset, pitch and size.
 *
 * Build options (the host builds one program per combination and keeps it):
 *   -DKSIZE=n        odd matrix side, 1..63
 *   -DCHANNELS=c     samples per pixel: 1, 2 or 4
 *   -DDEPTH=d        bits per sample: 8 (default) or 16
 *   -DSKIPMASK=m     bit c set: sample c is never written (another view of the same plane
 *                    writes it); default 0
 *   -DONLY=k         compute sample k alone and copy the others from the centre pixel (the
 *                    luma of YUY2/UYVY, one chroma of NV12): passmask is then unused
 *   -DBORDER=b       0 clamp, 1 mirror (dcb|abcd|cba), 2 wrap, 3 constant (zeros)
 *   -DBLOCK=n        convolve_direct: adjacent pixels per work-item (register blocking)
 *   -DNV=v -DMY=m    convolve_vector: 8*v samples of each of m rows per work-item (8*v a
 *                    multiple of CHANNELS; SKIPMASK must be 0)
 *   -DSPLIT=s -DNX=n -DMY=m   convolve_vsplit: 16*n pixels of each of m rows per work-item,
 *                    the samples of mask s (1 to 3 of 4) computed as planes, the others
 *                    copied (CHANNELS 4, DEPTH 8, SKIPMASK 0, passmask the complement of s)
 *   -DSTRIP=s        convolve_vsep (with -DNV): strips of s rows per work-item
 *   -DPACKED_IO      put8 stores through a packed struct (set on CPU-like devices)
 *   -DTILE_W=w -DTILE_H=h -DTILE_MX=a -DTILE_MY=b -DTILE_FLOAT=0|1   convolve_tiled: work-group
 *                    size, outputs per work-item along x and y, float or raw tile (below)
 *
 * Arguments of the dense kernels (convolve_direct, convolve_vector, convolve_vsplit,
 * convolve_tiled; same order, so the host sets them in one place; the separable ones are
 * described where they are):
 *   src, src_offset, src_pitch, dst, dst_offset, dst_pitch, width, height, span,
 *   coef (KSIZE*KSIZE floats, already divided by the divisor), bias (in sample units),
 *   passmask (bit c set: sample c is copied from the centre pixel, e.g. alpha).
 * out = saturate (round (sum coef * in + bias)), round half away from zero.
 * Pixels x in [width, span) of each row are copied unchanged (the padding pixel of an odd-width
 * packed 4:2:2 row, whose chroma byte belongs to the last real pixel's pair); SKIPMASK holds there
 * too. Borders are those of the width x height view.
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

#ifndef DEPTH
#define DEPTH 8
#endif
#ifndef SKIPMASK
#define SKIPMASK 0
#endif

#if DEPTH == 8
typedef uchar samp_t;
#define SAMP_SAT(v) convert_uchar_sat (v)
#define VEC(n) uchar ## n
#define CONVERT_SAT(n, v) convert_uchar ## n ## _sat (v)
#define PASS8(m) convert_char8 (m)          /* an int8 select mask for VEC (8) */
#define SAMP_MAX 255.0f
#define TO_SAMPLES8(f) convert_uchar8 (convert_int8 (f))        /* f already in range */
#elif DEPTH == 16
typedef ushort samp_t;
#define SAMP_SAT(v) convert_ushort_sat (v)
#define VEC(n) ushort ## n
#define CONVERT_SAT(n, v) convert_ushort ## n ## _sat (v)
#define PASS8(m) convert_short8 (m)
#define SAMP_MAX 65535.0f
#define TO_SAMPLES8(f) convert_ushort8 (convert_int8 (f))
#else
#error "DEPTH must be 8 or 16"
#endif
#define PIX_BYTES (CHANNELS * DEPTH / 8)
/* a pixel's first sample, from a byte address */
#define SAMPLES(p) ((__global samp_t *) (p))
#define CSAMPLES(p) ((__global const samp_t *) (p))

#if CHANNELS == 1
typedef samp_t pix_t;
typedef float acc_t;
#define READ(p) (*CSAMPLES (p))
#define STORE_PRIV(v, s) ((s)[0] = (v))
#define TO_ACC(v) convert_float (v)
#define TO_PIX(v) SAMP_SAT (v)
#elif CHANNELS == 2
typedef VEC (2) pix_t;
typedef float2 acc_t;
#define READ(p) vload2 (0, CSAMPLES (p))
#define STORE_PRIV(v, s) vstore2 (v, 0, s)
#define TO_ACC(v) convert_float2 (v)
#define TO_PIX(v) CONVERT_SAT (2, v)
#define PASS_MASK(m) ((int2) (-(int) ((m) & 1u), -(int) (((m) >> 1) & 1u)))
#elif CHANNELS == 4
typedef VEC (4) pix_t;
typedef float4 acc_t;
#define READ(p) vload4 (0, CSAMPLES (p))
#define STORE_PRIV(v, s) vstore4 (v, 0, s)
#define TO_ACC(v) convert_float4 (v)
#define TO_PIX(v) CONVERT_SAT (4, v)
#define PASS_MASK(m) ((int4) (-(int) ((m) & 1u), -(int) (((m) >> 1) & 1u), \
      -(int) (((m) >> 2) & 1u), -(int) (((m) >> 3) & 1u)))
#else
#error "CHANNELS must be 1, 2 or 4"
#endif

/* What a window sums: every sample of the pixel, or sample ONLY alone. */
#ifdef ONLY
#define PASTE2(a, b) a ## b
#define PASTE(a, b) PASTE2 (a, b)
#define PICK(v) ((v).PASTE (s, ONLY))
typedef float sum_t;
#define SUM_OF(v) convert_float (PICK (v))
#define LOAD_SUM(p) convert_float (CSAMPLES (p)[ONLY])
#else
typedef acc_t sum_t;
#define SUM_OF(v) TO_ACC (v)
#define LOAD_SUM(p) TO_ACC (READ (p))
#endif

/* Writes a pixel, leaving the samples of SKIPMASK alone. */
inline void
write_pix (pix_t v, __global uchar * p)
{
#if SKIPMASK == 0
#if CHANNELS == 1
  *SAMPLES (p) = v;
#elif CHANNELS == 2
  vstore2 (v, 0, SAMPLES (p));
#else
  vstore4 (v, 0, SAMPLES (p));
#endif
#else
  samp_t s[CHANNELS];

  /* through a private array: a vector's components by index are not portable OpenCL C 1.2 */
  STORE_PRIV (v, s);
#pragma unroll
  for (int c = 0; c < CHANNELS; c++)
    if (!(SKIPMASK & (1 << c)))
      SAMPLES (p)[c] = s[c];
#endif
}

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

/* A whole pixel in one read: only where the view's pixels are aligned to their size (the
 * tiled kernel checks at run time; READ goes sample by sample). */
#define READ_AL(p) (*(__global const pix_t *) (p))

/* The pixel at (x, y), which may lie outside the plane; aligned: read it with READ_AL. */
inline pix_t
fetch_pix (__global const uchar * src, int pitch, int width, int height, int x, int y,
    int aligned)
{
  __global const uchar *p;

#if BORDER == BORDER_CONSTANT
  if (x < 0 || y < 0 || x >= width || y >= height)
    return (pix_t) (0);
#else
  x = border_coord (x, width);
  y = border_coord (y, height);
#endif
  p = src + y * pitch + x * PIX_BYTES;
  return aligned ? READ_AL (p) : READ (p);
}

#define fetch(src, pitch, width, height, x, y) fetch_pix (src, pitch, width, height, x, y, 0)

inline void
store (__global uchar * p, sum_t sum, float bias, pix_t centre, uint passmask)
{
#ifdef ONLY
  pix_t out = centre;

  PICK (out) = SAMP_SAT (round (sum + bias));
  write_pix (out, p);
#else
  acc_t v = round (sum + bias);
#ifdef PASS_MASK
  v = select (v, TO_ACC (centre), PASS_MASK (passmask));
#endif
  write_pix (TO_PIX (v), p);
#endif
}

#ifndef BLOCK
#define BLOCK 1
#endif

/* One output pixel of convolve_direct, with the border arithmetic where its window needs it. */
inline void
direct_pixel (__global const uchar * src, int src_pitch, __global uchar * drow, int x, int y,
    int width, int height, __constant float *coef, float bias, uint passmask)
{
  __global uchar *out = drow + x * PIX_BYTES;
  sum_t sum = (sum_t) (0.0f);

  if (x >= width) {
    write_pix (READ (src + y * src_pitch + x * PIX_BYTES), out);
    return;
  }
  if (x >= RADIUS && y >= RADIUS && x + RADIUS < width && y + RADIUS < height) {
    __global const uchar *row = src + (y - RADIUS) * src_pitch + (x - RADIUS) * PIX_BYTES;

    for (int j = 0; j < KSIZE; j++, row += src_pitch)
      for (int i = 0; i < KSIZE; i++)
        sum += coef[j * KSIZE + i] * LOAD_SUM (row + i * PIX_BYTES);
  } else {
    for (int j = 0; j < KSIZE; j++)
      for (int i = 0; i < KSIZE; i++)
        sum += coef[j * KSIZE + i] *
            SUM_OF (fetch (src, src_pitch, width, height, x + i - RADIUS, y + j - RADIUS));
  }
  store (out, sum, bias, READ (src + y * src_pitch + x * PIX_BYTES), passmask);
}

/* The per-pixel path of a work-item's block of n pixels from x on each of rows rows from y (the
 * blocks of the vector kernels that touch a border or end the row): within the plane's height
 * and span. */
inline void
block_by_pixel (__global const uchar * src, int src_pitch, __global uchar * dst, int dst_pitch,
    int x, int y, int n, int rows, int width, int height, int span, __constant float *coef,
    float bias, uint passmask)
{
  for (int m = 0; m < rows && y + m < height; m++)
    for (int b = 0; b < n && x + b < span; b++)
      direct_pixel (src, src_pitch, dst + (y + m) * dst_pitch, x + b, y + m, width, height,
          coef, bias, passmask);
}

/* method=float4: each work-item computes BLOCK adjacent pixels of a row (-DBLOCK, default 1)
 * straight from global memory with vector loads. Inside the plane the BLOCK windows share
 * their loads: each row of KSIZE + BLOCK - 1 input pixels is read once into registers and
 * feeds every output (register blocking); near a border each pixel takes the border path. */
__kernel void
convolve_direct (__global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, float bias, uint passmask)
{
  int xb = get_global_id (0) * BLOCK, y = get_global_id (1);
  __global uchar *drow = dst + dst_offset + y * dst_pitch;

  if (xb >= span || y >= height)
    return;
  src += src_offset;

#if BLOCK > 1
  if (xb >= RADIUS && y >= RADIUS && xb + BLOCK - 1 + RADIUS < width &&
      y + RADIUS < height) {
    __global const uchar *row = src + (y - RADIUS) * src_pitch + (xb - RADIUS) * PIX_BYTES;
    sum_t sum[BLOCK];

    for (int b = 0; b < BLOCK; b++)
      sum[b] = (sum_t) (0.0f);
    for (int j = 0; j < KSIZE; j++, row += src_pitch) {
      sum_t in[KSIZE + BLOCK - 1];

      for (int i = 0; i < KSIZE + BLOCK - 1; i++)
        in[i] = LOAD_SUM (row + i * PIX_BYTES);
      for (int i = 0; i < KSIZE; i++) {
        float c = coef[j * KSIZE + i];

        for (int b = 0; b < BLOCK; b++)
          sum[b] += c * in[i + b];
      }
    }
    for (int b = 0; b < BLOCK; b++)
      store (drow + (xb + b) * PIX_BYTES, sum[b], bias,
          READ (src + y * src_pitch + (xb + b) * PIX_BYTES), passmask);
    return;
  }
#endif
  for (int b = 0; b < BLOCK && xb + b < span; b++)
    direct_pixel (src, src_pitch, drow, xb + b, y, width, height, coef, bias, passmask);
}

/* The samples of a pixel that are copied from the centre instead of computed, per lane of a
 * float8 that holds 8 / CHANNELS whole pixels (lane l is sample l % CHANNELS). */
inline int8
lane_pass (uint passmask)
{
  int8 lane = (int8) (0, 1, 2, 3, 4, 5, 6, 7) % CHANNELS;
#ifdef ONLY
  return lane != (int8) (ONLY);
#else
  return ((int8) (passmask) >> lane & 1) != 0;
#endif
}

/* Eight consecutive samples starting o samples into seg (o a compile-time constant once the
 * loops are unrolled): one vector, or two joined by a shuffle. */
inline float8
window8 (const float8 * seg, int o)
{
  int q = o / 8, r = o % 8;

  if (r == 0)
    return seg[q];
  if (r == 4)
    return (float8) (seg[q].s4567, seg[q + 1].s0123);
  return shuffle2 (seg[q], seg[q + 1], (uint8) (r, r + 1, r + 2, r + 3, r + 4, r + 5, r + 6,
          r + 7));
}

/* Eight samples out: the rounded sums acc + bias, or the centre's samples where pass is set.
 * Round half up (acc + bias + 0.5 clamped to the sample range, then truncated) equals the other
 * kernels' round half away from zero wherever the result is not saturated to 0, and costs about
 * half the instructions of round and a saturating conversion (PoCL 3.1, AVX2: 5-10 % of the
 * vector and one-pass separable kernels' time).
 * With -DPACKED_IO (the host sets it on CPU-like devices) the store goes through a packed
 * struct: one unaligned move, where PoCL 3.1 splits vstore8 into byte stores (1080p RGBA dense
 * 7x7 on 2 Zen 3 cores: 12.7 -> 10.2 ms). */
#ifdef PACKED_IO
typedef struct __attribute__ ((packed))
{
  VEC (8) v;
} vec8_io;
#endif

inline void
put8 (float8 acc, float bias, int8 pass, __global const samp_t * centre, __global samp_t * out,
    int v)
{
  VEC (8) res = select (TO_SAMPLES8 (clamp (acc + (bias + 0.5f), 0.0f, SAMP_MAX)),
      vload8 (v, centre), PASS8 (pass));

#ifdef PACKED_IO
  ((__global vec8_io *) out)[v].v = res;
#else
  vstore8 (res, v, out);
#endif
}

#ifndef NV
#define NV 2
#endif
#ifndef MY
#define MY 1
#endif
#define VEC_SAMPLES (8 * NV)                    /* per row and work-item */
#define VEC_PIXELS (VEC_SAMPLES / CHANNELS)
#define VEC_SEG (NV + (CHANNELS * (KSIZE - 1) + 7) / 8)  /* float8 of input per row */
#define VEC_READ (VEC_SEG * 8 / CHANNELS)       /* pixels those hold */

/* method=vector: each work-item computes VEC_PIXELS adjacent pixels (NV float8 vectors of
 * samples, every channel at once) on each of MY adjacent rows. Each input row the block needs
 * is loaded and converted to float once and feeds every output row it reaches; the KSIZE
 * horizontal taps are shifted windows of it (a channel's neighbour is CHANNELS lanes away), so
 * the inner loop is one multiply-add per tap and vector: SIMD-friendly code for CPU compilers
 * (PoCL). Blocks touching a border take the per-pixel path. Needs SKIPMASK 0. */
__kernel void
convolve_vector (__global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, float bias, uint passmask)
{
  /* a band's first row is the global offset; each work-item below it covers MY rows */
  int y0 = get_global_offset (1);
  int xb = get_global_id (0) * VEC_PIXELS, y = y0 + ((int) get_global_id (1) - y0) * MY;

  if (xb >= span || y >= height)
    return;
  src += src_offset;
  dst += dst_offset;
  /* inside the plane, reads included (VEC_READ may pass the last needed pixel) */
  if (xb >= RADIUS && y >= RADIUS && xb - RADIUS + VEC_READ <= width &&
      y + MY - 1 + RADIUS < height) {
    __global const uchar *row = src + (y - RADIUS) * src_pitch + (xb - RADIUS) * PIX_BYTES;
    float8 acc[MY][NV];
    int8 pass = lane_pass (passmask);

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
        seg[s] = convert_float8 (vload8 (s, CSAMPLES (row)));
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
        put8 (acc[m][v], bias, pass, centre, out, v);
    }
    return;
  }
  block_by_pixel (src, src_pitch, dst, dst_pitch, xb, y, VEC_PIXELS, MY, width, height, span,
      coef, bias, passmask);
}

#ifdef SPLIT
/* method=vector with the colour planes split (-DSPLIT=m, 8-bit 4-sample pixels): m holds the
 * samples computed (1 to 3 of the 4; the others, alpha or padding, are copied from the centre
 * pixel, so passmask must be their complement). Each work-item computes 16 NX adjacent pixels
 * on each of MY rows. A row of input pixels is loaded as packed 32-bit words and each computed
 * sample is taken out of them by a shift and a mask into a float16 per 16 pixels: one float16
 * holds one sample of 16 pixels (a plane), so a horizontal tap is a shift of one lane (one
 * vector align from two loaded vectors) and no multiply-add is spent on the copied sample,
 * which method=vector's interleaved float8 vectors carry in a quarter of their lanes (PoCL,
 * AVX-512, 1080p RGBA 7x7, kernel alone: 2.9 against 4.2 ms; docs/kernels.md). */
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
 * constant lanes: PoCL 5 (Ubuntu 24.04, AVX-512 Xeon) compiled shuffle2 on float16 into a
 * library call per window, 30 times slower than PoCL 3.1's single valignd (1080p RGBA 7x7: 97
 * against 2.9 ms), and swizzles joined in pieces cost PoCL 3.1 20 %; docs/kernels.md. */
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

__kernel void
convolve_vsplit (__global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, float bias, uint passmask)
{
  /* a band's first row is the global offset; each work-item below it covers MY rows */
  int y0 = get_global_offset (1);
  int xb = get_global_id (0) * 16 * NX, y = y0 + ((int) get_global_id (1) - y0) * MY;

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
  block_by_pixel (src, src_pitch, dst, dst_pitch, xb, y, 16 * NX, MY, width, height, span,
      coef, bias, passmask);
}
#endif

/* method=separable: the matrix as `rank` pairs of a vertical and a horizontal vector
 * (coef: [pair][vertical KSIZE, horizontal KSIZE]), run as a row pass into a float buffer and a
 * column pass out of it. tmp holds one width x height plane of sum_t per pair, from element
 * tmp_offset on. */

/* Pass 1: tmp_i(x, y) = sum_t horizontal_i[t] * in(x + t - RADIUS, y). */
__kernel void
convolve_rows (__global const uchar * src, int src_offset, int src_pitch, int width, int height,
    __global sum_t * tmp, int tmp_offset, __constant float *coef, int rank)
{
  int x = get_global_id (0), y = get_global_id (1);
  __global const uchar *row;

  if (x >= width || y >= height)
    return;
  src += src_offset;
  row = src + y * src_pitch;
  tmp += tmp_offset;
  for (int i = 0; i < rank; i++) {
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
convolve_cols (__global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __global const sum_t * tmp, int tmp_offset, __constant float *coef, int rank, float bias,
    uint passmask)
{
  int x = get_global_id (0), y = get_global_id (1);
  __global uchar *out;
  sum_t sum = (sum_t) (0.0f);

  if (x >= span || y >= height)
    return;
  src += src_offset;
  out = dst + dst_offset + y * dst_pitch + x * PIX_BYTES;
  if (x >= width) {
    write_pix (READ (src + y * src_pitch + x * PIX_BYTES), out);
    return;
  }
  tmp += tmp_offset;
  for (int i = 0; i < rank; i++) {
    __constant float *v = coef + 2 * i * KSIZE;

    for (int t = 0; t < KSIZE; t++) {
      int yy = y + t - RADIUS;

#if BORDER == BORDER_CONSTANT
      if (yy < 0 || yy >= height)
        continue;
#else
      yy = border_coord (yy, height);
#endif
      sum += v[t] * tmp[((size_t) i * height + yy) * width + x];
    }
  }
  store (out, sum, bias, READ (src + y * src_pitch + x * PIX_BYTES), passmask);
}

#ifdef STRIP
/* method=separable on CPUs, one pass (-DSTRIP=s with -DNV=v): each work-item computes VEC_PIXELS
 * adjacent pixels (NV float8 vectors of samples) down a strip of STRIP rows. It walks the
 * input rows of the strip plus the halo once: each row is loaded and converted once, its
 * horizontal sums (one per pair) kept in a ring of the last KSIZE rows in private memory, and
 * each output row is the vertical sum over the ring. 2 * rank * KSIZE multiply-adds per output
 * sample, no intermediate buffer. Strips touching the left or right border compute their
 * horizontal sums sample by sample with the border rule; rows above and below the plane map
 * through it (zeros for constant). The ring's slots are compile-time constants once the row
 * loop is unrolled by KSIZE (the host uses it up to KSIZE 31). Needs SKIPMASK 0.
 * coef as for convolve_rows/cols: [pair][vertical KSIZE, horizontal KSIZE]. */
__kernel void
convolve_vsep (__global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, int rank, float bias, uint passmask)
{
  int y0 = get_global_offset (1);
  int xb = get_global_id (0) * VEC_PIXELS, ys = y0 + ((int) get_global_id (1) - y0) * STRIP;
  int inside = xb >= RADIUS && xb - RADIUS + VEC_READ <= width;
  int8 pass = lane_pass (passmask);
  float8 ring[4][KSIZE][NV];

  if (xb >= span || ys >= height)
    return;
  src += src_offset;
  dst += dst_offset;
  for (int base = 0; base < STRIP + KSIZE - 1; base += KSIZE) {
#pragma unroll
    for (int k = 0; k < KSIZE; k++) {
      int i = base + k, yy = ys - RADIUS + i, o = ys + i - (KSIZE - 1);

      /* a guard, not a break: with a break PoCL leaves the loop rolled (PoCL 3.1, 15x15:
       * 38 -> 24 ms per 1080p frame without it) */
      if (i < STRIP + KSIZE - 1 && o < height) {
      /* input row yy: its horizontal sums into ring slot k (= i % KSIZE) */
#if BORDER == BORDER_CONSTANT
      if (yy < 0 || yy >= height) {
        for (int p = 0; p < rank; p++)
#pragma unroll
          for (int v = 0; v < NV; v++)
            ring[p][k][v] = (float8) (0.0f);
      } else
#else
      yy = border_coord (yy, height);
#endif
      if (inside) {
        __global const uchar *row = src + yy * src_pitch + (xb - RADIUS) * PIX_BYTES;
        float8 seg[VEC_SEG];

#pragma unroll
        for (int q = 0; q < VEC_SEG; q++)
          seg[q] = convert_float8 (vload8 (q, CSAMPLES (row)));
        for (int p = 0; p < rank; p++) {
          __constant float *h = coef + (2 * p + 1) * KSIZE;

          /* two chains per vector (even and odd taps): the FMA latency, not their number,
           * bounds a single chain (1080p RGBA 15x15, with the same in the vertical sums:
           * 15.8 -> 9.4 ms) */
          float8 s0[NV], s1[NV];

#pragma unroll
          for (int v = 0; v < NV; v++) {
            s0[v] = (float8) (h[KSIZE - 1]) * window8 (seg, (KSIZE - 1) * CHANNELS + 8 * v);
            s1[v] = (float8) (0.0f);
          }
#pragma unroll
          for (int t = 0; t + 1 < KSIZE; t += 2)
#pragma unroll
            for (int v = 0; v < NV; v++) {
              s0[v] = fma ((float8) (h[t]), window8 (seg, t * CHANNELS + 8 * v), s0[v]);
              s1[v] = fma ((float8) (h[t + 1]), window8 (seg, (t + 1) * CHANNELS + 8 * v),
                  s1[v]);
            }
#pragma unroll
          for (int v = 0; v < NV; v++)
            ring[p][k][v] = s0[v] + s1[v];
        }
      } else {
        __global const uchar *row = src + yy * src_pitch;

        for (int p = 0; p < rank; p++) {
          __constant float *h = coef + (2 * p + 1) * KSIZE;
          float lanes[8 * NV];

          for (int l = 0; l < 8 * NV; l++) {
            int c = l % CHANNELS;
            float sum = 0.0f;

            for (int t = 0; t < KSIZE; t++) {
              int xx = xb + l / CHANNELS + t - RADIUS;

#if BORDER == BORDER_CONSTANT
              if (xx < 0 || xx >= width)
                continue;
#else
              xx = border_coord (xx, width);
#endif
              sum += h[t] * convert_float (CSAMPLES (row + xx * PIX_BYTES)[c]);
            }
            lanes[l] = sum;
          }
#pragma unroll
          for (int v = 0; v < NV; v++)
            ring[p][k][v] = vload8 (v, lanes);
        }
      }
      /* output row o: the vertical sums over the ring (slot of input row o + t: (k+1+t) % K) */
      if (i >= KSIZE - 1) {
        __global const samp_t *centre = CSAMPLES (src + o * src_pitch + xb * PIX_BYTES);
        __global uchar *out = dst + o * dst_pitch + xb * PIX_BYTES;

        float8 a0[NV], a1[NV];

#pragma unroll
        for (int v = 0; v < NV; v++)
          a0[v] = a1[v] = (float8) (0.0f);
        for (int p = 0; p < rank; p++) {
          __constant float *vc = coef + 2 * p * KSIZE;

#pragma unroll
          for (int t = 0; t + 1 < KSIZE; t += 2)
#pragma unroll
            for (int v = 0; v < NV; v++) {
              a0[v] = fma ((float8) (vc[t]), ring[p][(k + 1 + t) % KSIZE][v], a0[v]);
              a1[v] = fma ((float8) (vc[t + 1]), ring[p][(k + 2 + t) % KSIZE][v], a1[v]);
            }
#pragma unroll
          for (int v = 0; v < NV; v++)
            a0[v] = fma ((float8) (vc[KSIZE - 1]), ring[p][k][v], a0[v]);
        }
#pragma unroll
        for (int v = 0; v < NV; v++) {
          float8 acc = a0[v] + a1[v], res;

          if (inside) {
            put8 (acc, bias, pass, centre, SAMPLES (out), v);
          } else {
            /* a border strip: the last pixels may lie past the plane's end, go sample by
             * sample */
            float c8[8], r8[8];

            for (int l = 0; l < 8; l++)
              c8[l] = xb + (8 * v + l) / CHANNELS < span ?
                  convert_float (centre[8 * v + l]) : 0.0f;
            res = select (round (acc + bias), vload8 (0, c8), pass);
            vstore8 (res, 0, r8);
            /* pixels from width to span are copied (odd-width packed 4:2:2 luma) */
            for (int l = 0; l < 8 && xb + (8 * v + l) / CHANNELS < span; l++)
              SAMPLES (out)[8 * v + l] = xb + (8 * v + l) / CHANNELS < width ?
                  SAMP_SAT (r8[l]) : centre[8 * v + l];
          }
        }
      }
      }
    }
  }
}
#endif

#ifdef TILE_W
/* method=tiled, register-blocked.
 *
 * Build options (besides the common ones):
 *   -DTILE_W=w -DTILE_H=h  work-group size (reqd_work_group_size)
 *   -DTILE_MX=a            adjacent output pixels per work-item along x (default 1)
 *   -DTILE_MY=b            adjacent output rows per work-item along y (default 1)
 *   -DTILE_FLOAT=0|1       local tile holds samples converted once to float (sum_t: float4 for
 *                          CHANNELS 4, float for ONLY) (1, default) or the raw samples (0,
 *                          converted at every use; 4x smaller for 8-bit RGBA)
 * A work-group covers (TILE_W*TILE_MX) x (TILE_H*TILE_MY) output pixels and stages that plus a
 * RADIUS halo in local memory:
 *   (TILE_W*TILE_MX + KSIZE-1 rounded up to a multiple of TILE_MX) * (TILE_H*TILE_MY + KSIZE-1)
 *   elements of sizeof (TILE_FLOAT ? sum_t : pix_t) bytes; the host must check it fits
 *   CL_DEVICE_LOCAL_MEM_SIZE (else lower TILE_MY or use TILE_FLOAT=0).
 * Host: local = {TILE_W, TILE_H}; global = {ceil (span / TILE_MX / TILE_W) * TILE_W,
 *   ceil (rows / TILE_MY / TILE_H) * TILE_H} work-items; the global work offset stays in
 *   pixels/rows (band of rows from row `first`: offset (0, first)), i.e. NOT divided by TILE_MY.
 * Work-item (lx, ly) computes pixels x0 + lx*TILE_MX + b, y0 + ly*TILE_MY + m, where
 * (x0, y0) = offset + group_id * tile extent (derived from get_global_id - get_local_id).
 * Each input sample loaded from local memory feeds every output of the work-item whose window
 * holds it (up to TILE_MX*TILE_MY FMAs per load). With TILE_MX > 1 the tile's columns are
 * stored de-interleaved (column c at (c % TILE_MX) * TILE_XW + c / TILE_MX) so the work-items
 * of a warp read consecutive addresses (no bank conflicts).
 * RGBA with passmask bit 3 (alpha copied): the alpha sums are not computed at all.
 * Global memory: pixels are read and written as whole pix_t (one 4-byte access for RGBA8)
 * when src_offset, src_pitch (dst_offset, dst_pitch) are multiples of PIX_BYTES (buffers are
 * aligned), else sample by sample (vload/vstore), decided at run time per work-group.
 */
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
#if SKIPMASK == 0
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
    int src_al, int dst_al)
{
  sum_t sum[TILE_MY][TILE_MX];
#define CF(n) coef[n]

#pragma unroll
  for (int m = 0; m < TILE_MY; m++)
#pragma unroll
    for (int b = 0; b < TILE_MX; b++)
      sum[m][b] = (sum_t) (0.0f);

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
        acc_t v = round (sum[m][b] + bias);

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
convolve_tiled (__global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, float bias, uint passmask)
{
  __local tile_t tile[TILE_PH * TILE_ROW];
  int lx = get_local_id (0), ly = get_local_id (1);
  int ox = (int) get_global_offset (0), oy = (int) get_global_offset (1);
  /* the tile's origin: the work offset (in pixels, a band's first row) plus the group's
   * place in work-items times the pixels per work-item */
  int x0 = ox + ((int) get_global_id (0) - lx - ox) * TILE_MX;
  int y0 = oy + ((int) get_global_id (1) - ly - oy) * TILE_MY;
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
              x0 + tx - RADIUS, y0 + ty - RADIUS, src_al)); \
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
          coef, bias, passmask, 1, src_al, dst_al);
    else
#endif
      tiled_outputs (tile, src, src_pitch, dst, dst_pitch, width, height, span, xb, yb, lx, ly,
          coef, bias, passmask, 0, src_al, dst_al);
  }
}
#endif
