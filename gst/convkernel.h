/* clconvolve: coefficient maths (presets, custom matrices, divisor)
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Plain C, no GStreamer and no OpenCL: the part a reader checks first.
 * Every matrix is row-major, side n odd, row 0 at the top of the image, column 0 at the left;
 * the element computes out(x,y) = sum_{j,i} k[j*n+i] * in(x+i-r, y+j-r), r = n/2
 * (correlation, kernel centred, as OpenCV filter2D and FFmpeg do). */

#ifndef __CONV_KERNEL_H__
#define __CONV_KERNEL_H__

#include <stddef.h>

#define CONV_MAX_SIZE 63
#define CONV_MIN_SIGMA 1e-3             /* smaller gaussian sigmas are raised to this */

typedef enum
{
  CONV_PRESET_IDENTITY,
  CONV_PRESET_BOX,
  CONV_PRESET_GAUSSIAN,
  CONV_PRESET_SHARPEN,
  CONV_PRESET_EMBOSS,
  CONV_PRESET_EDGE,
  CONV_PRESET_SOBEL_X,
  CONV_PRESET_SOBEL_Y,
  CONV_PRESET_MOTIONBLUR,
  CONV_PRESET_CUSTOM
} ConvPreset;

/* sigma = 0.3 * ((size - 1) * 0.5 - 1) + 0.8, OpenCV's rule for getGaussianKernel */
double conv_gaussian_default_sigma (int size);

/* Fills out[size * size] with the preset's coefficients for odd size 1..CONV_MAX_SIZE.
 * sigma <= 0 selects conv_gaussian_default_sigma(), a sigma below CONV_MIN_SIGMA is raised to
 * it; angle in degrees, counter-clockwise from +x
 * with image y pointing down. CONV_PRESET_CUSTOM gives the identity (the element never asks for it).
 * The formulas are in docs/kernels.md. */
void conv_preset_generate (ConvPreset preset, int size, double sigma, double angle_deg,
    double *out);

/* Parses a custom matrix: numbers (C locale) separated by commas, spaces, tabs, newlines or
 * semicolons. On success returns the side n (count = n * n, n odd, n <= CONV_MAX_SIZE) and
 * fills out[n * n] (out holds CONV_MAX_SIZE^2 doubles). On failure returns 0, leaves out
 * unspecified and writes a one-line reason naming the problem into err[errlen]. */
int conv_matrix_parse (const char *text, double *out, char *err, size_t errlen);

/* Formats k[n * n] back into the matrix syntax (rows separated by "; "), for the property getter.
 * Returns a newly malloc'ed string. */
char *conv_matrix_format (const double *k, int n);

/* The automatic divisor: the sum of the coefficients, or 1 where |sum| < 1e-9. */
double conv_auto_divisor (const double *k, int n);

/* Splits the n x n matrix k into r pairs of a vertical and a horizontal vector,
 *   k[y*n+x] ~= sum_{i<r} vert[i*n+y] * horiz[i*n+x],
 * with the fewest pairs (truncated SVD, largest singular values first) for which the sum of
 * the absolute differences is at most limit. A convolution with k then equals r row passes,
 * each followed by a column pass, summed; over 8-bit samples their result differs from the
 * dense one by at most 255 * limit / |divisor| before rounding, so the caller picks limit for
 * the error it accepts. vert and horiz hold n*n doubles; r == n when no shorter split fits
 * (k of full numerical rank). The element's method=separable uses it. */
int conv_low_rank (const double *k, int n, double limit, double *vert, double *horiz);

#endif /* __CONV_KERNEL_H__ */
