/* clconvolve: 2-D correlation of one image plane with a KSIZE x KSIZE coefficient matrix.
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The part every program shares: sample and pixel types, border rules, fetch, store and
 * rounding, the per-pixel path and the float8 windows. It declares no kernel: a program is this
 * file followed by the one variant file it runs (direct.cl, vector.cl, vsplit.cl, tiled.cl,
 * separable.cl, vsep.cl, sparse.cl), joined at build time by kernels/embed.py. vsplit.cl,
 * vsep.cl and tiled.cl declare their kernel only when built with their own option (-DSPLIT,
 * -DSTRIP, -DTILE_W, as before the split), so all the files joined into one still build as any
 * variant's program (the single-file form of GST_CLCONVOLVE_KERNEL_SOURCE).
 *
 * One view of a plane: pixels of CHANNELS samples of DEPTH bits (little-endian); sample c of
 * pixel (x, y) starts at byte
 *   src_offset + y * src_pitch + x * CHANNELS * DEPTH / 8 + c * DEPTH / 8.
 * Planar and semi-planar formats run a kernel per plane, packed 4:2:2 (YUY2, UYVY) one for the
 * luma view (2-byte pixels: Y and the chroma byte beside it) and one for the chroma view
 * (4-byte macropixels), each with its own offset, pitch and size.
 *
 * Build options of every program (the host builds one program per combination and keeps it;
 * each variant file lists its own):
 *   -DKSIZE=n        odd matrix side, 1..63
 *   -DCHANNELS=c     samples per pixel: 1, 2, 3 (RGB, BGR: 3-byte pixels, never read or
 *                    written as a whole pixel) or 4
 *   -DDEPTH=d        bits per sample: 8 (default) or 16
 *   -DBITS=b         DEPTH 16 only: the sample's significant bits (10, 12; default 16), held in
 *                    bits SHIFT..SHIFT+BITS-1 of its 16 (the other bits zero, as the formats
 *                    define them): results saturate to 0..2^BITS-1 in those bits
 *   -DSHIFT=s        where they start: 0 (I420_10LE and the like), 6 or 4 (P010, P012)
 *   -DSWAP           DEPTH 16, CHANNELS 1: samples stored big-endian (GRAY16_BE), swapped at
 *                    every load and store (not in the one-pass separable kernel)
 *   -DSKIPMASK=m     bit c set: sample c is never written (another view of the same plane
 *                    writes it); default 0
 *   -DONLY=k         compute sample k alone and copy the others from the centre pixel (the
 *                    luma of YUY2/UYVY, one chroma of NV12): passmask is then unused
 *   -DBORDER=b       the border rule compiled in (set on GPUs; else the border argument's)
 *   -DPACKED_IO      put8 stores through a packed struct (set on CPU-like devices)
 *
 * Arguments of the dense kernels (convolve_direct, convolve_vector, convolve_vsplit,
 * convolve_tiled; same order, so the host sets them in one place; the separable ones are
 * described where they are):
 *   row0 (first of every kernel: the first row of the band run), src, src_offset, src_pitch, dst, dst_offset, dst_pitch, width, height, span,
 *   coef (KSIZE*KSIZE floats, already divided by the divisor), bias (in sample units),
 *   passmask (bit c set: sample c is copied from the centre pixel, e.g. alpha),
 *   border (0 clamp, 1 mirror (dcb|abcd|cba), 2 wrap, 3 constant (zeros)); the generic
 *   programs then take ksize, the sparse kernels their taps.
 * out = saturate (round (sum coef * in + bias)), round half away from zero.
 * Pixels x in [width, span) of each row are copied unchanged (the padding pixel of an odd-width
 * packed 4:2:2 row, whose chroma byte belongs to the last real pixel's pair); SKIPMASK holds there
 * too. Borders are those of the width x height view.
 * The host may run a horizontal band of rows: row0 = its first row, global work size its rows,
 * width and height still those of the whole plane (borders are the plane's). The global work
 * offset is always 0: PoCL compiles a kernel again for every launch whose offset is not.
 */

/* The border is an argument of every kernel (its last but the sparse taps): one program serves
 * the four rules, so a border change builds nothing. -DBORDER=b compiles rule b in instead
 * (the argument is then unused): the host does so on GPUs. Kernels end their arguments with
 * SHAPE_PARAMS and pass it on to the functions that map coordinates with SHAPE_ARGS.
 * -DGENERIC: the generic programs (direct.cl's convolve_direct, one pixel per work-item, and
 * separable.cl's two passes), what runs while a specialised one is built: the matrix side
 * follows the border as a last argument, ksize; the border argument's bits 4 and up carry
 * COMBINE there. BORDER is tested where edge pixels are fetched and where a block maps its
 * rows and columns, never in the loops over a block inside the plane. */
#ifndef BORDER
#define BORDER (border & 15)
#endif
#ifdef GENERIC
#define KSIZE ksize
#define COMBINE (border >> 4)
#define SHAPE_PARAMS , int border, int ksize
#define SHAPE_ARGS , border, ksize
#else
#ifndef KSIZE
#error "build with -DKSIZE=<odd side> (or -DGENERIC)"
#endif
#define SHAPE_PARAMS , int border
#define SHAPE_ARGS , border
#endif
#define RADIUS (KSIZE / 2)

/* -DCOMBINE=m: what is stored is a combination of two sums over the same input, taken in one
 * read of it (combine=magnitude etc.): out = saturate (round (combine (a, b) + bias)), where
 *   1 magnitude  sqrt (a^2 + b^2)
 *   2 abs        |a| (b is not computed)
 *   3 max        max (|a|, |b|)
 * a is the first matrix's sum, b the second's. The second matrix follows the first in coef
 * (KSIZE * KSIZE floats further), in a tap's fourth field (sparse), or as the pairs after the
 * first's (separable: rank = the first's pairs + 16 * the second's). In the generic programs
 * COMBINE is the border argument's bits 4 and up. Default 0: one sum, stored as it is. Only
 * float4 (direct.cl), sparse (both forms) and separable (both forms) take it. */
#ifndef COMBINE
#define COMBINE 0
#endif
#define COMBINE_MAGNITUDE 1
#define COMBINE_ABS 2
#define COMBINE_MAX 3
/* whether the second sum is taken: a constant in the specialised programs */
#define PAIRED (COMBINE == COMBINE_MAGNITUDE || COMBINE == COMBINE_MAX)
/* the separable pairs of each matrix, from the rank argument */
#define RANK_A(rank) ((rank) & 15)
#define RANK_ALL(rank) (((rank) & 15) + (((rank) >> 4) & 15))
/* A matrix split as w times the centre's delta plus its pairs (unsharp: a gaussian's one pair
 * and the centre, not two pairs): rank has RANK_CENTRE set and w is the float after the
 * pairs in coef. Never with a second matrix. */
#define RANK_CENTRE 256
#define CENTRE_W(coef, rank, pairs) ((rank) & RANK_CENTRE ? (coef)[2 * (pairs) * KSIZE] : 0.0f)

/* the combination of the sums a and b (any float vector type) */
#define COMBINED(a, b) (COMBINE == COMBINE_MAGNITUDE ? sqrt ((a) * (a) + (b) * (b)) : \
    COMBINE == COMBINE_ABS ? fabs (a) : COMBINE == COMBINE_MAX ? fmax (fabs (a), fabs (b)) : (a))

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
#ifndef BITS
#define BITS DEPTH
#endif
#ifndef SHIFT
#define SHIFT 0
#endif

/* A computed sample's value in its container: round (sum + bias), for fewer significant bits
 * than the container saturated to them and moved to their place (the sums are over the stored
 * values, 2^SHIFT times the samples; bias is in sample units). What the kernels then saturate
 * to the container's range is in range already, and copied samples are never moved. OUT8 is
 * put8's form: rounded up from + 0.5 by truncation. */
#if BITS < DEPTH
#define QSTEP ((float) (1 << SHIFT))
#define QMAX ((float) ((1 << BITS) - 1))
#define ROUND_OUT(sum, bias) (clamp (round ((sum) * (1.0f / QSTEP) + (bias)), 0.0f, QMAX) * QSTEP)
#define OUT8(acc, bias) \
  (floor (clamp ((acc) * (1.0f / QSTEP) + ((bias) + 0.5f), 0.0f, QMAX)) * QSTEP)
#else
#define ROUND_OUT(sum, bias) round ((sum) + (bias))
#define OUT8(acc, bias) clamp ((acc) + ((bias) + 0.5f), 0.0f, SAMP_MAX)
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

/* a sample as stored and as computed (the same but for big-endian samples) */
#ifdef SWAP
#if DEPTH != 16 || CHANNELS != 1
#error "-DSWAP needs DEPTH 16 and CHANNELS 1"
#endif
#define STORED(v) rotate ((ushort) (v), (ushort) 8)
#else
#define STORED(v) (v)
#endif

#if CHANNELS == 1
typedef samp_t pix_t;
typedef float acc_t;
#define READ(p) STORED (*CSAMPLES (p))
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
#elif CHANNELS == 3
typedef VEC (3) pix_t;
typedef float3 acc_t;
#define READ(p) vload3 (0, CSAMPLES (p))
#define STORE_PRIV(v, s) vstore3 (v, 0, s)
#define TO_ACC(v) convert_float3 (v)
#define TO_PIX(v) CONVERT_SAT (3, v)
#define PASS_MASK(m) ((int3) (-(int) ((m) & 1u), -(int) (((m) >> 1) & 1u), \
      -(int) (((m) >> 2) & 1u)))
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
#error "CHANNELS must be 1, 2, 3 or 4"
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
  *SAMPLES (p) = STORED (v);
#elif CHANNELS == 2
  vstore2 (v, 0, SAMPLES (p));
#elif CHANNELS == 3
  vstore3 (v, 0, SAMPLES (p));
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
border_coord (int v, int n SHAPE_PARAMS)
{
  if (BORDER == BORDER_CLAMP)
    return clamp (v, 0, n - 1);
  if (BORDER == BORDER_MIRROR) {
    if (n == 1)
      return 0;
    int period = 2 * n - 2;
    v %= period;
    if (v < 0)
      v += period;
    return v < n ? v : period - v;
  }
  if (BORDER == BORDER_WRAP) {
    v %= n;
    return v < 0 ? v + n : v;
  }
  return v;
}

/* A whole pixel in one read: only where the view's pixels are aligned to their size (the
 * tiled kernel checks at run time; READ goes sample by sample). 3-sample pixels have no
 * aligned size, and swapped samples go through READ's swap. */
#if CHANNELS == 3 || defined (SWAP)
#define READ_AL(p) READ (p)
#define WHOLE_PIX_IO 0
#else
#define READ_AL(p) (*(__global const pix_t *) (p))
#define WHOLE_PIX_IO 1
#endif
/* a pixel in one load where al says the view is aligned to its size (lsep, tsep: al a
 * constant of each compiled form, or uniform over a work-group) */
#define READ_IF_AL(al, p) ((al) ? READ_AL (p) : READ (p))

/* The pixel at (x, y), which may lie outside the plane; aligned: read it with READ_AL. */
inline pix_t
fetch_pix (__global const uchar * src, int pitch, int width, int height, int x, int y,
    int aligned SHAPE_PARAMS)
{
  __global const uchar *p;

  if (BORDER == BORDER_CONSTANT) {
    if (x < 0 || y < 0 || x >= width || y >= height)
      return (pix_t) (0);
  } else {
    x = border_coord (x, width SHAPE_ARGS);
    y = border_coord (y, height SHAPE_ARGS);
  }
  p = src + y * pitch + x * PIX_BYTES;
  return aligned ? READ_AL (p) : READ (p);
}

#define fetch(src, pitch, width, height, x, y) \
  fetch_pix (src, pitch, width, height, x, y, 0 SHAPE_ARGS)

inline void
store (__global uchar * p, sum_t sum, float bias, pix_t centre, uint passmask)
{
#ifdef ONLY
  pix_t out = centre;

  PICK (out) = SAMP_SAT (ROUND_OUT (sum, bias));
  write_pix (out, p);
#else
  acc_t v = ROUND_OUT (sum, bias);
#ifdef PASS_MASK
  v = select (v, TO_ACC (centre), PASS_MASK (passmask));
#endif
  write_pix (TO_PIX (v), p);
#endif
}

/* The per-pixel path (direct.cl). */

/* One output pixel of convolve_direct, with the border arithmetic where its window needs it. */
inline void
direct_pixel (__global const uchar * src, int src_pitch, __global uchar * drow, int x, int y,
    int width, int height, __constant float *coef, float bias, uint passmask SHAPE_PARAMS)
{
  __global uchar *out = drow + x * PIX_BYTES;
  __constant float *coef2 = coef + KSIZE * KSIZE;       /* the second matrix (COMBINE) */
  sum_t sum = (sum_t) (0.0f), sum2 = (sum_t) (0.0f);

  if (x >= width) {
    write_pix (READ (src + y * src_pitch + x * PIX_BYTES), out);
    return;
  }
  if (x >= RADIUS && y >= RADIUS && x + RADIUS < width && y + RADIUS < height) {
    __global const uchar *row = src + (y - RADIUS) * src_pitch + (x - RADIUS) * PIX_BYTES;

    for (int j = 0; j < KSIZE; j++, row += src_pitch)
      for (int i = 0; i < KSIZE; i++) {
        sum_t p = LOAD_SUM (row + i * PIX_BYTES);

        sum += coef[j * KSIZE + i] * p;
        if (PAIRED)
          sum2 += coef2[j * KSIZE + i] * p;
      }
  } else {
    for (int j = 0; j < KSIZE; j++)
      for (int i = 0; i < KSIZE; i++) {
        sum_t p = SUM_OF (fetch (src, src_pitch, width, height, x + i - RADIUS, y + j - RADIUS));

        sum += coef[j * KSIZE + i] * p;
        if (PAIRED)
          sum2 += coef2[j * KSIZE + i] * p;
      }
  }
  store (out, COMBINED (sum, sum2), bias, READ (src + y * src_pitch + x * PIX_BYTES), passmask);
}

/* The float8 windows of vector.cl and vsep.cl. */

/* The samples of a pixel that are copied from the centre instead of computed, per lane of the
 * v-th float8 of a block of whole pixels (lane l is sample (8 v + l) % CHANNELS: with 3-sample
 * pixels a float8 does not start on a pixel). */
inline int8
lane_pass (uint passmask, int v)
{
  int8 lane = ((int8) (0, 1, 2, 3, 4, 5, 6, 7) + 8 * v) % CHANNELS;
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

/* Eight samples as computed, from eight as stored (big-endian ones swapped) */
#ifdef SWAP
#define STORED8(v) rotate (v, (ushort8) (8))
#else
#define STORED8(v) (v)
#endif

/* Eight samples out, the v-th float8 of the block: the rounded sums acc + bias, or the centre's
 * samples where passmask says (lane_pass).
 * Round half up (acc + bias + 0.5 clamped to the sample range, then truncated) equals the other
 * kernels' round half away from zero wherever the result is not saturated to 0, and costs about
 * half the instructions of round and a saturating conversion (docs/kernels.md, vector).
 * With -DPACKED_IO (the host sets it on CPU-like devices) the store goes through a packed
 * struct: one unaligned move, where PoCL 3.1 splits vstore8 into byte stores (docs/kernels.md,
 * vector). */
#ifdef PACKED_IO
typedef struct __attribute__ ((packed))
{
  VEC (8) v;
} vec8_io;
#endif

inline void
put8 (float8 acc, float bias, uint passmask, __global const samp_t * centre,
    __global samp_t * out, int v)
{
  VEC (8) res = STORED8 (select (TO_SAMPLES8 (OUT8 (acc, bias)),
          STORED8 (vload8 (v, centre)), PASS8 (lane_pass (passmask, v))));

#ifdef PACKED_IO
  ((__global vec8_io *) out)[v].v = res;
#else
  vstore8 (res, v, out);
#endif
}

/* Sixteen samples at a time (box.cl, csep.cl): as stored, out (put16, as put8 with the lanes
 * copied given: lane_pass16 of the 16-sample group, whose pattern repeats every 3 groups), and
 * 16 float sums at any offset of a work-item's private array (LOAD_F16, STORE_F16; box.cl's
 * integer sums the same way): on CPUs through a packed struct, one unaligned move, where PoCL
 * 3.1 splits vload16 of private memory into 8-byte pieces (docs/kernels.md, running sums). */
#ifdef SWAP
#define STORED16(v) rotate (v, (ushort16) (8))
#else
#define STORED16(v) (v)
#endif
#if DEPTH == 8
#define TO_SAMPLES16(f) convert_uchar16 (convert_int16 (f))
#define PASS16(m) convert_char16 (m)
#else
#define TO_SAMPLES16(f) convert_ushort16 (convert_int16 (f))
#define PASS16(m) convert_short16 (m)
#endif
#ifdef PACKED_IO
typedef struct __attribute__ ((packed))
{
  VEC (16) v;
} vec16_io;
typedef struct __attribute__ ((packed))
{
  float16 v;
} priv_f16;
#define LOAD_F16(p) (((const priv_f16 *) (p))->v)
#define STORE_F16(x, p) (((priv_f16 *) (p))->v = (x))
#else
#define LOAD_F16(p) vload16 (0, p)
#define STORE_F16(x, p) vstore16 (x, 0, p)
#endif

inline int16
lane_pass16 (uint passmask, int k)
{
  return (int16) (lane_pass (passmask, 2 * k), lane_pass (passmask, 2 * k + 1));
}

inline void
put16 (float16 acc, float bias, int16 pass, __global const samp_t * centre,
    __global samp_t * out, int v)
{
  VEC (16) res = STORED16 (select (TO_SAMPLES16 (OUT8 (acc, bias)),
          STORED16 (vload16 (v, centre)), PASS16 (pass)));

#ifdef PACKED_IO
  ((__global vec16_io *) out)[v].v = res;
#else
  vstore16 (res, v, out);
#endif
}

#if DEPTH == 8
/* 16 samples already rounded to bytes, stored as put16 stores its sums */
inline void
put16_bytes (uchar16 res, int16 pass, __global const samp_t * centre, __global samp_t * out,
    int v)
{
  res = select (res, vload16 (v, centre), PASS16 (pass));
#ifdef PACKED_IO
  ((__global vec16_io *) out)[v].v = res;
#else
  vstore16 (res, v, out);
#endif
}
#endif

/* 16-bit unsigned integers, 16 at a time (csep.cl and box.cl in fixed point): the high halves
 * of the products (MULHI_U16) and (x + y + 1) / 2 (AVG_U16), as x86's instructions where the
 * compiler has them (LLVM 15 turns mul_hi, and the same written out, into 32-bit multiplies) */
#if defined (__AVX2__)
typedef short v16hi_t __attribute__ ((vector_size (32)));
#define MULHI_U16(x, c) as_ushort16 (__builtin_ia32_pmulhuw256 ((v16hi_t) (x), (v16hi_t) (c)))
#define AVG_U16(x, y) as_ushort16 (__builtin_ia32_pavgw256 ((v16hi_t) (x), (v16hi_t) (y)))
#else
#define MULHI_U16(x, c) mul_hi (x, c)
#define AVG_U16(x, y) rhadd (x, y)
#endif

/* NV: float8 vectors per row and work-item (vector.cl, vsep.cl, sparse.cl); MY: rows
 * (vector.cl, vsplit.cl) */
#ifndef NV
#define NV 2
#endif
#ifndef MY
#define MY 1
#endif
#define VEC_SAMPLES (8 * NV)                    /* per row and work-item */
#define VEC_PIXELS (VEC_SAMPLES / CHANNELS)     /* 8 NV a multiple of CHANNELS (3: NV 3, 6) */
#define VEC_SEG (NV + (CHANNELS * (KSIZE - 1) + 7) / 8)  /* float8 of input per row */
#define VEC_READ ((VEC_SEG * 8 + CHANNELS - 1) / CHANNELS)       /* pixels those reach */
