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
  CONV_PRESET_CUSTOM,
  CONV_PRESET_UNSHARP,          /* after CUSTOM: the enum's earlier values stay as they were */
  CONV_PRESET_SCHARR_X,
  CONV_PRESET_SCHARR_Y,
  CONV_PRESET_PREWITT_X,
  CONV_PRESET_PREWITT_Y
} ConvPreset;

/* sigma = 0.3 * ((size - 1) * 0.5 - 1) + 0.8, OpenCV's rule for getGaussianKernel */
double conv_gaussian_default_sigma (int size);

/* Fills out[size * size] with the preset's coefficients for odd size 1..CONV_MAX_SIZE.
 * sigma <= 0 selects conv_gaussian_default_sigma(), a sigma below CONV_MIN_SIGMA is raised to
 * it; angle in degrees, counter-clockwise from +x with image y pointing down.
 * CONV_PRESET_CUSTOM gives the identity (the element never asks for it). The gradients (sobel,
 * scharr, prewitt) are smoothing across times a derivative along their direction, the classic
 * 3x3 matrices at size 3. The formulas are in docs/kernels.md. */
void conv_preset_generate (ConvPreset preset, int size, double sigma, double angle_deg,
    double *out);

/* Unsharp masking as one matrix: out[size * size] = (1 + amount) identity - amount gaussian
 * (the gaussian preset of size and sigma, sum 1), so that convolving gives
 * in + amount (in - blurred in); the coefficients sum to 1. conv_preset_generate's
 * CONV_PRESET_UNSHARP is this with amount 1. */
void conv_unsharp_generate (int size, double sigma, double amount, double *out);

/* Parses a custom matrix: numbers (C locale) separated by commas, spaces, tabs, newlines or
 * semicolons, row-major. On success returns the side n of the square the element runs and
 * fills out[n * n] (out holds CONV_MAX_SIZE^2 doubles); on failure returns 0, leaves out
 * unspecified and writes a one-line reason naming the problem into err[errlen].
 *
 * The shape, w x h (each odd, at most CONV_MAX_SIZE; n = max (w, h)):
 * - one list (one line, no semicolon): an odd square count is n x n, as it always was; any
 *   other odd count is one row ("1 2 1" is 3 wide, 1 high);
 * - rows: a semicolon or a line end closes a row (empty rows and trailing breaks do not
 *   count); rows of one length L make an L x rows matrix ("1; 2; 1" is 1 wide, 3 high; "1 2 1
 *   2 4 2 1 2 1;" with its semicolon is a row of 9). Rows of different lengths are read as one
 *   list, so text that marked rows loosely still reads as the square it always did.
 * An even count is refused in both forms, so one coefficient missing from or added to a square
 * is still caught. A rectangular matrix comes out centred in the n x n square, zeros around
 * it: the convolution is the same, and every kernel runs it (the sparse ones skip the zeros).
 *
 * Decimal commas are refused, never guessed ("0,04 0,04 ..." would otherwise read as 0s and
 * 4s). Cut the text into words at spaces, tabs, newlines and semicolons (not at commas) and
 * drop the commas at each word's ends: a word that is then an optional sign, digits, one
 * comma and digits (an exponent may follow), such as "0,04", "-1,5" or "1,5e-3", is a decimal
 * comma, and the matrix is refused with a reason that says so. Text that uses commas as
 * separators consistently never has such a word: "0,-1,0; -1,5,-1; 0,-1,0", "1,2,1,2,4,2,1,2,1",
 * "1,2,1\n2,4,2\n1,2,1", "1, 2, 1; 2, 4, 2" and "1 2 1 2 4 2" are read as before; "1 2,1"
 * (a space, then a tight comma) is refused. A refused count, in a text with a comma between
 * two digits ("1,5,2,5"), gets the hint that commas separate coefficients. */
int conv_matrix_parse (const char *text, double *out, char *err, size_t errlen);

/* conv_matrix_parse, also giving the shape as written in *w, *h (either may be NULL). */
int conv_matrix_parse_shape (const char *text, double *out, int *w, int *h, char *err,
    size_t errlen);

/* Formats k[n * n] back into the matrix syntax (rows separated by "; "), for the property getter.
 * Returns a newly malloc'ed string. */
char *conv_matrix_format (const double *k, int n);

/* The same for the w x h matrix centred in k[n * n] (a row ends with "; ", so that it reads
 * back as a row). */
char *conv_matrix_format_shape (const double *k, int n, int w, int h);

/* The automatic divisor: the sum of the coefficients, or 1 where |sum| < 1e-9. */
double conv_auto_divisor (const double *k, int n);

/* The largest sample the element convolves (16-bit formats): the bound of conv_normalise. */
#define CONV_MAX_SAMPLE 65535.0

/* Divides k[n * n] by divisor (0: conv_auto_divisor (k, n)) and converts the result to float
 * into out[n * n], the coefficients the device uses: out[i] = (float) (k[i] / divisor). Returns
 * 1 when they are usable; otherwise 0 with a one-line reason naming the problem in err[errlen]
 * (out unspecified). Refused, checked in this order:
 * - a divisor that is not finite (given, or the automatic one: the sum of the coefficients
 *   overflows double);
 * - a quotient k[i] / divisor that is not finite or beyond FLT_MAX in magnitude (the first such
 *   coefficient is named);
 * - quotients whose magnitudes (as floats) sum to more than FLT_MAX / CONV_MAX_SAMPLE: the
 *   weighted sum of the largest samples would overflow float;
 * - quotients not all zero that all become 0 as floats (every coefficient underflows: the
 *   output would be constant). A matrix of zeros alone is accepted. */
int conv_normalise (const double *k, int n, double divisor, float *out, char *err,
    size_t errlen);

/* The non-zero coefficients of the device matrix f[n * n] (conv_normalise's output) as a tap
 * list, in row-major order: taps[t] = { dx, dy, the bits of f, 0 } with dx, dy in -r..r (the
 * coefficient's float bits, as the device reads them with as_float). Returns how many
 * coefficients are non-zero; taps is written only when that is at most max. */
typedef struct
{
  int dx, dy;
  unsigned int bits;
  unsigned int bits2;           /* conv_taps_pair's second matrix; 0 (0.0f) otherwise */
} ConvTap;

int conv_taps (const float *f, int n, ConvTap * taps, int max);

/* The same for two matrices of one side run in one pass (combine=magnitude): a tap wherever
 * either is non-zero, g's coefficient in bits2 (g NULL: conv_taps). */
int conv_taps_pair (const float *f, const float *g, int n, ConvTap * taps, int max);

/* Whether the device matrix f[n * n] is a box: n > 1 and every coefficient the same non-zero
 * value (running sums then compute it at any size for the same cost). */
int conv_is_box (const float *f, int n);

/* out[n * n] = the transpose of k[n * n] (the y-gradient of an x-gradient preset). */
void conv_transpose (const double *k, int n, double *out);

/* Splits the n x n matrix k into r pairs of a vertical and a horizontal vector,
 *   k[y*n+x] ~= sum_{i<r} vert[i*n+y] * horiz[i*n+x],
 * with the fewest pairs (truncated SVD, largest singular values first) for which the sum of
 * the absolute differences is at most limit. A convolution with k then equals r row passes,
 * each followed by a column pass, summed; over 8-bit samples their result differs from the
 * dense one by at most 255 * limit / |divisor| before rounding, so the caller picks limit for
 * the error it accepts. vert and horiz hold n*n doubles; r == n when no shorter split fits
 * (k of full numerical rank). The element's method=separable uses it. */
int conv_low_rank (const double *k, int n, double limit, double *vert, double *horiz);

/* The w for which k - w at the centre (n x n, n odd) is of rank 1 if any w makes it so (an
 * unsharp mask: 1 + amount less a gaussian), from the largest entry off the centre's row and
 * column; 0 when there is none (n == 1, or all zero there). The caller splits k - w at the
 * centre with conv_low_rank to see whether it saves pairs. */
double conv_centre_term (const double *k, int n);

#endif /* __CONV_KERNEL_H__ */
