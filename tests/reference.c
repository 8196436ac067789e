/* clconvolve: plain-C reference convolution for the tests
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Written for clarity, not speed: every output sample is the literal double-precision sum of
 * the definition in reference.h. The only shortcut is that the border mapping of each axis is
 * computed once into a lookup table instead of once per tap. */

#include "reference.h"

#include <math.h>
#include <stdlib.h>

/* Reflects v into 0..n-1 without repeating the edge sample ("dcb|abcd|cba"), one reflection
 * at a time, so that coordinates far outside (kernel wider than the image) bounce back and
 * forth between the two edges until they land inside. */
static int
mirror_coord (int v, int n)
{
  if (n == 1)
    return 0;

  while (v < 0 || v >= n) {
    if (v < 0)
      v = -v;                   /* reflect about 0:     -1 -> 1, -2 -> 2, ... */
    else
      v = 2 * (n - 1) - v;      /* reflect about n - 1:  n -> n - 2, ... */
  }
  /* Terminates for n >= 2: every pass either makes a negative v positive with the same
   * magnitude, or maps v >= n to 2(n-1) - v, whose magnitude is strictly smaller than v. */
  return v;
}

/* Maps coordinate v on an axis of length n to an in-image index, or -1 for "outside, value 0"
 * (constant border only). */
static int
map_coord (int v, int n, RefBorder border)
{
  int m;

  if (v >= 0 && v < n)
    return v;

  switch (border) {
    case REF_BORDER_CLAMP:
      return v < 0 ? 0 : n - 1;
    case REF_BORDER_MIRROR:
      return mirror_coord (v, n);
    case REF_BORDER_WRAP:
      m = v % n;                /* C's % truncates towards zero: fix negative remainders */
      if (m < 0)
        m += n;
      return m;
    case REF_BORDER_CONSTANT:
    default:
      return -1;
  }
}

/* NaN -> 0, then round half away from zero, then clamp to 0..maxval. */
static unsigned
saturate (double v, double maxval)
{
  if (isnan (v))
    return 0;
  v = round (v);
  if (v < 0.0)
    return 0;
  if (v > maxval)
    return (unsigned) maxval;
  return (unsigned) v;
}

/* table[p + t] = source index for output position p and kernel tap t (0..ksize-1), i.e. for
 * the coordinate p + t - r; -1 means outside the image with a constant border. */
static int *
build_map (int n, int ksize, RefBorder border)
{
  int r = ksize / 2;  /* the tap of index r is the centre */
  int len = n + ksize - 1;
  int *table = malloc (sizeof (int) * (size_t) len);
  int q;

  if (table == NULL)
    abort ();
  for (q = 0; q < len; q++)
    table[q] = map_coord (q - r, n, border);
  return table;
}

/* Sample i of an array of 8-bit (bytes 1) or 16-bit (bytes 2) samples. */
static unsigned
get (const void *samples, size_t i, int bytes)
{
  return bytes == 1 ? ((const unsigned char *) samples)[i] :
      ((const unsigned short *) samples)[i];
}

static void
put (void *samples, size_t i, int bytes, unsigned v)
{
  if (bytes == 1)
    ((unsigned char *) samples)[i] = (unsigned char) v;
  else
    ((unsigned short *) samples)[i] = (unsigned short) v;
}

/* Both depths: strides in samples, results saturated to 0..2^(8 bytes)-1; dst[b] (if not
 * NULL) gets the results at bias[b], b < nb. */
static void
convolve (const void *src, int src_stride, void *const *dst, int dst_stride, int width,
    int height, int channels, unsigned passmask, const double *k, const double *k2, int kw,
    int kh, double divisor, const double *bias, int nb, RefBorder border, RefCombine combine,
    int bytes)
{
  double maxval = bytes == 1 ? 255.0 : 65535.0;
  int *xmap, *ymap;
  int x, y, c, i, j, b;

  if (width < 1 || height < 1 || channels < 1 || kw < 1 || kh < 1)
    return;

  xmap = build_map (width, kw, border);
  ymap = build_map (height, kh, border);

  for (y = 0; y < height; y++) {
    size_t src_row = (size_t) y * src_stride, dst_row = (size_t) y * dst_stride;

    for (x = 0; x < width; x++) {
      for (c = 0; c < channels; c++) {
        size_t at = (size_t) x * channels + c;
        double sum = 0.0, sum2 = 0.0, v;

        if (c < 32 && (passmask & (1u << c)) != 0) {
          for (b = 0; b < nb; b++)
            if (dst[b])
              put (dst[b], dst_row + at, bytes, get (src, src_row + at, bytes));
          continue;
        }

        for (j = 0; j < kh; j++) {
          int sy = ymap[y + j];

          for (i = 0; i < kw; i++) {
            int sx = xmap[x + i];
            double value = 0.0;

            if (sx >= 0 && sy >= 0)
              value = get (src, (size_t) sy * src_stride + (size_t) sx * channels + c, bytes);
            sum += k[j * kw + i] * value;
            if (k2)
              sum2 += k2[j * kw + i] * value;
          }
        }

        switch (combine) {
          case REF_COMBINE_MAGNITUDE:
            v = sqrt (sum * sum + sum2 * sum2) / fabs (divisor);
            break;
          case REF_COMBINE_ABS:
            v = fabs (sum) / fabs (divisor);
            break;
          case REF_COMBINE_MAX:
            v = fmax (fabs (sum), fabs (sum2)) / fabs (divisor);
            break;
          case REF_COMBINE_NONE:
          default:
            v = sum / divisor;
            break;
        }
        for (b = 0; b < nb; b++)
          if (dst[b])
            put (dst[b], dst_row + at, bytes, saturate (v + bias[b], maxval));
      }
    }
  }

  free (xmap);
  free (ymap);
}

void
ref_convolve_u8 (const unsigned char *src, int src_stride, unsigned char *dst,
    int dst_stride, int width, int height, int channels, unsigned passmask,
    const double *k, int ksize, double divisor, double bias, RefBorder border)
{
  void *out[1] = { dst };

  convolve (src, src_stride, out, dst_stride, width, height, channels, passmask, k, NULL,
      ksize, ksize, divisor, &bias, 1, border, REF_COMBINE_NONE, 1);
}

void
ref_convolve_rect_u8 (const unsigned char *src, int src_stride, unsigned char *dst,
    int dst_stride, int width, int height, int channels, unsigned passmask,
    const double *k, int kw, int kh, double divisor, double bias, RefBorder border)
{
  void *out[1] = { dst };

  convolve (src, src_stride, out, dst_stride, width, height, channels, passmask, k, NULL, kw,
      kh, divisor, &bias, 1, border, REF_COMBINE_NONE, 1);
}

void
ref_convolve_u16 (const unsigned short *src, int src_stride, unsigned short *dst,
    int dst_stride, int width, int height, int channels, unsigned passmask,
    const double *k, int ksize, double divisor, double bias, RefBorder border)
{
  void *out[1] = { dst };

  convolve (src, src_stride, out, dst_stride, width, height, channels, passmask, k, NULL,
      ksize, ksize, divisor, &bias, 1, border, REF_COMBINE_NONE, 2);
}

void
ref_combine (const void *src, int src_stride, void *dst, int dst_stride, int width,
    int height, int bytes, const double *k, const double *k2, int ksize, double divisor,
    double bias, RefBorder border, RefCombine combine)
{
  void *out[1] = { dst };

  convolve (src, src_stride, out, dst_stride, width, height, 1, 0, k, k2, ksize, ksize,
      divisor, &bias, 1, border, combine, bytes);
}

void
ref_convolve_biases (const void *src, int src_stride, void *const dst[3], int dst_stride,
    int width, int height, int channels, unsigned passmask, const double *k, const double *k2,
    int kw, int kh, double divisor, const double bias[3], RefBorder border,
    RefCombine combine, int bytes)
{
  convolve (src, src_stride, dst, dst_stride, width, height, channels, passmask, k, k2, kw,
      kh, divisor, bias, 3, border, combine, bytes);
}
