/* clconvolve, method=separable, one pass: convolve_vsep. A program is common.cl and this
 * file.
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Build options (besides the common ones):
 *   -DSTRIP=s -DNV=v strips of s rows of 8*v samples per work-item
 */

#ifdef STRIP
#ifdef SWAP
#error "-DSTRIP loads samples as they are stored"
#endif
/* method=separable on CPUs, one pass (-DSTRIP=s with -DNV=v): each work-item computes VEC_PIXELS
 * adjacent pixels (NV float8 vectors of samples) down a strip of STRIP rows. It walks the
 * input rows of the strip plus the halo once: each row is loaded and converted once, its
 * horizontal sums (one per pair) kept in a ring of the last KSIZE rows in private memory, and
 * each output row is the vertical sum over the ring. 2 * rank * KSIZE multiply-adds per output
 * sample, no intermediate buffer. Strips touching the left or right border compute their
 * horizontal sums sample by sample with the border rule; rows above and below the plane map
 * through it (zeros for constant). The ring's slots are compile-time constants once the row
 * loop is unrolled by KSIZE (the host uses it up to KSIZE 31). Needs SKIPMASK 0.
 * coef as for convolve_rows/cols: [pair][vertical KSIZE, horizontal KSIZE]; rank as theirs
 * (-DCOMBINE: the second matrix's pairs after the first's, rank RANK_A + 16 * theirs;
 * without, RANK_CENTRE adds a centre term). */
__kernel void
convolve_vsep (int row0, __global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, int rank, float bias, uint passmask SHAPE_PARAMS)
{
  int xb = get_global_id (0) * VEC_PIXELS, ys = row0 + (int) get_global_id (1) * STRIP;
  int inside = xb >= RADIUS && xb - RADIUS + VEC_READ <= width;
  float8 ring[4][KSIZE][NV];

  /* row0 < 0 never happens: it tells the compiler that the rows are not negative, which lets
   * it drop the unrolled loop's lower border checks (docs/kernels.md) */
  if (xb >= span || ys >= height || row0 < 0)
    return;
  src += src_offset;
  dst += dst_offset;
  for (int base = 0; base < STRIP + KSIZE - 1; base += KSIZE) {
#pragma unroll
    for (int k = 0; k < KSIZE; k++) {
      int i = base + k, yy = ys - RADIUS + i, o = ys + i - (KSIZE - 1);

      /* a guard, not a break: with a break PoCL leaves the loop rolled (docs/kernels.md) */
      if (i < STRIP + KSIZE - 1 && o < height) {
      /* input row yy: its horizontal sums into ring slot k (= i % KSIZE) */
      yy = border_coord (yy, height SHAPE_ARGS);
      if (BORDER == BORDER_CONSTANT && (yy < 0 || yy >= height)) {
        for (int p = 0; p < RANK_ALL (rank); p++)
#pragma unroll
          for (int v = 0; v < NV; v++)
            ring[p][k][v] = (float8) (0.0f);
      } else if (inside) {
        __global const uchar *row = src + yy * src_pitch + (xb - RADIUS) * PIX_BYTES;
        float8 seg[VEC_SEG];

#pragma unroll
        for (int q = 0; q < VEC_SEG; q++)
          seg[q] = convert_float8 (vload8 (q, CSAMPLES (row)));
        for (int p = 0; p < RANK_ALL (rank); p++) {
          __constant float *h = coef + (2 * p + 1) * KSIZE;

          /* two chains per vector (even and odd taps): the FMA latency, not their number,
           * bounds a single chain (docs/kernels.md) */
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

        for (int p = 0; p < RANK_ALL (rank); p++) {
          __constant float *h = coef + (2 * p + 1) * KSIZE;
          float lanes[8 * NV];

          for (int l = 0; l < 8 * NV; l++) {
            int c = l % CHANNELS;
            float sum = 0.0f;

            for (int t = 0; t < KSIZE; t++) {
              int xx = xb + l / CHANNELS + t - RADIUS;

              if (BORDER == BORDER_CONSTANT && (xx < 0 || xx >= width))
                continue;
              xx = border_coord (xx, width SHAPE_ARGS);
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

        float8 a0[NV], a1[NV], first[NV];

#pragma unroll
        for (int v = 0; v < NV; v++)
          a0[v] = a1[v] = first[v] = (float8) (0.0f);
        for (int p = 0; p < RANK_ALL (rank); p++) {
          __constant float *vc = coef + 2 * p * KSIZE;

          /* -DCOMBINE: the first matrix's sums are complete, start the second's */
          if (PAIRED && p == RANK_A (rank)) {
#pragma unroll
            for (int v = 0; v < NV; v++) {
              first[v] = a0[v] + a1[v];
              a0[v] = a1[v] = (float8) (0.0f);
            }
          }

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
        {
          float w = CENTRE_W (coef, rank, RANK_ALL (rank));

          if (w != 0.0f)
#pragma unroll
            for (int v = 0; v < NV; v++) {
              float cl[8];

              /* (a border strip's pixels past the span are not read) */
              for (int l = 0; l < 8; l++)
                cl[l] = inside || xb + (8 * v + l) / CHANNELS < span ?
                    convert_float (centre[8 * v + l]) : 0.0f;
              a0[v] = fma ((float8) (w), vload8 (0, cl), a0[v]);
            }
        }
#pragma unroll
        for (int v = 0; v < NV; v++) {
          /* (a second matrix of zeros has no pairs) */
          float8 acc = !PAIRED ? COMBINED (a0[v] + a1[v], a0[v]) :
              RANK_A (rank) < RANK_ALL (rank) ? COMBINED (first[v], a0[v] + a1[v]) :
              COMBINED (a0[v] + a1[v], (float8) (0.0f)), res;

          if (inside) {
            put8 (acc, bias, passmask, centre, SAMPLES (out), v);
          } else {
            /* a border strip: the last pixels may lie past the plane's end, go sample by
             * sample */
            float c8[8], r8[8];

            for (int l = 0; l < 8; l++)
              c8[l] = xb + (8 * v + l) / CHANNELS < span ?
                  convert_float (centre[8 * v + l]) : 0.0f;
            res = select (ROUND_OUT (acc, bias), vload8 (0, c8), lane_pass (passmask, v));
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
