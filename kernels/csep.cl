/* clconvolve, method=separable on CPUs, vertical pass first: convolve_csep. A program is
 * common.cl and this file.
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Build options (besides the common ones):
 *   -DCSEP_W=w -DCSEP_MY=m   blocks of w pixels on m rows per work-item
 *   -DCSEP_G=g               output rows whose vertical sums are taken together (default 1;
 *                            a divisor of m)
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

/* 16 samples as floats from stored ones */
#define CSEP_LOAD16(p) convert_float16 (STORED16 (vload16 (0, p)))

/* output rows whose vertical sums are taken together: each input row loaded and converted once
 * for all of them (CSEP_MY a multiple of it) */
#ifndef CSEP_G
#define CSEP_G 1
#endif
/* 16-sample chains a row of the group takes at a time: eight accumulators in all (an FMA's
 * latency is four of its issue slots, on two ports) */
#define CSEP_NCH (CSEP_G == 1 ? 4 : 8 / CSEP_G)
#define CSEP_ROWS (KSIZE + CSEP_G - 1)

__kernel void
convolve_csep (int row0, __global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, int rank, float bias, uint passmask SHAPE_PARAMS)
{
  int xb = get_global_id (0) * CSEP_W, y0 = row0 + (int) get_global_id (1) * CSEP_MY;
  float vs[CSEP_G][CSEP_COLS];
  float hs[CSEP_G][CSEP_W * CHANNELS + 16];
  int rows[CSEP_ROWS];
  /* tap t - m of output row m of the group for input row t of the window, 0 outside the
   * matrix and (constant) outside the plane */
  float vw[CSEP_G][CSEP_ROWS];

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
          vw[m][t] = t - m >= 0 && t - m < KSIZE ? v[t - m] * in_plane : 0.0f;
      }
      /* vertical sums: of the columns inside the plane 16 CSEP_NCH samples at a time (each
       * loaded sample serves every row of the group), then the halo's outside it, from the
       * column they map to */
      {
        int lo = max (x0, 0), hi = min (x0 + nc, width);
        int q0 = (lo - x0) * CHANNELS, q1 = (hi - x0) * CHANNELS, q = q0;
        __global const uchar *base = src + x0 * PIX_BYTES;

        for (; q + 16 * CSEP_NCH <= q1; q += 16 * CSEP_NCH) {
          float16 a[CSEP_G][CSEP_NCH];

#pragma unroll
          for (int m = 0; m < CSEP_G; m++)
#pragma unroll
            for (int c = 0; c < CSEP_NCH; c++)
              a[m][c] = (float16) (0.0f);
          for (int t = 0; t < CSEP_ROWS; t++) {
            __global const samp_t *r = CSAMPLES (base + rows[t]) + q;
            float16 x[CSEP_NCH];

#pragma unroll
            for (int c = 0; c < CSEP_NCH; c++)
              x[c] = CSEP_LOAD16 (r + 16 * c);
#pragma unroll
            for (int m = 0; m < CSEP_G; m++)
#pragma unroll
              for (int c = 0; c < CSEP_NCH; c++)
                a[m][c] = fma ((float16) (vw[m][t]), x[c], a[m][c]);
          }
#pragma unroll
          for (int m = 0; m < CSEP_G; m++)
#pragma unroll
            for (int c = 0; c < CSEP_NCH; c++)
              STORE_F16 (a[m][c], vs[m] + q + 16 * c);
        }
        /* the rest 16 samples at a time, the last vector ending at q1 (overlapping the one
         * before: its samples are summed again to the same values), then, in a span under 16
         * samples, one by one */
        for (; q < q1 && q1 - q0 >= 16; q += 16) {
          int qv = min (q, q1 - 16);
          float16 a[CSEP_G];

#pragma unroll
          for (int m = 0; m < CSEP_G; m++)
            a[m] = (float16) (0.0f);
          for (int t = 0; t < CSEP_ROWS; t++) {
            float16 x = CSEP_LOAD16 (CSAMPLES (base + rows[t]) + qv);

#pragma unroll
            for (int m = 0; m < CSEP_G; m++)
              a[m] = fma ((float16) (vw[m][t]), x, a[m]);
          }
#pragma unroll
          for (int m = 0; m < CSEP_G; m++)
            STORE_F16 (a[m], vs[m] + qv);
        }
        for (; q < q1; q++) {
          for (int m = 0; m < CSEP_G; m++) {
            float a = 0.0f;

            for (int t = 0; t < CSEP_ROWS; t++)
              a += vw[m][t] * convert_float (STORED (CSAMPLES (base + rows[t])[q]));
            vs[m][q] = a;
          }
        }
        /* the columns left of lo, then those from hi on */
        int l = lo - x0, r = max (hi, lo) - x0;

        for (int k = 0; k < nc - (r - l); k++) {
          int i = k < l ? k : r + k - l, x = x0 + i, xm = border_coord (x, width SHAPE_ARGS);

          for (int m = 0; m < CSEP_G; m++)
            for (int c = 0; c < CHANNELS; c++) {
              float a = 0.0f;

              if (BORDER == BORDER_CONSTANT) {
                a = 0.0f;
              } else if (xm >= lo && xm < hi) {
                a = vs[m][(xm - x0) * CHANNELS + c];
              } else {
                for (int t = 0; t < CSEP_ROWS; t++)
                  a += vw[m][t] * convert_float (STORED (CSAMPLES (src + rows[t] + xm *
                              PIX_BYTES)[c]));
              }
              vs[m][i * CHANNELS + c] = a;
            }
        }
      }
      /* horizontal sums of each row of the group, added to the other pairs' (four 16-sample
       * chains) */
      for (int m = 0; m < ng; m++) {
        const float *vm = vs[m];
        float *hm = hs[m];
        int q = 0;

        for (; q + 64 <= nh; q += 64) {
          float16 a0 = (float16) (0.0f), a1 = a0, a2 = a0, a3 = a0;

          if (p > 0) {
            a0 = LOAD_F16 (hm + q);
            a1 = LOAD_F16 (hm + q + 16);
            a2 = LOAD_F16 (hm + q + 32);
            a3 = LOAD_F16 (hm + q + 48);
          }
          for (int t = 0; t < KSIZE; t++) {
            float16 c = (float16) (h[t]);
            const float *wp = vm + q + t * CHANNELS;

            a0 = fma (c, LOAD_F16 (wp), a0);
            a1 = fma (c, LOAD_F16 (wp + 16), a1);
            a2 = fma (c, LOAD_F16 (wp + 32), a2);
            a3 = fma (c, LOAD_F16 (wp + 48), a3);
          }
          STORE_F16 (a0, hm + q);
          STORE_F16 (a1, hm + q + 16);
          STORE_F16 (a2, hm + q + 32);
          STORE_F16 (a3, hm + q + 48);
        }
        /* the first pair's last vector may end at nh, overlapping the one before (its sums
         * stored again unchanged); the other pairs add to what is stored, so not theirs */
        for (; q < nh && (q + 16 <= nh || (p == 0 && nh >= 16)); q += 16) {
          int qv = min (q, nh - 16);
          float16 a0 = p > 0 ? LOAD_F16 (hm + qv) : (float16) (0.0f);

          for (int t = 0; t < KSIZE; t++)
            a0 = fma ((float16) (h[t]), LOAD_F16 (vm + qv + t * CHANNELS), a0);
          STORE_F16 (a0, hm + qv);
        }
        for (; q < nh; q++) {
          float a = p > 0 ? hm[q] : 0.0f;

          for (int t = 0; t < KSIZE; t++)
            a += h[t] * vm[q + t * CHANNELS];
          hm[q] = a;
        }
      }
    }
    for (int m = 0; m < ng; m++) {
      __global const samp_t *in = CSAMPLES (src + (y + m) * src_pitch + xb * PIX_BYTES);
      __global samp_t *out = SAMPLES (dst + (y + m) * dst_pitch + xb * PIX_BYTES);
      const float *hm = hs[m];

      for (int k = 0, v = 0; v < n16; v++, k = k == 2 ? 0 : k + 1) {
        float16 acc = LOAD_F16 (hm + 16 * v);

        if (w != 0.0f)
          acc = fma ((float16) (w), CSEP_LOAD16 (in + 16 * v), acc);
        put16 (acc, bias, CHANNELS != 3 || k == 0 ? pass0 : k == 1 ? pass1 : pass2, in, out,
            v);
      }
      /* the pixels left one at a time, those from width to span copied */
      for (int j = n16 * 16 / CHANNELS; j < n; j++) {
        pix_t centre = READ ((__global const uchar *) in + j * PIX_BYTES);
        __global uchar *o = (__global uchar *) out + j * PIX_BYTES;

        if (j < nw) {
#if defined (ONLY) && CHANNELS > 1
          float sum = hm[j * CHANNELS + ONLY];
#elif CHANNELS == 1
          float sum = hm[j];
#elif CHANNELS == 2
          float2 sum = vload2 (j, hm);
#elif CHANNELS == 3
          float3 sum = vload3 (j, hm);
#else
          float4 sum = vload4 (j, hm);
#endif
          store (o, sum + w * SUM_OF (centre), bias, centre, passmask);
        } else {
          write_pix (centre, o);
        }
      }
    }
  }
}
#endif
