/* Probe (issue 41, s38): separable convolution on NVIDIA tensor cores through inline PTX
 * (mma.sync m16n8k16, f16 inputs, f32 sums). RGBA 8-bit, NCH planes filtered, the rest copied;
 * clamp border. A work-group owns TW output columns and SH rows, marching down in blocks of
 * 16 rows: each block's input rows are converted to f16 planes in local memory (Ins), their
 * horizontal sums go to a ring of T blocks (Ht, transposed: [plane][column][row]), and each
 * 16 output rows take their vertical sums out of the ring.
 * -DKSIZE -DNCH -DTW -DSH -DNW (warps) */
#define R (KSIZE / 2)
#define T ((KSIZE + 14) / 16 + 1)
#define NXT (TW / 16)
#define NU (NXT + T - 1)
#define IP (16 * NU + 8)
#define HP (16 * T + 8)
#define NT (NW * 32)

inline uint pk (float lo, float hi)
{
  uint d;
  asm ("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r" (d) : "f" (hi), "f" (lo));
  return d;
}

#define MMA(c, a0, a1, a2, a3, b0, b1) \
  asm volatile ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" \
      : "+f" (c[0]), "+f" (c[1]), "+f" (c[2]), "+f" (c[3]) \
      : "r" (a0), "r" (a1), "r" (a2), "r" (a3), "r" (b0), "r" (b1))

inline float wt (__constant float *w, int i)
{
  return i >= 0 && i < KSIZE ? w[i] : 0.0f;
}

__kernel __attribute__ ((reqd_work_group_size (NT, 1, 1)))
void tsep (__global const uint *src, __global uint *dst, int width, int height, int pitch,
    __constant float *coef)
{
  __local uint ins[NCH][16][IP / 2];
  __local uint ht[NCH][TW][HP / 2];
  int lid = get_local_id (0), warp = lid >> 5, lane = lid & 31, g = lane >> 2, q = lane & 3;
  int x0 = get_group_id (0) * TW, y0 = get_group_id (1) * SH;
  __constant float *wv = coef, *wh = coef + KSIZE;
  uint ah[T][3], av[T][3];

  /* the Toeplitz weight fragments: A_t[m][k] = w[16t + k - m]; the fourth register equals the
   * first */
#pragma unroll
  for (int t = 0; t < T; t++) {
    int i = 16 * t + 2 * q - g;
    ah[t][0] = pk (wt (wh, i), wt (wh, i + 1));
    ah[t][1] = pk (wt (wh, i - 8), wt (wh, i - 7));
    ah[t][2] = pk (wt (wh, i + 8), wt (wh, i + 9));
    av[t][0] = pk (wt (wv, i), wt (wv, i + 1));
    av[t][1] = pk (wt (wv, i - 8), wt (wv, i - 7));
    av[t][2] = pk (wt (wv, i + 8), wt (wv, i + 9));
  }

  for (int b = 0; b < SH / 16 + T - 1; b++) {
    /* block b: input rows y0 - R + 16b .. + 15 */
    for (int it = lid; it < 16 * 8 * NU; it += NT) {
      int row = it / (8 * NU), pc = it % (8 * NU);
      int yy = clamp (y0 - R + 16 * b + row, 0, height - 1);
      int xa = clamp (x0 - R + 2 * pc, 0, width - 1), xb = clamp (x0 - R + 2 * pc + 1, 0, width - 1);
      uint p0 = src[yy * pitch + xa], p1 = src[yy * pitch + xb];
#pragma unroll
      for (int c = 0; c < NCH; c++)
        ins[c][row][pc] = pk ((float) ((p0 >> (8 * c)) & 255), (float) ((p1 >> (8 * c)) & 255));
    }
    barrier (CLK_LOCAL_MEM_FENCE);
    /* horizontal: unit (plane, rows 8nt..8nt+7) over all x tiles */
    int slot = b % T;
    for (int unit = warp; unit < NCH * 2; unit += NW) {
      int c = unit >> 1, nt = unit & 1;
      float acc[NXT][4];
#pragma unroll
      for (int m = 0; m < NXT; m++)
        acc[m][0] = acc[m][1] = acc[m][2] = acc[m][3] = 0.0f;
#pragma unroll
      for (int u = 0; u < NU; u++) {
        uint b0 = ins[c][8 * nt + g][8 * u + q], b1 = ins[c][8 * nt + g][8 * u + 4 + q];
#pragma unroll
        for (int m = 0; m < NXT; m++)
          if (u - m >= 0 && u - m < T)
            MMA (acc[m], ah[u - m][0], ah[u - m][1], ah[u - m][2], ah[u - m][0], b0, b1);
      }
#pragma unroll
      for (int m = 0; m < NXT; m++) {
        ht[c][16 * m + g][slot * 8 + 4 * nt + q] = pk (acc[m][0], acc[m][1]);
        ht[c][16 * m + g + 8][slot * 8 + 4 * nt + q] = pk (acc[m][2], acc[m][3]);
      }
    }
    barrier (CLK_LOCAL_MEM_FENCE);
    if (b < T - 1)
      continue;
    /* vertical: output rows Y .. Y + 15 out of blocks b - T + 1 .. b; unit: 8 columns */
    int Y = y0 + 16 * (b - T + 1);
    for (int unit = warp; unit < TW / 8; unit += NW) {
      float acc[NCH][4];
#pragma unroll
      for (int c = 0; c < NCH; c++) {
        acc[c][0] = acc[c][1] = acc[c][2] = acc[c][3] = 0.0f;
#pragma unroll
        for (int t = 0; t < T; t++) {
          int s = (b - T + 1 + t) % T;
          uint b0 = ht[c][8 * unit + g][s * 8 + q], b1 = ht[c][8 * unit + g][s * 8 + 4 + q];
          MMA (acc[c], av[t][0], av[t][1], av[t][2], av[t][0], b0, b1);
        }
      }
      int x = x0 + 8 * unit + 2 * q;
#pragma unroll
      for (int h = 0; h < 2; h++) {
        int y = Y + g + 8 * h;
        if (y < height) {
#pragma unroll
          for (int e = 0; e < 2; e++)
            if (x + e < width) {
              uint o = src[y * pitch + x + e];
#pragma unroll
              for (int c = 0; c < NCH; c++) {
                uint v = (uint) clamp ((int) (acc[c][2 * h + e] + 0.5f), 0, 255);
                o = (o & ~(255u << (8 * c))) | (v << (8 * c));
              }
              dst[y * pitch + x + e] = o;
            }
        }
      }
    }
  }
}
