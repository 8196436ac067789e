/* the floor.c probe's box4r body behind the element's arguments (the harness's), 3x3 only */
#ifdef PROBE_A
/* A: the probe as it is (clamped uchar4 loads, vload4 of uint for the middle) */
#define MID(r, x) vload4 (0, (__global const uint *) ((r) + (x)))
#else
/* B: the middle as one aligned 16-byte load */
#define MID(r, x) (*(__global const uint4 *) ((r) + (x)))
#endif
__kernel void
convolve_probe (int row0, __global const uchar * src8, int src_offset, int src_pitch,
    __global uchar * dst8, int dst_offset, int dst_pitch, int w, int h, int span,
    __constant float *coef, float bias, uint passmask, int border)
{
  __global const uchar4 *s = (__global const uchar4 *) (src8 + src_offset);
  __global uchar4 *d = (__global uchar4 *) (dst8 + dst_offset);
  int x = get_global_id (0) * 4, y = get_global_id (1);
  if (x >= w || y >= h) return;
  float4 a[4] = {0.0f, 0.0f, 0.0f, 0.0f}, c4[4];
  for (int j = -1; j <= 1; j++) {
    __global const uchar4 *r = s + clamp (y + j, 0, h - 1) * w;
    float4 v[6];
    v[0] = convert_float4 (r[max (x - 1, 0)]);
    uint4 m = MID (r, x);
    v[1] = convert_float4 (as_uchar4 (m.x)); v[2] = convert_float4 (as_uchar4 (m.y));
    v[3] = convert_float4 (as_uchar4 (m.z)); v[4] = convert_float4 (as_uchar4 (m.w));
    v[5] = convert_float4 (r[min (x + 4, w - 1)]);
    if (j == 0) for (int k = 0; k < 4; k++) c4[k] = v[k + 1];
    for (int k = 0; k < 4; k++)
      for (int i = 0; i < 3; i++) a[k] += coef[(j + 1) * 3 + i] * v[k + i];
  }
  uint4 o;
#define OUT_R(a, c) as_uint (convert_uchar4_sat (select (clamp (round (a + bias), 0.0f, 255.0f), c, (int4) (0, 0, 0, -1))))
  o.x = OUT_R (a[0], c4[0]); o.y = OUT_R (a[1], c4[1]); o.z = OUT_R (a[2], c4[2]); o.w = OUT_R (a[3], c4[3]);
  vstore4 (o, 0, (__global uint *) (d + y * w + x));
}
