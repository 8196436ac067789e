/* clconvolve, method=separable on CPUs, vertical pass first: convolve_csep, and
 * convolve_csep_table for the blocks of many views at once. A program is common.cl and this
 * file.
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Build options (besides the common ones):
 *   -DCSEP_W=w -DCSEP_MY=m   blocks of w pixels on m rows per work-item
 *   -DCSEP_G=g               output rows whose vertical sums are taken together (default 1;
 *                            a divisor of m)
 *   -DCSEP_FX                sums in 16-bit fixed point (8-bit samples, one pair whose
 *                            vertical and horizontal coefficients each have one sign and
 *                            whose absolute sums multiply to at most 1: a blur's)
 */

#ifdef CSEP_W
/* For each output row of its block a work-item takes, per vector pair, the vertical sums of the
 * block's columns and the halo either side (64 samples at a time in four float16 chains,
 * straight from the KSIZE input rows), then the horizontal sums of those (the same, unaligned
 * loads of the row of vertical sums one pixel apart): 2 KSIZE multiply-adds per sample and pair, no shuffles, no ring, and output
 * rows independent of each other. Rows outside the plane map through the border rule (constant:
 * their coefficient is 0), columns too (constant: vertical sums of 0). Pixels from width to
 * span are copied. coef: [pair][vertical KSIZE, horizontal KSIZE] as the other separable
 * kernels, rank pairs (no -DCOMBINE) and RANK_CENTRE's centre term. */

/* the vertical sums a work-item keeps: its block and the halo either side, in samples, with
 * room for the last 16-sample load past them */
#define CSEP_COLS ((CSEP_W + KSIZE - 1) * CHANNELS + 16)

/* The sums' type and arithmetic. In fixed point (-DCSEP_FX) a sample x is x * 256 and a
 * coefficient c (as a fraction of the pair's sums, which the output multiplies back) is
 * c * 65536: a product is the high half of theirs (mul_hi, one instruction for 16 samples),
 * still x * c * 256, and no sum can pass 255 * 256 plus the rounding terms. mul_hi truncates:
 * each sum starts at half a unit per tap that multiplies, so that it is rounded on average. */
#ifdef CSEP_FX
typedef ushort csum_t;
typedef ushort16 csum16_t;
#define CSEP_LOAD16(p) (convert_ushort16 (vload16 (0, p)) << (ushort16) (8))
#define CSEP_LOAD1(x) ((ushort) ((ushort) (x) << 8))
#define CSEP_MAC16(c, x, a) ((a) + MULHI_U16 ((x), (csum16_t) (c)))
#define CSEP_MAC1(c, x, a) ((csum_t) ((a) + mul_hi ((csum_t) (x), (csum_t) (c))))
#ifdef PACKED_IO
typedef struct __attribute__ ((packed))
{
  ushort16 v;
} priv_c16;
#define LOAD_C16(p) (((const priv_c16 *) (p))->v)
#define STORE_C16(x, p) (((priv_c16 *) (p))->v = (x))
#else
#define LOAD_C16(p) vload16 (0, p)
#define STORE_C16(x, p) vstore16 (x, 0, p)
#endif
#define CSEP_F(x, n) (convert_float##n (x) * fx_out)
#else
typedef float csum_t;
typedef float16 csum16_t;
#define CSEP_LOAD16(p) convert_float16 (STORED16 (vload16 (0, p)))
#define CSEP_LOAD1(x) convert_float (STORED (x))
#define CSEP_MAC16(c, x, a) fma ((float16) (c), (x), (a))
#define CSEP_MAC1(c, x, a) ((a) + (c) * (x))
#define LOAD_C16 LOAD_F16
#define STORE_C16 STORE_F16
#define CSEP_F(x, n) (x)
#endif

/* output rows whose vertical sums are taken together: each input row loaded and converted once
 * for all of them (CSEP_MY a multiple of it) */
#ifndef CSEP_G
#define CSEP_G 1
#endif
/* 16-sample chains a row of the group takes at a time: eight accumulators in all (an FMA's
 * latency is four of its issue slots, on two ports); sixteen of 16-bit sums (half as wide:
 * each coefficient broadcast serves twice the samples) */
#ifdef CSEP_FX
#define CSEP_NCH (CSEP_G == 1 ? 4 : 16 / CSEP_G)
#else
#define CSEP_NCH (CSEP_G == 1 ? 4 : 8 / CSEP_G)
#endif
#define CSEP_ROWS (KSIZE + CSEP_G - 1)
/* Symmetric vertical taps in fixed point: each output row multiplies the average of a pair of
 * input rows once (as the horizontal sums do), from the group's CSEP_ROWS vectors of 16 samples
 * (past the registers they spill to the stack, which still costs less than a multiply each) */
#if defined (CSEP_FX) && CSEP_G > 1
#define CSEP_VPAIR 1
#else
#define CSEP_VPAIR 0
#endif
/* horizontal tap t and what a horizontal sum starts at */
#ifdef CSEP_FX
#define CSEP_H(t) hq[t]
#define CSEP_H0 h0
#else
#define CSEP_H(t) h[t]
#define CSEP_H0 0.0f
#endif

#ifdef CSEP_FX
/* q[t] = c[t] / s in 16-bit fixed point (65536 times), rounded so that they sum to 65536
 * exactly (a blur keeps its level: no gain error), in pairs t and KSIZE - 1 - t (a symmetric
 * matrix stays symmetric): the floors, then a unit more for the taps whose remainders are the
 * largest */
inline void
csep_quantise (__constant float *c, float s, ushort * q)
{
  float r[KSIZE];
  int left = 65536;

  for (int t = 0; t < KSIZE; t++) {
    float x = c[t] / s * 65536.0f, f = min (floor (x), 65535.0f);

    q[t] = (ushort) f;
    r[t] = x - f;
    left -= q[t];
  }
  while (left > 0) {
    int best = RADIUS;
    float most = r[RADIUS];

    for (int t = 0; t < RADIUS && left >= 2; t++)
      if (r[t] + r[KSIZE - 1 - t] > most) {
        most = r[t] + r[KSIZE - 1 - t];
        best = t;
      }
    if (best == RADIUS) {
      q[RADIUS] = min (q[RADIUS] + 1, 65535);
      r[RADIUS] = -4.0f;
      left--;
    } else {
      q[best]++;
      q[KSIZE - 1 - best]++;
      r[best] = r[KSIZE - 1 - best] = -4.0f;
      left -= 2;
    }
  }
}
#endif

/* The block of CSEP_W pixels from xb on CSEP_MY rows from y0 of a view */
inline void
csep_block (int xb, int y0, __global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, int rank, float bias, uint passmask SHAPE_PARAMS)
{
  csum_t vs[CSEP_G][CSEP_COLS];
  csum_t hs[CSEP_G][CSEP_W * CHANNELS + 16];
  int rows[CSEP_ROWS];
  /* tap t - m of output row m of the group for input row t of the window, 0 outside the
   * matrix and (constant) outside the plane */
  csum_t vw[CSEP_G][CSEP_ROWS];
  /* what each row's vertical sums start at (fixed point: its rounding term) */
  csum_t v0[CSEP_G];

  if (xb >= span || y0 >= height)
    return;
  src += src_offset;
  dst += dst_offset;

  int n = min (CSEP_W, span - xb), y1 = min (y0 + CSEP_MY, height);
  /* the real pixels of the block (the others, from width to span, are copied) */
  int nw = clamp (width - xb, 0, n), nc = nw + KSIZE - 1, x0 = xb - RADIUS;
  int nh = nw * CHANNELS;
  /* samples written 16 at a time (whole vectors of real pixels; SKIPMASK: none) */
  int n16 = SKIPMASK ? 0 : nh / 16;
  int16 pass0 = lane_pass16 (passmask, 0), pass1 = lane_pass16 (passmask, 1),
      pass2 = lane_pass16 (passmask, 2);
  float w = CENTRE_W (coef, rank, RANK_ALL (rank));
#ifdef CSEP_FX
  /* the pair's coefficients as fractions of their sums' absolute values, the horizontal ones'
   * rounding term, and what turns a sum back into samples (the two sums' product and sign) */
  ushort vq[KSIZE], hq[KSIZE], h0 = 0;
  float sv = 0.0f, sh = 0.0f;

  for (int t = 0; t < KSIZE; t++) {
    sv += coef[t];
    sh += coef[KSIZE + t];
  }
  csep_quantise (coef, sv, vq);
  csep_quantise (coef + KSIZE, sh, hq);
  for (int t = 0; t < KSIZE; t++)
    h0 += hq[t] != 0;
  h0 /= 2;
  /* symmetric horizontal taps (a blur's): each pair's coefficient doubled (at most 1: the two
   * together are), multiplying the average of its two samples; and their rounding term */
  ushort hq2[KSIZE / 2 + 1], h0s = hq[RADIUS] != 0;
  bool hsym = true;

  for (int t = 0; t < RADIUS; t++) {
    hsym &= coef[KSIZE + t] == coef[2 * KSIZE - 1 - t];
    hq2[t] = min (2 * (int) hq[t], 65535);
    h0s += hq2[t] != 0;
  }
  h0s /= 2;
  /* the same for symmetric vertical taps, where the group's rows stay in registers */
  ushort vq2[KSIZE / 2 + 1], v0s = vq[RADIUS] != 0;
  bool vsym = CSEP_VPAIR;

  for (int t = 0; t < RADIUS; t++) {
    vsym &= coef[t] == coef[KSIZE - 1 - t];
    vq2[t] = min (2 * (int) vq[t], 65535);
    v0s += vq2[t] != 0;
  }
  v0s /= 2;
  float fx_out = sv * sh / 256.0f;
  /* a blur's: the sums are the output (the coefficients' product 1, no centre, no bias) */
  bool fx_direct = fabs (sv * sh - 1.0f) < 1e-5f && w == 0.0f && bias == 0.0f;
#endif

  for (int y = y0; y < y1; y += CSEP_G) {
    /* the group's rows in the plane (those past it are computed from mapped rows, not kept) */
    int ng = min (CSEP_G, y1 - y);

    for (int p = 0; p < RANK_ALL (rank); p++) {
      __constant float *v = coef + 2 * p * KSIZE, *h = v + KSIZE;

      /* the input rows of the group's windows, mapped by the border */
      for (int t = 0; t < CSEP_ROWS; t++) {
        int yy = y + t - RADIUS;
        float in_plane = BORDER != BORDER_CONSTANT || (yy >= 0 && yy < height) ? 1.0f : 0.0f;

        rows[t] = (BORDER == BORDER_CONSTANT ? clamp (yy, 0, height - 1) :
            border_coord (yy, height SHAPE_ARGS)) * src_pitch;
        for (int m = 0; m < CSEP_G; m++)
#ifdef CSEP_FX
          vw[m][t] = t - m >= 0 && t - m < KSIZE && in_plane != 0.0f ? vq[t - m] : 0;
#else
          vw[m][t] = t - m >= 0 && t - m < KSIZE ? v[t - m] * in_plane : 0.0f;
#endif
      }
      for (int m = 0; m < CSEP_G; m++) {
        v0[m] = 0;
#ifdef CSEP_FX
        for (int t = 0; t < CSEP_ROWS; t++)
          v0[m] += vw[m][t] != 0;
        v0[m] /= 2;
#endif
      }
      /* vertical sums: of the columns inside the plane 16 CSEP_NCH samples at a time (each
       * loaded sample serves every row of the group), then the halo's outside it, from the
       * column they map to */
      {
        int lo = max (x0, 0), hi = min (x0 + nc, width);
        int q0 = (lo - x0) * CHANNELS, q1 = (hi - x0) * CHANNELS, q = q0;
        __global const uchar *base = src + x0 * PIX_BYTES;

#if CSEP_VPAIR
        /* (a constant border's rows outside the plane are zeros by their coefficients, which
         * a pair shares: those groups take the loop below) */
        if (vsym && ng == CSEP_G && (BORDER != BORDER_CONSTANT || (y - RADIUS >= 0 &&
                    y + CSEP_G - 1 + RADIUS < height)))
          for (; q + 16 <= q1; q += 16) {
            csum16_t x[CSEP_ROWS];

#pragma unroll
            for (int t = 0; t < CSEP_ROWS; t++)
              x[t] = CSEP_LOAD16 (CSAMPLES (base + rows[t]) + q);
#pragma unroll
            for (int m = 0; m < CSEP_G; m++) {
              csum16_t a = MULHI_U16 (x[m + RADIUS], (csum16_t) (vq[RADIUS])) +
                  (csum16_t) (v0s);

#pragma unroll
              for (int t = 0; t < RADIUS; t++)
                a = CSEP_MAC16 (vq2[t], AVG_U16 (x[m + t], x[m + KSIZE - 1 - t]), a);
              STORE_C16 (a, vs[m] + q);
            }
          }
#endif
        for (; q + 16 * CSEP_NCH <= q1; q += 16 * CSEP_NCH) {
          csum16_t a[CSEP_G][CSEP_NCH];

#pragma unroll
          for (int m = 0; m < CSEP_G; m++)
#pragma unroll
            for (int c = 0; c < CSEP_NCH; c++)
              a[m][c] = (csum16_t) (v0[m]);
          for (int t = 0; t < CSEP_ROWS; t++) {
            __global const samp_t *r = CSAMPLES (base + rows[t]) + q;
            csum16_t x[CSEP_NCH];

#pragma unroll
            for (int c = 0; c < CSEP_NCH; c++)
              x[c] = CSEP_LOAD16 (r + 16 * c);
            /* only the rows of the group whose window holds input row t */
#pragma unroll
            for (int m = 0; m < CSEP_G; m++)
              if (t >= m && t < m + KSIZE)
#pragma unroll
                for (int c = 0; c < CSEP_NCH; c++)
                  a[m][c] = CSEP_MAC16 (vw[m][t], x[c], a[m][c]);
          }
#pragma unroll
          for (int m = 0; m < CSEP_G; m++)
#pragma unroll
            for (int c = 0; c < CSEP_NCH; c++)
              STORE_C16 (a[m][c], vs[m] + q + 16 * c);
        }
        /* the rest 16 samples at a time, the last vector ending at q1 (overlapping the one
         * before: its samples are summed again, to the same values or, after the paired sums,
         * within a unit of them), then, in a span under 16 samples, one by one */
        for (; q < q1 && q1 - q0 >= 16; q += 16) {
          int qv = min (q, q1 - 16);
          csum16_t a[CSEP_G];

#pragma unroll
          for (int m = 0; m < CSEP_G; m++)
            a[m] = (csum16_t) (v0[m]);
          for (int t = 0; t < CSEP_ROWS; t++) {
            csum16_t x = CSEP_LOAD16 (CSAMPLES (base + rows[t]) + qv);

#pragma unroll
            for (int m = 0; m < CSEP_G; m++)
              if (t >= m && t < m + KSIZE)
                a[m] = CSEP_MAC16 (vw[m][t], x, a[m]);
          }
#pragma unroll
          for (int m = 0; m < CSEP_G; m++)
            STORE_C16 (a[m], vs[m] + qv);
        }
        for (; q < q1; q++) {
          for (int m = 0; m < CSEP_G; m++) {
            csum_t a = v0[m];

            for (int t = 0; t < CSEP_ROWS; t++)
              a = CSEP_MAC1 (vw[m][t], CSEP_LOAD1 (CSAMPLES (base + rows[t])[q]), a);
            vs[m][q] = a;
          }
        }
        /* the columns left of lo, then those from hi on */
        int l = lo - x0, r = max (hi, lo) - x0;

        for (int k = 0; k < nc - (r - l); k++) {
          int i = k < l ? k : r + k - l, x = x0 + i, xm = border_coord (x, width SHAPE_ARGS);

          for (int m = 0; m < CSEP_G; m++)
            for (int c = 0; c < CHANNELS; c++) {
              csum_t a = 0;

              if (BORDER == BORDER_CONSTANT) {
                a = 0;
              } else if (xm >= lo && xm < hi) {
                a = vs[m][(xm - x0) * CHANNELS + c];
              } else {
                a = v0[m];
                for (int t = 0; t < CSEP_ROWS; t++)
                  a = CSEP_MAC1 (vw[m][t], CSEP_LOAD1 (CSAMPLES (src + rows[t] + xm *
                              PIX_BYTES)[c]), a);
              }
              vs[m][i * CHANNELS + c] = a;
            }
        }
      }
      /* horizontal sums of each row of the group, added to the other pairs' (four 16-sample
       * chains) */
      for (int m = 0; m < ng; m++) {
        const csum_t *vm = vs[m];
        csum_t *hm = hs[m];
        int q = 0;

        for (; q + 64 <= nh; q += 64) {
          csum16_t a0 = (csum16_t) (CSEP_H0), a1 = a0, a2 = a0, a3 = a0;

          if (p > 0) {
            a0 = LOAD_C16 (hm + q);
            a1 = LOAD_C16 (hm + q + 16);
            a2 = LOAD_C16 (hm + q + 32);
            a3 = LOAD_C16 (hm + q + 48);
          }
#ifdef CSEP_FX
          /* symmetric taps: the average of the two samples times twice the coefficient */
          if (hsym) {
            a0 = a1 = a2 = a3 = (csum16_t) (h0s);
            for (int t = 0; t < RADIUS; t++) {
              csum_t c = hq2[t];
              const csum_t *wp = vm + q + t * CHANNELS, *wr = vm + q + (KSIZE - 1 - t) * CHANNELS;

              a0 = CSEP_MAC16 (c, AVG_U16 (LOAD_C16 (wp), LOAD_C16 (wr)), a0);
              a1 = CSEP_MAC16 (c, AVG_U16 (LOAD_C16 (wp + 16), LOAD_C16 (wr + 16)), a1);
              a2 = CSEP_MAC16 (c, AVG_U16 (LOAD_C16 (wp + 32), LOAD_C16 (wr + 32)), a2);
              a3 = CSEP_MAC16 (c, AVG_U16 (LOAD_C16 (wp + 48), LOAD_C16 (wr + 48)), a3);
            }
            const csum_t *wp = vm + q + RADIUS * CHANNELS;

            a0 = CSEP_MAC16 (hq[RADIUS], LOAD_C16 (wp), a0);
            a1 = CSEP_MAC16 (hq[RADIUS], LOAD_C16 (wp + 16), a1);
            a2 = CSEP_MAC16 (hq[RADIUS], LOAD_C16 (wp + 32), a2);
            a3 = CSEP_MAC16 (hq[RADIUS], LOAD_C16 (wp + 48), a3);
          } else
#endif
          for (int t = 0; t < KSIZE; t++) {
            csum_t c = CSEP_H (t);
            const csum_t *wp = vm + q + t * CHANNELS;

            a0 = CSEP_MAC16 (c, LOAD_C16 (wp), a0);
            a1 = CSEP_MAC16 (c, LOAD_C16 (wp + 16), a1);
            a2 = CSEP_MAC16 (c, LOAD_C16 (wp + 32), a2);
            a3 = CSEP_MAC16 (c, LOAD_C16 (wp + 48), a3);
          }
          STORE_C16 (a0, hm + q);
          STORE_C16 (a1, hm + q + 16);
          STORE_C16 (a2, hm + q + 32);
          STORE_C16 (a3, hm + q + 48);
        }
        /* the first pair's last vector may end at nh, overlapping the one before (its sums
         * stored again unchanged); the other pairs add to what is stored, so not theirs */
        for (; q < nh && (q + 16 <= nh || (p == 0 && nh >= 16)); q += 16) {
          int qv = min (q, nh - 16);
          csum16_t a0 = p > 0 ? LOAD_C16 (hm + qv) : (csum16_t) (CSEP_H0);

          for (int t = 0; t < KSIZE; t++)
            a0 = CSEP_MAC16 (CSEP_H (t), LOAD_C16 (vm + qv + t * CHANNELS), a0);
          STORE_C16 (a0, hm + qv);
        }
        for (; q < nh; q++) {
          csum_t a = p > 0 ? hm[q] : CSEP_H0;

          for (int t = 0; t < KSIZE; t++)
            a = CSEP_MAC1 (CSEP_H (t), vm[q + t * CHANNELS], a);
          hm[q] = a;
        }
      }
    }
    for (int m = 0; m < ng; m++) {
      __global const samp_t *in = CSAMPLES (src + (y + m) * src_pitch + xb * PIX_BYTES);
      __global samp_t *out = SAMPLES (dst + (y + m) * dst_pitch + xb * PIX_BYTES);
      const csum_t *hm = hs[m];

      for (int k = 0, v = 0; v < n16; v++, k = k == 2 ? 0 : k + 1) {
#ifdef CSEP_FX
        /* sums that are the samples times 256 already: rounded and stored as integers */
        if (fx_direct) {
          uchar16 res = convert_uchar16 (add_sat (LOAD_C16 (hm + 16 * v), (ushort16) (128)) >>
              (ushort16) (8));

          put16_bytes (res, CHANNELS != 3 || k == 0 ? pass0 : k == 1 ? pass1 : pass2, in, out,
              v);
          continue;
        }
#endif
        float16 acc = CSEP_F (LOAD_C16 (hm + 16 * v), 16);

        if (w != 0.0f)
          acc = fma ((float16) (w), convert_float16 (STORED16 (vload16 (v, in))), acc);
        put16 (acc, bias, CHANNELS != 3 || k == 0 ? pass0 : k == 1 ? pass1 : pass2, in, out,
            v);
      }
      /* the pixels left one at a time, those from width to span copied */
      for (int j = n16 * 16 / CHANNELS; j < n; j++) {
        pix_t centre = READ ((__global const uchar *) in + j * PIX_BYTES);
        __global uchar *o = (__global uchar *) out + j * PIX_BYTES;

        if (j < nw) {
#if defined (ONLY) && CHANNELS > 1
          float sum = CSEP_F (hm[j * CHANNELS + ONLY], );
#elif CHANNELS == 1
          float sum = CSEP_F (hm[j], );
#elif CHANNELS == 2
          float2 sum = CSEP_F (vload2 (j, hm), 2);
#elif CHANNELS == 3
          float3 sum = CSEP_F (vload3 (j, hm), 3);
#else
          float4 sum = CSEP_F (vload4 (j, hm), 4);
#endif
          store (o, sum + w * SUM_OF (centre), bias, centre, passmask);
        } else {
          write_pix (centre, o);
        }
      }
    }
  }
}

__kernel void
convolve_csep (int row0, __global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, int rank, float bias, uint passmask SHAPE_PARAMS)
{
  csep_block (get_global_id (0) * CSEP_W, row0 + (int) get_global_id (1) * CSEP_MY, src,
      src_offset, src_pitch, dst, dst_offset, dst_pitch, width, height, span, coef, rank, bias,
      passmask SHAPE_ARGS);
}

/* Blocks of many views in one launch (a CPU's regions: each window's launch would wake the
 * device's threads for a little work), a block a work-item: entry i of table from base, 9
 * ints (CL_BLOCK_INTS): xb, y0, src_offset, src_pitch, dst_offset, dst_pitch, width and
 * height of its view, and the span its rows write up to (the view's, or less: a region's end) */
__kernel void
convolve_csep_table (__global const int *table, int base, __global const uchar * src,
    __global uchar * dst, __constant float *coef, int rank, float bias,
    uint passmask SHAPE_PARAMS)
{
  __global const int *t = table + base + 9 * (int) get_global_id (0);

  csep_block (t[0], t[1], src, t[2], t[3], dst, t[4], t[5], t[6], t[7], t[8], coef, rank, bias,
      passmask SHAPE_ARGS);
}
#endif
