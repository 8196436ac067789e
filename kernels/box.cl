/* clconvolve, method=separable for a matrix whose coefficients are all equal (box, or a custom
 * matrix of equal values): convolve_box, running sums. A program is common.cl and this file.
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Build options (besides the common ones):
 *   -DBOX_W=w -DSTRIP=s   blocks of w pixels down strips of s rows per work-item (CPUs)
 *   -DGBOX_TW=t -DGBOX_MX=m -DSTRIP=s   work-groups of t work-items, m pixels each, down
 *                         strips of s rows (GPUs)
 */

#if defined (BOX_W) || defined (GBOX_TW)
/* Both kernels keep, for each column of a block and the halo either side, the sum of the
 * KSIZE input rows around the output row (a column sum); going down one row adds the row
 * entering the window to each column sum and takes away the row leaving it. An output pixel is
 * the sum of KSIZE adjacent column sums. A few integer additions per sample whatever the size,
 * and the sums are exact: at most 63 x 63 samples of 16 bits fit in 32 bits (and unsigned
 * wrap-around keeps differences exact). The coefficient (they are all equal) is applied to the
 * integer sum once.
 * Columns outside the plane map through the border rule (zeros for constant), rows too; pixels
 * from width to span are copied. coef as for the other separable kernels ([pair][vertical
 * KSIZE, horizontal KSIZE], one pair: every coefficient is coef[0] * coef[KSIZE]); rank is not
 * read. */

#if CHANNELS == 1
typedef uint ipix_t;
#define TO_IPIX(v) ((uint) (v))
#define LOAD_IPIX(i, p) (p)[i]
#define IPIX_FLOAT(a) convert_float (a)
#elif CHANNELS == 2
typedef uint2 ipix_t;
#define TO_IPIX(v) convert_uint2 (v)
#define LOAD_IPIX(i, p) vload2 (i, p)
#define IPIX_FLOAT(a) convert_float2 (a)
#elif CHANNELS == 3
typedef uint3 ipix_t;
#define TO_IPIX(v) convert_uint3 (v)
#define LOAD_IPIX(i, p) vload3 (i, p)
#define IPIX_FLOAT(a) convert_float3 (a)
#else
typedef uint4 ipix_t;
#define TO_IPIX(v) convert_uint4 (v)
#define LOAD_IPIX(i, p) vload4 (i, p)
#define IPIX_FLOAT(a) convert_float4 (a)
#endif

/* what store () takes: the sample ONLY alone, else the whole pixel */
#if defined (ONLY) && CHANNELS > 1
#define BOX_SUM(a) convert_float (PICK (a))
#else
#define BOX_SUM(a) IPIX_FLOAT (a)
#endif

/* Row y mapped inside the plane by the border, or -1 where it reads zeros (constant). */
inline int
box_row (int y, int height SHAPE_PARAMS)
{
  if (BORDER == BORDER_CONSTANT)
    return y < 0 || y >= height ? -1 : y;
  return border_coord (y, height SHAPE_ARGS);
}
#endif

#ifdef BOX_W
/* convolve_box on CPUs: a work-item a block of BOX_W pixels down a strip of STRIP rows; an
 * output pixel is the difference of two prefix sums of the column sums along the row. Needs the
 * rows of the whole strip readable (no bands). Column and prefix sums are kept per sample
 * (CHANNELS interleaved) and go 16 samples at a time; outputs are written 16 samples at a time
 * (put16, common.cl), the row's last pixels one at a time. */

/* column sums a work-item keeps: its block and the halo either side, in samples */
#define BOX_COLS ((BOX_W + KSIZE - 1) * CHANNELS)

/* -DBOX_SUM16 (8-bit samples and KSIZE at most 15: every window's sum is below 2^16): column
 * and prefix sums as 16-bit integers, exact modulo 2^16 as their differences are; vectors of
 * 16 samples are then half as wide. */
#ifdef BOX_SUM16
typedef ushort bsum_t;
typedef ushort2 bsum2_t;
typedef ushort4 bsum4_t;
typedef ushort8 bsum8_t;
typedef ushort16 bsum16_t;
#define CONVERT_BSUM16 convert_ushort16
#else
typedef uint bsum_t;
typedef uint2 bsum2_t;
typedef uint4 bsum4_t;
typedef uint8 bsum8_t;
typedef uint16 bsum16_t;
#define CONVERT_BSUM16 convert_uint16
#endif
#ifdef PACKED_IO
typedef struct __attribute__ ((packed))
{
  bsum16_t v;
} priv_b16;
#define LOAD_B16(p) (((const priv_b16 *) (p))->v)
#define STORE_B16(x, p) (((priv_b16 *) (p))->v = (x))
#else
#define LOAD_B16(p) vload16 (0, p)
#define STORE_B16(x, p) vstore16 (x, 0, p)
#endif
/* the window sum of output pixel j: ps[j + KSIZE] - ps[j] (in pixels), taken in the sums' type */
#if defined (BOX_SUM16) && CHANNELS == 1
#define PS_DIFF(j) ((uint) (ushort) (ps[(j) + KSIZE] - ps[j]))
#else
#define PS_DIFF(j) TO_IPIX (LOAD_IPIX ((j) + KSIZE, ps) - LOAD_IPIX (j, ps))
#endif

/* Input rows yin and yout (mapped inside the plane, -1: none) added to and taken away from the
 * column sums of the nc pixels from x0 (= xb - RADIUS): a row entering the window and one
 * leaving it. The columns inside the plane 16 samples at a time, those of the halo outside it
 * (at most RADIUS either side) one by one from the column they map to. */
inline void
box_slide (bsum_t * cs, __global const uchar * src, int pitch, int yin, int yout, int x0, int nc,
    int width SHAPE_PARAMS)
{
  __global const samp_t *a = CSAMPLES (src + max (yin, 0) * pitch + x0 * PIX_BYTES);
  __global const samp_t *b = CSAMPLES (src + max (yout, 0) * pitch + x0 * PIX_BYTES);
  int lo = max (x0, 0), hi = min (x0 + nc, width);
  int q = (lo - x0) * CHANNELS, q1 = (hi - x0) * CHANNELS;

  if (yin < 0 && yout < 0)
    return;
  if (yin >= 0 && yout >= 0) {
    for (; q + 16 <= q1; q += 16)
      STORE_B16 (LOAD_B16 (cs + q) + CONVERT_BSUM16 (STORED16 (vload16 (0, a + q))) -
          CONVERT_BSUM16 (STORED16 (vload16 (0, b + q))), cs + q);
    for (; q < q1; q++)
      cs[q] += (uint) STORED (a[q]) - (uint) STORED (b[q]);
  } else {
    bsum_t sign = yin >= 0 ? (bsum_t) 1 : (bsum_t) -1;
    __global const samp_t *r = yin >= 0 ? a : b;

    for (; q + 16 <= q1; q += 16)
      STORE_B16 (LOAD_B16 (cs + q) + sign * CONVERT_BSUM16 (STORED16 (vload16 (0, r + q))),
          cs + q);
    for (; q < q1; q++)
      cs[q] += sign * (uint) STORED (r[q]);
  }
  if (BORDER == BORDER_CONSTANT)
    return;
  /* the columns left of lo, then those from hi on */
  int l = lo - x0, rr = max (hi, lo) - x0;

  for (int k = 0; k < nc - (rr - l); k++) {
    int i = k < l ? k : rr + k - l, x = border_coord (x0 + i, width SHAPE_ARGS);

    for (int c = 0; c < CHANNELS; c++) {
      int o = (x - x0) * CHANNELS + c;

      cs[i * CHANNELS + c] += (yin >= 0 ? (uint) STORED (a[o]) : 0u) -
          (yout >= 0 ? (uint) STORED (b[o]) : 0u);
    }
  }
}

/* 16 samples shifted up by m lanes, zeros shifted in: the steps of an in-register prefix sum */
#define UP1(x) ((bsum16_t) ((bsum_t) 0, (x).s0123, (x).s456789ab, (x).scde))
#define UP2(x) ((bsum16_t) ((bsum2_t) (0), (x).s0123, (x).s456789ab, (x).scd))
#define UP4(x) ((bsum16_t) ((bsum4_t) (0), (x).s0123, (x).s456789ab))
#define UP8(x) ((bsum16_t) ((bsum8_t) (0), (x).s01234567))

#if CHANNELS != 3
/* The prefix sums of 16 column sums x along their pixels plus *carry (the sums of the row's
 * pixels before them), which moves on past them */
inline bsum16_t
box_prefix16 (bsum16_t x, bsum16_t * carry)
{
  bsum16_t r;

#if CHANNELS == 1
  x += UP1 (x);
#endif
#if CHANNELS <= 2
  x += UP2 (x);
#endif
  x += UP4 (x);
  x += UP8 (x);
  r = x + *carry;
  /* the sums of the 16 samples' last pixel, in every pixel of the carry: the carry's chain is
   * one addition a step, the shuffles stay off it */
#if CHANNELS == 1
  *carry += (bsum16_t) (x.sf);
#elif CHANNELS == 2
  *carry += (bsum16_t) (x.sef, x.sef, x.sef, x.sef, x.sef, x.sef, x.sef, x.sef);
#else
  *carry += (bsum16_t) (x.scdef, x.scdef, x.scdef, x.scdef);
#endif
  return r;
}
#endif

/* ps[C + q] = the sum of cs[q'] over q' <= q of the same channel (ps[0 .. C) are zeros): the
 * prefix sums of a row's column sums along it, 16 samples at a time where the pixel divides
 * 16 */
inline void
box_prefix (const bsum_t * cs, bsum_t * ps, int nc)
{
  int ns = nc * CHANNELS, q = 0;

#if CHANNELS != 3
  bsum16_t carry = (bsum16_t) (0);

  for (; q + 16 <= ns; q += 16)
    STORE_B16 (box_prefix16 (LOAD_B16 (cs + q), &carry), ps + CHANNELS + q);
#endif
  for (; q < ns; q++)
    ps[CHANNELS + q] = ps[q] + cs[q];
}

#if CHANNELS != 3
/* box_slide then box_prefix in one pass, for a block whose columns all lie inside the plane
 * and rows yin and yout both inside it: each 16 column sums are moved down a row and their
 * prefix taken while in registers */
inline void
box_slide_prefix (bsum_t * cs, bsum_t * ps, __global const uchar * src, int pitch, int yin,
    int yout, int x0, int nc)
{
  __global const samp_t *a = CSAMPLES (src + yin * pitch + x0 * PIX_BYTES);
  __global const samp_t *b = CSAMPLES (src + yout * pitch + x0 * PIX_BYTES);
  int ns = nc * CHANNELS, q = 0;
  bsum16_t carry = (bsum16_t) (0);

  for (; q + 16 <= ns; q += 16) {
    bsum16_t x = LOAD_B16 (cs + q) + CONVERT_BSUM16 (STORED16 (vload16 (0, a + q))) -
        CONVERT_BSUM16 (STORED16 (vload16 (0, b + q)));

    STORE_B16 (x, cs + q);
    STORE_B16 (box_prefix16 (x, &carry), ps + CHANNELS + q);
  }
  for (; q < ns; q++) {
    cs[q] += (uint) STORED (a[q]) - (uint) STORED (b[q]);
    ps[CHANNELS + q] = ps[q] + cs[q];
  }
}
#endif

/* -DBOX_SUM16 on 8-bit samples, where the output is round (S / d) for an integer d of at
 * least KSIZE^2 (w = 1 / d and no bias: a box, or equal coefficients over such a divisor; the
 * results then stay below 256): floor ((S + d / 2) * m / 2^(16 + k)) for every S below 2^16,
 * with m below 2^16 (a division by a constant as a high product and a shift). Returns k + 1, or
 * 0 where the sums go through floats. */
#if defined (BOX_SUM16) && DEPTH == 8
inline int
box_divisor (float w, float bias, uint * mul, uint * round_half)
{
  float df = w > 0.0f ? rint (1.0f / w) : 0.0f;

  if (bias != 0.0f || df < (float) (KSIZE * KSIZE) || df > 65535.0f ||
      fabs (df * w - 1.0f) > 1e-6f)
    return 0;

  uint d = (uint) df;

  if (255u * KSIZE * KSIZE + d / 2 > 65535u)
    return 0;
  for (int k = 15; k >= 0; k--) {
    ulong p = 1ul << (16 + k), m = (p + d - 1) / d;

    /* exact for every numerator below 2^16 */
    if (m < 65536ul && m * d - p <= (1ul << k)) {
      *mul = (uint) m;
      *round_half = d / 2;
      return k + 1;
    }
  }
  return 0;
}
#endif

__kernel void
convolve_box (int row0, __global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, int rank, float bias, uint passmask SHAPE_PARAMS)
{
  int xb = get_global_id (0) * BOX_W, ys = row0 + (int) get_global_id (1) * STRIP;
  bsum_t cs[BOX_COLS];
  /* the prefix sums of a row's column sums, after a pixel of zeros */
  bsum_t ps[BOX_COLS + CHANNELS];
  float w = coef[0] * coef[KSIZE];

  if (xb >= span || ys >= height)
    return;
  src += src_offset;
  dst += dst_offset;

  int n = min (BOX_W, span - xb), ye = min (ys + STRIP, height);
  /* the real pixels of the block (the others, from width to span, are copied) */
  int nw = clamp (width - xb, 0, n), nc = nw + KSIZE - 1, x0 = xb - RADIUS;
  /* samples written 16 at a time (whole vectors of real pixels; SKIPMASK: none) */
  int n16 = SKIPMASK ? 0 : nw * CHANNELS / 16;
  int16 pass0 = lane_pass16 (passmask, 0), pass1 = lane_pass16 (passmask, 1),
      pass2 = lane_pass16 (passmask, 2);
#if defined (BOX_SUM16) && DEPTH == 8
  uint fx_mul = 0, fx_half = 0;
  int fx_k = box_divisor (w, bias, &fx_mul, &fx_half);
  ushort16 fx_m = (ushort16) ((ushort) fx_mul), fx_h = (ushort16) ((ushort) fx_half),
      fx_s = (ushort16) ((ushort) max (fx_k - 1, 0));
#endif

  for (int q = 0; q < nc * CHANNELS; q++)
    cs[q] = 0;
  for (int c = 0; c < CHANNELS; c++)
    ps[c] = 0;
  for (int t = -RADIUS; t <= RADIUS; t++)
    box_slide (cs, src, src_pitch, box_row (ys + t, height SHAPE_ARGS), -1, x0, nc,
        width SHAPE_ARGS);
  for (int y = ys; y < ye; y++) {
    __global const samp_t *in = CSAMPLES (src + y * src_pitch + xb * PIX_BYTES);
    __global samp_t *out = SAMPLES (dst + y * dst_pitch + xb * PIX_BYTES);

    {
      /* the row entering the next row's window, asked into the cache a row ahead */
      int yp = box_row (y + RADIUS + 1, height SHAPE_ARGS);

      if (yp >= 0 && y + 1 < ye) {
        __global const uchar *p = src + yp * src_pitch + max (x0, 0) * PIX_BYTES;
        int nb = (min (x0 + nc, width) - max (x0, 0)) * PIX_BYTES;

        for (int o = 0; o < nb; o += 64)
          __builtin_prefetch (p + o);
      }
    }
    {
      int yin = y > ys ? box_row (y + RADIUS, height SHAPE_ARGS) : -1;
      int yout = y > ys ? box_row (y - RADIUS - 1, height SHAPE_ARGS) : -1;

#if CHANNELS != 3
      if (yin >= 0 && yout >= 0 && yin != yout && x0 >= 0 && x0 + nc <= width) {
        box_slide_prefix (cs, ps, src, src_pitch, yin, yout, x0, nc);
      } else
#endif
      {
        if (yin != yout)
          box_slide (cs, src, src_pitch, yin, yout, x0, nc, width SHAPE_ARGS);
        /* output pixel j sums column sums j .. j + KSIZE - 1: ps[j + KSIZE] - ps[j] */
        box_prefix (cs, ps, nc);
      }
    }
    for (int v = 0, k = 0; v < n16; v++, k = k == 2 ? 0 : k + 1) {
      bsum16_t sum = LOAD_B16 (ps + 16 * v + KSIZE * CHANNELS) - LOAD_B16 (ps + 16 * v);
      int16 pass = CHANNELS != 3 || k == 0 ? pass0 : k == 1 ? pass1 : pass2;

#if defined (BOX_SUM16) && DEPTH == 8
      if (fx_k) {
        put16_bytes (convert_uchar16 (MULHI_U16 (sum + fx_h, fx_m) >> fx_s), pass, in, out, v);
        continue;
      }
#endif
#ifdef BOX_SUM16
      put16 (convert_float16 (sum) * w, bias, pass, in, out, v);
#else
      /* the sums are below 2^31: converted as signed integers, which x86 has an instruction
       * for (unsigned ones only from AVX-512 on) */
      put16 (convert_float16 (as_int16 (sum)) * w, bias, pass, in, out, v);
#endif
    }
    /* the pixels left one at a time, those from width to span copied */
    for (int j = n16 * 16 / CHANNELS; j < n; j++) {
      pix_t centre = READ ((__global const uchar *) in + j * PIX_BYTES);
      __global uchar *o = (__global uchar *) out + j * PIX_BYTES;

      if (j < nw) {
        ipix_t sum = PS_DIFF (j);

        store (o, BOX_SUM (sum) * w, bias, centre, passmask);
      } else {
        write_pix (centre, o);
      }
    }
  }
}
#endif

#ifdef GBOX_TW
/* convolve_box on GPUs: a work-group of GBOX_TW work-items filters a strip of STRIP rows of
 * GBOX_TX pixels (a tile). Per output row each work-item moves the column sums of its GBOX_NC
 * columns of the tile and its halo (columns lx, lx + GBOX_TW, ...: neighbouring work-items read
 * neighbouring pixels) down a row, in registers, by the pixels it loaded while the row before
 * was summed up; they go to local memory. Every GBOX_RB rows (1 unless set) the work-items
 * then slide a window of KSIZE column sums over the rows' outputs, each over a segment of
 * GBOX_SEG adjacent pixels of one row (after the first output, two local reads an output: a
 * segment costs KSIZE + 2 (GBOX_SEG - 1) reads, so longer segments cost less a pixel at large
 * sizes). Band heights are multiples of STRIP. */
#ifndef GBOX_RB
#define GBOX_RB 1
#endif
#define GBOX_TX (GBOX_TW * GBOX_MX)
#define GBOX_COLS (GBOX_TX + KSIZE - 1)
#define GBOX_NC ((GBOX_COLS + GBOX_TW - 1) / GBOX_TW)
#define GBOX_SEG (GBOX_MX * GBOX_RB)
/* column sum c's slot in its row: one spare after every GBOX_SEG, so that the work-items'
 * windows, GBOX_SEG + 1 slots apart, fall in different banks */
#define GBOX_SLOT(c) ((c) + (c) / GBOX_SEG)
#define GBOX_ROW (GBOX_SLOT (GBOX_COLS) + 1)

/* The pixels of input rows yin and yout (-1: zeros) at the columns xm (-1: zeros) */
inline void
gbox_load (ipix_t * pin, ipix_t * pout, __global const uchar * src, int pitch, const int *xm,
    int yin, int yout)
{
  __global const uchar *a = src + max (yin, 0) * pitch, *b = src + max (yout, 0) * pitch;

#pragma unroll
  for (int j = 0; j < GBOX_NC; j++) {
    pin[j] = yin >= 0 && xm[j] >= 0 ? TO_IPIX (READ (a + xm[j])) : (ipix_t) (0);
    pout[j] = yout >= 0 && xm[j] >= 0 ? TO_IPIX (READ (b + xm[j])) : (ipix_t) (0);
  }
}

__kernel __attribute__ ((reqd_work_group_size (GBOX_TW, 1, 1)))
void
convolve_box (int row0, __global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, int rank, float bias, uint passmask SHAPE_PARAMS)
{
  __local ipix_t cs[GBOX_RB * GBOX_ROW];
  int lx = get_local_id (0), xs = get_group_id (0) * GBOX_TX;
  int ys = row0 + (int) get_group_id (1) * STRIP, ye = min (ys + STRIP, height);
  float w = coef[0] * coef[KSIZE];
  ipix_t v[GBOX_NC];
  int xm[GBOX_NC];              /* column j's byte offset in a row, -1: zeros or none */

  /* (a whole work-group past the plane: before any barrier) */
  if (ys >= height)
    return;
  src += src_offset;
  dst += dst_offset;
#pragma unroll
  for (int j = 0; j < GBOX_NC; j++) {
    int c = lx + GBOX_TW * j, x = xs - RADIUS + c;

    if (c >= GBOX_COLS || (BORDER == BORDER_CONSTANT && (x < 0 || x >= width)))
      xm[j] = -1;
    else
      xm[j] = (BORDER == BORDER_CONSTANT ? x : border_coord (x, width SHAPE_ARGS)) * PIX_BYTES;
    v[j] = (ipix_t) (0);
  }
  /* the first window's rows but its last: ys - RADIUS .. ys + RADIUS - 1 */
#pragma unroll 4
  for (int t = 0; t < KSIZE - 1; t++) {
    int yin = box_row (ys - RADIUS + t, height SHAPE_ARGS);

    if (yin >= 0) {
      __global const uchar *a = src + yin * src_pitch;

#pragma unroll
      for (int j = 0; j < GBOX_NC; j++)
        if (xm[j] >= 0)
          v[j] += TO_IPIX (READ (a + xm[j]));
    }
  }
  /* the rows entering and leaving the window of the next output row, loaded a row ahead so
   * that their loads wait while the row before is summed up */
  ipix_t pin[GBOX_NC], pout[GBOX_NC];

  gbox_load (pin, pout, src, src_pitch, xm, box_row (ys + RADIUS, height SHAPE_ARGS), -1);
  for (int y0 = ys; y0 < ye; y0 += GBOX_RB) {
    /* (one row: constants, so that the row loop and the segment test fold away) */
    int rows = GBOX_RB == 1 ? 1 : min (GBOX_RB, ye - y0);

    for (int r = 0; r < rows; r++) {
      int y = y0 + r;

#pragma unroll
      for (int j = 0; j < GBOX_NC; j++)
        v[j] += pin[j] - pout[j];
      if (y + 1 < ye)
        gbox_load (pin, pout, src, src_pitch, xm, box_row (y + 1 + RADIUS, height SHAPE_ARGS),
            box_row (y - RADIUS, height SHAPE_ARGS));
#pragma unroll
      for (int j = 0; j < GBOX_NC; j++)
        if (lx + GBOX_TW * j < GBOX_COLS)
          cs[r * GBOX_ROW + GBOX_SLOT (lx + GBOX_TW * j)] = v[j];
    }
    barrier (CLK_LOCAL_MEM_FENCE);
    /* work-item lx: segment lx % (GBOX_TW / GBOX_RB) of row lx / (GBOX_TW / GBOX_RB) */
    if (GBOX_RB == 1 || lx / (GBOX_TW / GBOX_RB) < rows) {
      int r = lx / (GBOX_TW / GBOX_RB), c0 = lx % (GBOX_TW / GBOX_RB) * GBOX_SEG;
      int x0 = xs + c0, y = y0 + r;
      __local const ipix_t *row = cs + r * GBOX_ROW;
      __global const uchar *in = src + y * src_pitch;
      __global uchar *out = dst + y * dst_pitch;
      ipix_t s = (ipix_t) (0);

      for (int i = 0; i < KSIZE; i++)
        s += row[GBOX_SLOT (c0 + i)];
#pragma unroll
      for (int m = 0; m < GBOX_SEG; m++) {
        int x = x0 + m;

        if (x < span) {
          pix_t centre = READ (in + x * PIX_BYTES);

          if (x < width)
            store (out + x * PIX_BYTES, BOX_SUM (s) * w, bias, centre, passmask);
          else
            write_pix (centre, out + x * PIX_BYTES);
        }
        if (m + 1 < GBOX_SEG)
          s += row[GBOX_SLOT (c0 + m + KSIZE)] - row[GBOX_SLOT (c0 + m)];
      }
    }
    barrier (CLK_LOCAL_MEM_FENCE);
  }
}
#endif
