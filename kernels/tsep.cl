/* clconvolve, method=separable on NVIDIA GPUs with tensor cores (compute capability 8.0 and
 * later), one kernel: convolve_tsep. A program is common.cl and this file.
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Build options (besides the common ones):
 *   -DTSEP_TW=w    work-groups w output columns wide (a multiple of 32)
 *   -DTSEP_SH=h    and h rows high (a multiple of 16)
 *   -DTSEP_NW=n    work-groups of n warps, 32 x n work-items
 *   -DTSEP_RGB     4-sample pixels whose fourth sample is copied: its sums are not taken
 *
 * Both passes are matrix products on the tensor cores (PTX mma.sync m16n8k16: f16 factors,
 * f32 sums), through inline PTX, which NVIDIA's OpenCL compiler passes on. One pass of KSIZE
 * taps over 16 outputs is the product of a 16 x 16T band matrix of coefficients (Toeplitz:
 * row m holds the taps from column m) with 16T inputs, T = blocks of 16 inputs the window
 * of 16 outputs spans. f16 holds 11 significant bits: 8-bit samples exactly, but a
 * coefficient or a horizontal sum only as a pair, hi + lo (hi its 11 leading bits, lo the
 * rest to 11 more). The horizontal pass takes two products (hi and lo coefficients), the
 * vertical three (hi x hi, hi x lo, lo x hi), which keeps the sums as close to the float
 * ones as the other variants' (docs/kernels.md, tsep).
 *
 * A work-group owns TSEP_TW columns and TSEP_SH rows and goes down them in blocks of 16 rows:
 * a block's input rows (with the halo columns) become f16 planes in local memory (ins), their
 * horizontal sums go to a ring of T blocks (ht, a plane's columns as rows, so that the vertical
 * pass reads pairs of rows as one word), and from the ring each 16 output rows take their
 * vertical sums. Rows and columns outside the plane map through the border rule (zeros for
 * constant); pixels from width to span are copied. coef: [vertical KSIZE, horizontal KSIZE]
 * of the one pair, then the centre weight where rank has RANK_CENTRE. */

#ifdef TSEP_TW
#define TS_T ((KSIZE + 14) / 16 + 1)
#define TS_NXT (TSEP_TW / 16)
#define TS_NU (TS_NXT + TS_T - 1)
#define TS_NT (32 * TSEP_NW)
/* words (two f16) per row of an ins plane and per column of ht: 4 more than a multiple of 8,
 * so that the 8 rows x 4 words a fragment loads fall in 32 different banks */
#define TS_IW (8 * TS_NU + 4)
#define TS_HW (8 * TS_T + 4)

/* the planes: the samples whose sums are taken */
#if defined (ONLY)
#define TS_NCH 1
#elif defined (TSEP_RGB) && CHANNELS == 4
#define TS_NCH 3
#else
#define TS_NCH CHANNELS
#endif

/* two floats as an f16 pair, lo in the low half */
inline uint
ts_pack (float lo, float hi)
{
  uint d;

  asm ("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r" (d) : "f" (hi), "f" (lo));
  return d;
}

/* c += A (16 x 16, registers a0..a3) x B (16 x 8, b0, b1), the fragment layouts of PTX */
#define TS_MMA(c, a0, a1, a2, a3, b0, b1) \
  asm volatile ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 " \
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" \
      : "+f" ((c)[0]), "+f" ((c)[1]), "+f" ((c)[2]), "+f" ((c)[3]) \
      : "r" (a0), "r" (a1), "r" (a2), "r" (a3), "r" (b0), "r" (b1))

/* x to its 11 leading significant bits (what f16 holds of it, below 65504) */
inline float
ts_hi (float x)
{
  return as_float ((as_uint (x) + 0x1000u) & 0xffffe000u);
}

inline float
ts_tap (__constant float *w, int i)
{
  return i >= 0 && i < KSIZE ? w[i] : 0.0f;
}

/* coefficient i's hi or lo part */
inline float
ts_part (__constant float *w, int i, int lo)
{
  float v = ts_tap (w, i);

  return lo ? v - ts_hi (v) : ts_hi (v);
}

/* the band fragment A_t[m][k] = w[16 t + k - m] of part lo; its fourth register equals its
 * first */
#define TS_BAND(a, w, t, lo) do { \
    int i_ = 16 * (t) + 2 * q - g; \
    (a)[0] = ts_pack (ts_part (w, i_, lo), ts_part (w, i_ + 1, lo)); \
    (a)[1] = ts_pack (ts_part (w, i_ - 8, lo), ts_part (w, i_ - 7, lo)); \
    (a)[2] = ts_pack (ts_part (w, i_ + 8, lo), ts_part (w, i_ + 9, lo)); \
  } while (0)

/* The sums' samples of a pixel (the planes' order) */
inline void
ts_samples (pix_t v, float *s)
{
#if defined (ONLY)
  s[0] = convert_float (PICK (v));
#else
  samp_t a[CHANNELS];

  STORE_PRIV (v, a);
#pragma unroll
  for (int c = 0; c < TS_NCH; c++)
    s[c] = convert_float (a[c]);
#endif
}

/* The pixel at (x, y) through the border rule; direct: inside the plane */
inline pix_t
ts_fetch (__global const uchar * src, int pitch, int width, int height, int x, int y,
    int direct, const int al SHAPE_PARAMS)
{
  if (direct)
    return READ_IF_AL (al, src + y * pitch + x * PIX_BYTES);
  return fetch_pix (src, pitch, width, height, x, y, al SHAPE_ARGS);
}

/* pairs of adjacent pixels a work-item converts of a block (16 rows of 16 TS_NU columns) */
#define TS_NI ((16 * 8 * TS_NU + TS_NT - 1) / TS_NT)

/* The work-item's pairs of a block's 16 input rows from yb, columns from xs, into p0, p1 (the
 * loads go out before the block before it is computed, and are waited for after); direct: all
 * inside the plane */
inline void
ts_fetch_block (pix_t * p0, pix_t * p1, int lid, int xs, int yb, __global const uchar * src,
    int pitch, int width, int height, int direct, const int al SHAPE_PARAMS)
{
#pragma unroll
  for (int i = 0; i < TS_NI; i++) {
    int it = lid + i * TS_NT, r = it / (8 * TS_NU), x = xs + 2 * (it % (8 * TS_NU));

    if (it < 16 * 8 * TS_NU) {
      p0[i] = ts_fetch (src, pitch, width, height, x, yb + r, direct, al SHAPE_ARGS);
      p1[i] = ts_fetch (src, pitch, width, height, x + 1, yb + r, direct, al SHAPE_ARGS);
    }
  }
}

/* ... as f16 pairs into ins */
inline void
ts_store_block (__local uint (*ins)[16][TS_IW], const pix_t * p0, const pix_t * p1, int lid)
{
#pragma unroll
  for (int i = 0; i < TS_NI; i++) {
    int it = lid + i * TS_NT, r = it / (8 * TS_NU), pc = it % (8 * TS_NU);
    float s0[TS_NCH], s1[TS_NCH];

    if (it < 16 * 8 * TS_NU) {
      ts_samples (p0[i], s0);
      ts_samples (p1[i], s1);
#pragma unroll
      for (int c = 0; c < TS_NCH; c++)
        ins[c][r][pc] = ts_pack (s0[c], s1[c]);
    }
  }
}

/* block b's pairs (input rows y0 - RADIUS + 16 b on) into p0, p1 */
#define TS_FETCH(b) do { \
    int yb_ = y0 - RADIUS + 16 * (b); \
    int direct_ = xin && yb_ >= 0 && yb_ + 16 <= height; \
    if (al) \
      ts_fetch_block (p0, p1, lid, x0 - RADIUS, yb_, src, src_pitch, width, height, direct_, 1 \
          SHAPE_ARGS); \
    else \
      ts_fetch_block (p0, p1, lid, x0 - RADIUS, yb_, src, src_pitch, width, height, direct_, 0 \
          SHAPE_ARGS); \
  } while (0)

__kernel __attribute__ ((reqd_work_group_size (32, TSEP_NW, 1)))
void
convolve_tsep (int row0, __global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, int rank, float bias, uint passmask SHAPE_PARAMS)
{
  __local uint ins[TS_NCH][16][TS_IW];
  /* the horizontal sums' hi and lo parts */
  __local uint ht[2][TS_NCH][TSEP_TW][TS_HW];
  int lane = get_local_id (0), warp = get_local_id (1), lid = warp * 32 + lane;
  int g = lane >> 2, q = lane & 3;
  int x0 = get_group_id (0) * TSEP_TW, y0 = row0 + (int) get_group_id (1) * TSEP_SH;
  int ye = min (y0 + TSEP_SH, height);
  __constant float *wv = coef, *wh = coef + KSIZE;
  float cw = CENTRE_W (coef, rank, 1);
  /* the coefficients' band fragments, hi and lo parts */
  uint ah[TS_T][3], al_[TS_T][3], avh[TS_T][3], avl[TS_T][3];
  /* the input columns of the work-group inside the plane: no column to map */
  int xin = x0 - RADIUS >= 0 && x0 - RADIUS + 16 * TS_NU <= width;
  /* whole pixels in one load */
  int al = WHOLE_PIX_IO && ((src_offset | src_pitch) & (PIX_BYTES - 1)) == 0;
  pix_t p0[TS_NI], p1[TS_NI];

  src += src_offset;
  dst += dst_offset;
#pragma unroll
  for (int t = 0; t < TS_T; t++) {
    TS_BAND (ah[t], wh, t, 0);
    TS_BAND (al_[t], wh, t, 1);
    TS_BAND (avh[t], wv, t, 0);
    TS_BAND (avl[t], wv, t, 1);
  }

  TS_FETCH (0);
#pragma unroll 1
  for (int b = 0; b < TSEP_SH / 16 + TS_T - 1; b++) {
    /* the output rows of this step (once the ring holds T blocks) */
    int yo = y0 + 16 * (b - TS_T + 1);

    if (yo >= ye)
      break;
    /* block b as f16 pairs of adjacent columns; the next block's loads go out */
    ts_store_block (ins, p0, p1, lid);
    barrier (CLK_LOCAL_MEM_FENCE);
    if (b + 1 < TSEP_SH / 16 + TS_T - 1)
      TS_FETCH (b + 1);

    /* horizontal: a warp takes 8 rows of a plane across the work-group's columns; each input
     * fragment serves every 16 outputs whose window it falls in */
    int slot = b % TS_T;

    for (int unit = warp; unit < TS_NCH * 2; unit += TSEP_NW) {
      int c = unit >> 1, n8 = unit & 1;
      /* the products of the hi and the lo coefficients apart, so that they do not wait on
       * each other */
      float acc[TS_NXT][4], acl[TS_NXT][4];

#pragma unroll
      for (int m = 0; m < TS_NXT; m++)
#pragma unroll
        for (int i = 0; i < 4; i++)
          acc[m][i] = acl[m][i] = 0.0f;
#pragma unroll
      for (int u = 0; u < TS_NU; u++) {
        uint b0 = ins[c][8 * n8 + g][8 * u + q], b1 = ins[c][8 * n8 + g][8 * u + 4 + q];

#pragma unroll
        for (int m = 0; m < TS_NXT; m++)
          if (u - m >= 0 && u - m < TS_T) {
            TS_MMA (acc[m], ah[u - m][0], ah[u - m][1], ah[u - m][2], ah[u - m][0], b0, b1);
            TS_MMA (acl[m], al_[u - m][0], al_[u - m][1], al_[u - m][2], al_[u - m][0], b0,
                b1);
          }
      }
#pragma unroll
      for (int m = 0; m < TS_NXT; m++)
#pragma unroll
        for (int h = 0; h < 2; h++) {
          float s0 = acc[m][2 * h] + acl[m][2 * h], s1 = acc[m][2 * h + 1] + acl[m][2 * h + 1];
          float h0 = ts_hi (s0), h1 = ts_hi (s1);
          int col = 16 * m + g + 8 * h, w = slot * 8 + 4 * n8 + q;

          ht[0][c][col][w] = ts_pack (h0, h1);
          ht[1][c][col][w] = ts_pack (s0 - h0, s1 - h1);
        }
    }
    /* (the next block's loads overwrite ins, and the vertical pass reads ht) */
    barrier (CLK_LOCAL_MEM_FENCE);
    if (b < TS_T - 1)
      continue;

    /* vertical: a warp takes 8 columns, every plane, output rows yo .. yo + 15 */
    for (int unit = warp; unit < TSEP_TW / 8; unit += TSEP_NW) {
      float acc[TS_NCH][4];

#pragma unroll
      for (int c = 0; c < TS_NCH; c++) {
        /* hi x hi, and the two small products apart */
        float a1[4] = { 0.0f, 0.0f, 0.0f, 0.0f }, a2[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
        float a3[4] = { 0.0f, 0.0f, 0.0f, 0.0f };

#pragma unroll
        for (int t = 0; t < TS_T; t++) {
          int s = (b - TS_T + 1 + t) % TS_T;
          __local uint *hh = ht[0][c][8 * unit + g] + s * 8, *hl = ht[1][c][8 * unit + g] + s * 8;
          uint bh0 = hh[q], bh1 = hh[4 + q], bl0 = hl[q], bl1 = hl[4 + q];

          TS_MMA (a1, avh[t][0], avh[t][1], avh[t][2], avh[t][0], bh0, bh1);
          TS_MMA (a2, avh[t][0], avh[t][1], avh[t][2], avh[t][0], bl0, bl1);
          TS_MMA (a3, avl[t][0], avl[t][1], avl[t][2], avl[t][0], bh0, bh1);
        }
#pragma unroll
        for (int i = 0; i < 4; i++)
          acc[c][i] = a1[i] + (a2[i] + a3[i]);
      }
#pragma unroll
      for (int h = 0; h < 2; h++) {
        int y = yo + g + 8 * h;

#pragma unroll
        for (int e = 0; e < 2; e++) {
          int x = x0 + 8 * unit + 2 * q + e;
          __global const uchar *in = src + y * src_pitch + x * PIX_BYTES;
          __global uchar *out = dst + y * dst_pitch + x * PIX_BYTES;

          if (y >= ye || x >= span)
            continue;
          pix_t centre = READ_IF_AL (al, in);

          if (x >= width) {
            write_pix (centre, out);
            continue;
          }
#if TS_NCH == 1
          sum_t sum = acc[0][2 * h + e];
#elif TS_NCH == 2
          sum_t sum = (float2) (acc[0][2 * h + e], acc[1][2 * h + e]);
#elif TS_NCH == 3 && CHANNELS == 3
          sum_t sum = (float3) (acc[0][2 * h + e], acc[1][2 * h + e], acc[2][2 * h + e]);
#elif TS_NCH == 3
          sum_t sum = (float4) (acc[0][2 * h + e], acc[1][2 * h + e], acc[2][2 * h + e], 0.0f);
#else
          sum_t sum = (float4) (acc[0][2 * h + e], acc[1][2 * h + e], acc[2][2 * h + e],
              acc[3][2 * h + e]);
#endif
          store (out, sum + cw * SUM_OF (centre), bias, centre, passmask);
        }
      }
    }
  }
}
#endif
