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

/* NaN -> 0, then round half away from zero, then clamp to 0..255. */
static unsigned char
saturate_u8 (double v)
{
  if (isnan (v))
    return 0;
  v = round (v);
  if (v < 0.0)
    return 0;
  if (v > 255.0)
    return 255;
  return (unsigned char) v;
}

/* table[p + t] = source index for output position p and kernel tap t (0..ksize-1), i.e. for
 * the coordinate p + t - r; -1 means outside the image with a constant border. */
static int *
build_map (int n, int ksize, RefBorder border)
{
  int r = ksize / 2;
  int len = n + ksize - 1;
  int *table = malloc (sizeof (int) * (size_t) len);
  int q;

  if (table == NULL)
    abort ();
  for (q = 0; q < len; q++)
    table[q] = map_coord (q - r, n, border);
  return table;
}

void
ref_convolve_u8 (const unsigned char *src, int src_stride, unsigned char *dst,
    int dst_stride, int width, int height, int channels, unsigned passmask,
    const double *k, int ksize, double divisor, double bias, RefBorder border)
{
  int *xmap, *ymap;
  int x, y, c, i, j;

  if (width < 1 || height < 1 || channels < 1 || ksize < 1)
    return;

  xmap = build_map (width, ksize, border);
  ymap = build_map (height, ksize, border);

  for (y = 0; y < height; y++) {
    const unsigned char *src_row = src + (size_t) y * src_stride;
    unsigned char *dst_row = dst + (size_t) y * dst_stride;

    for (x = 0; x < width; x++) {
      for (c = 0; c < channels; c++) {
        double sum = 0.0;

        if (c < 32 && (passmask & (1u << c)) != 0) {
          dst_row[x * channels + c] = src_row[x * channels + c];
          continue;
        }

        for (j = 0; j < ksize; j++) {
          int sy = ymap[y + j];

          for (i = 0; i < ksize; i++) {
            int sx = xmap[x + i];
            double value = 0.0;

            if (sx >= 0 && sy >= 0)
              value = src[(size_t) sy * src_stride + (size_t) sx * channels + c];
            sum += k[j * ksize + i] * value;
          }
        }

        dst_row[x * channels + c] = saturate_u8 (sum / divisor + bias);
      }
    }
  }

  free (xmap);
  free (ymap);
}

/* NaN -> 0, then round half away from zero, then clamp to 0..65535. */
static unsigned short
saturate_u16 (double v)
{
  if (isnan (v))
    return 0;
  v = round (v);
  if (v < 0.0)
    return 0;
  if (v > 65535.0)
    return 65535;
  return (unsigned short) v;
}

void
ref_convolve_u16 (const unsigned short *src, int src_stride, unsigned short *dst,
    int dst_stride, int width, int height, int channels, unsigned passmask,
    const double *k, int ksize, double divisor, double bias, RefBorder border)
{
  int *xmap, *ymap;
  int x, y, c, i, j;

  if (width < 1 || height < 1 || channels < 1 || ksize < 1)
    return;

  xmap = build_map (width, ksize, border);
  ymap = build_map (height, ksize, border);

  for (y = 0; y < height; y++) {
    const unsigned short *src_row = src + (size_t) y * src_stride;
    unsigned short *dst_row = dst + (size_t) y * dst_stride;

    for (x = 0; x < width; x++) {
      for (c = 0; c < channels; c++) {
        double sum = 0.0;

        if (c < 32 && (passmask & (1u << c)) != 0) {
          dst_row[x * channels + c] = src_row[x * channels + c];
          continue;
        }

        for (j = 0; j < ksize; j++) {
          int sy = ymap[y + j];

          for (i = 0; i < ksize; i++) {
            int sx = xmap[x + i];
            double value = 0.0;

            if (sx >= 0 && sy >= 0)
              value = src[(size_t) sy * src_stride + (size_t) sx * channels + c];
            sum += k[j * ksize + i] * value;
          }
        }

        dst_row[x * channels + c] = saturate_u16 (sum / divisor + bias);
      }
    }
  }

  free (xmap);
  free (ymap);
}
