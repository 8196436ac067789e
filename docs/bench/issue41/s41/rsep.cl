/* Probe (issue 41, s41): separable filtering down a strip in registers, no local memory, no
 * barrier. A work-item takes RSEP_PX adjacent pixels and RSEP_SY output rows: for each input
 * row of its window it takes the horizontal sums of its pixels (loads of neighbouring
 * work-items meet in the cache) into a ring of KSIZE rows held in registers, and from the
 * KSIZE-th row on each new row gives one output row (the vertical sums over the ring).
 * Arguments as convolve_lsep's. */
#ifndef RSEP_PX
#define RSEP_PX 1
#endif
#ifndef RSEP_SY
#define RSEP_SY 16
#endif
#if defined (RSEP_RGB) && CHANNELS == 4 && !defined (ONLY)
typedef float3 rsum_t;
#define RSEP_SUM(v) ((v).xyz)
#define RSEP_OUT(a) ((float4) ((a), 0.0f))
#else
typedef sum_t rsum_t;
#define RSEP_SUM(v) (v)
#define RSEP_OUT(a) (a)
#endif
#define RSEP_N (RSEP_PX + KSIZE - 1)

__kernel void
convolve_rsep (int row0, __global const uchar * src, int src_offset, int src_pitch,
    __global uchar * dst, int dst_offset, int dst_pitch, int width, int height, int span,
    __constant float *coef, int rank, float bias, uint passmask SHAPE_PARAMS)
{
  int x0 = get_global_id (0) * RSEP_PX;
  int ys = row0 + get_global_id (1) * RSEP_SY, ye = min (ys + RSEP_SY, height);
  int cols[RSEP_N];
  rsum_t ring[KSIZE][RSEP_PX];
  float hc[KSIZE], vc[KSIZE];

  if (x0 >= span || ys >= height)
    return;
#ifdef RSEP_V16
  /* RGBA 8-bit, 4 pixels a work-item: the window in 16-byte loads where it lies inside the
   * row and the rows are aligned to 16 bytes */
#define NC ((RADIUS + 3) / 4)
  int inner = x0 >= 4 * NC && x0 + 4 * (NC + 1) <= width &&
      ((src_offset | src_pitch) & 15) == 0;
#endif
  src += src_offset;
  dst += dst_offset;
#pragma unroll
  for (int t = 0; t < KSIZE; t++) {
    vc[t] = coef[t];
    hc[t] = coef[KSIZE + t];
  }
  /* the byte offsets of the window's columns, through the border rule (-1: a zero) */
#pragma unroll
  for (int i = 0; i < RSEP_N; i++) {
    int x = x0 - RADIUS + i;

    if (BORDER == BORDER_CONSTANT)
      cols[i] = x < 0 || x >= width ? -1 : x * PIX_BYTES;
    else
      cols[i] = border_coord (x, width SHAPE_ARGS) * PIX_BYTES;
  }
  for (int yy = ys - RADIUS, n = 0; yy < ye + RADIUS; yy++, n++) {
    rsum_t h[RSEP_PX];
    int yr = BORDER == BORDER_CONSTANT ? yy : border_coord (yy, height SHAPE_ARGS);

#pragma unroll
    for (int m = 0; m < RSEP_PX; m++)
      h[m] = (rsum_t) (0.0f);
    if (yr >= 0 && yr < height) {
      __global const uchar *row = src + yr * src_pitch;
      rsum_t s[RSEP_N];

#ifdef RSEP_V16
      if (inner) {
        /* NC 16-byte chunks either side of the work-item's 4 pixels: pixel i of the window
         * is word i + 4 NC - RADIUS of them */
        __global const uint4 *q = (__global const uint4 *) (row + (x0 - 4 * NC) * 4);

#pragma unroll
        for (int c = 0; c < 2 * NC + 1; c++) {
          uint4 w = q[c];
          uint ws[4] = { w.x, w.y, w.z, w.w };

#pragma unroll
          for (int k = 0; k < 4; k++) {
            int i = 4 * c + k - (4 * NC - RADIUS);

            if (i >= 0 && i < RSEP_N)
              s[i] = RSEP_SUM (convert_float4 (as_uchar4 (ws[k])));
          }
        }
      } else
#endif
#pragma unroll
      for (int i = 0; i < RSEP_N; i++)
        s[i] = BORDER == BORDER_CONSTANT && cols[i] < 0 ? (rsum_t) (0.0f) :
            RSEP_SUM (TO_ACC (READ_AL (row + cols[i])));
#pragma unroll
      for (int m = 0; m < RSEP_PX; m++)
#pragma unroll
        for (int t = 0; t < KSIZE; t++)
          h[m] += hc[t] * s[m + t];
    }
#pragma unroll
    for (int j = 0; j < KSIZE - 1; j++)
#pragma unroll
      for (int m = 0; m < RSEP_PX; m++)
        ring[j][m] = ring[j + 1][m];
#pragma unroll
    for (int m = 0; m < RSEP_PX; m++)
      ring[KSIZE - 1][m] = h[m];
    if (n >= KSIZE - 1) {
      int y = yy - RADIUS;
      __global const uchar *in = src + y * src_pitch;
      __global uchar *out = dst + y * dst_pitch;

#pragma unroll
      for (int m = 0; m < RSEP_PX; m++) {
        int x = x0 + m;
        rsum_t a = (rsum_t) (0.0f);

#pragma unroll
        for (int j = 0; j < KSIZE; j++)
          a += vc[j] * ring[j][m];
        if (x < span) {
          pix_t centre = READ_AL (in + x * PIX_BYTES);

          if (x < width)
            store (out + x * PIX_BYTES, RSEP_OUT (a), bias, centre, passmask);
          else
            write_pix (centre, out + x * PIX_BYTES);
        }
      }
    }
  }
}
