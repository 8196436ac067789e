/* clconvolve: unit tests of the coefficient maths in gst/convkernel.h
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Every expected matrix here is computed independently from the written definitions
 * (r = n/2, offsets dx to the right and dy downward in -r..r, k row-major with
 * row = dy + r and column = dx + r), or written out literally for small n.
 *
 * Build: gcc -O2 -Wall -Igst tests/test_convkernel.c gst/convkernel.c \
 *          $(pkg-config --cflags --libs glib-2.0) -lm -o /tmp/tck
 *
 * Assertions are non-fatal so that one run lists every failing check; the exit status is
 * non-zero as soon as any check failed. */

#include <glib.h>

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "convkernel.h"

#define MAX_CELLS (CONV_MAX_SIZE * CONV_MAX_SIZE)
#define GUARD_CELLS 8
#define GUARD_VALUE (-12345.6789)
#define MAX_REPORTED 6

/* ------------------------------------------------------------------------------------------ */
/* helpers */

static const char *
preset_name (ConvPreset p)
{
  switch (p) {
    case CONV_PRESET_IDENTITY:
      return "identity";
    case CONV_PRESET_BOX:
      return "box";
    case CONV_PRESET_GAUSSIAN:
      return "gaussian";
    case CONV_PRESET_SHARPEN:
      return "sharpen";
    case CONV_PRESET_EMBOSS:
      return "emboss";
    case CONV_PRESET_EDGE:
      return "edge";
    case CONV_PRESET_SOBEL_X:
      return "sobel-x";
    case CONV_PRESET_SOBEL_Y:
      return "sobel-y";
    case CONV_PRESET_MOTIONBLUR:
      return "motionblur";
    case CONV_PRESET_CUSTOM:
      return "custom";
    case CONV_PRESET_UNSHARP:
      return "unsharp";
    case CONV_PRESET_SCHARR_X:
      return "scharr-x";
    case CONV_PRESET_SCHARR_Y:
      return "scharr-y";
    case CONV_PRESET_PREWITT_X:
      return "prewitt-x";
    case CONV_PRESET_PREWITT_Y:
      return "prewitt-y";
  }
  return "?";
}

/* Runs conv_preset_generate into a fresh buffer with guard cells after n*n and checks the
 * guard cells were left alone. Returns a g_malloc'ed array of n*n + GUARD_CELLS doubles. */
static double *
generate (ConvPreset p, int n, double sigma, double angle)
{
  double *k = g_new (double, n * n + GUARD_CELLS);
  int q;

  for (q = 0; q < n * n + GUARD_CELLS; q++)
    k[q] = GUARD_VALUE;
  conv_preset_generate (p, n, sigma, angle, k);
  for (q = n * n; q < n * n + GUARD_CELLS; q++) {
    if (k[q] != GUARD_VALUE) {
      g_test_message ("%s n=%d: wrote past out[n*n] (index %d)", preset_name (p), n, q);
      g_test_fail ();
      break;
    }
  }
  return k;
}

static double
max_abs (const double *k, int count)
{
  double m = 0.0;
  int q;

  for (q = 0; q < count; q++)
    if (fabs (k[q]) > m)
      m = fabs (k[q]);
  return m;
}

/* Compares got against want cell by cell with an absolute tolerance (NaN always mismatches),
 * reports the first few mismatches and marks the test failed. Returns TRUE when all match. */
static gboolean
check_matrix (const char *what, const double *got, const double *want, int n, double tol)
{
  int bad = 0;
  int j, i;

  for (j = 0; j < n; j++) {
    for (i = 0; i < n; i++) {
      double g = got[j * n + i], w = want[j * n + i];

      if (!(fabs (g - w) <= tol)) {
        if (bad < MAX_REPORTED)
          g_test_message ("%s: row %d col %d (dx=%d, dy=%d): got %.17g, want %.17g "
              "(diff %.3g, tol %.3g)", what, j, i, i - n / 2, j - n / 2, g, w, fabs (g - w), tol);
        bad++;
      }
    }
  }
  if (bad > 0) {
    g_test_message ("%s: %d of %d coefficients differ", what, bad, n * n);
    g_test_fail ();
  }
  return bad == 0;
}

/* Tolerance scaled to the magnitude of the expected matrix. */
static double
rel_tol (const double *want, int n, double rel)
{
  double m = max_abs (want, n * n);

  return rel * (m > 1.0 ? m : 1.0);
}

/* Binomial coefficient C(m, k) in double, 0 outside 0..m. */
static double
binom (int m, int k)
{
  double c = 1.0;
  int q;

  if (k < 0 || k > m)
    return 0.0;
  if (k > m - k)
    k = m - k;
  for (q = 1; q <= k; q++)
    c = c * (m - k + q) / q;
  return c;
}

/* ------------------------------------------------------------------------------------------ */
/* independent expected matrices, straight from the definitions */

static void
exp_identity (int n, double *k)
{
  int q;

  for (q = 0; q < n * n; q++)
    k[q] = 0.0;
  k[(n / 2) * n + n / 2] = 1.0;
}

static void
exp_box (int n, double *k)
{
  int q;

  for (q = 0; q < n * n; q++)
    k[q] = 1.0 / ((double) n * n);
}

static double
exp_default_sigma (int n)
{
  return 0.3 * ((n - 1) * 0.5 - 1.0) + 0.8;
}

static void
exp_gaussian (int n, double sigma, double *k)
{
  double g[CONV_MAX_SIZE];
  double total = 0.0;
  int r = n / 2;
  int i, j;

  if (sigma <= 0.0)
    sigma = exp_default_sigma (n);
  for (i = 0; i < n; i++)
    g[i] = exp (-(double) (i - r) * (i - r) / (2.0 * sigma * sigma));
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++) {
      k[j * n + i] = g[j] * g[i];
      total += k[j * n + i];
    }
  for (i = 0; i < n * n; i++)
    k[i] /= total;
}

static void
exp_sharpen (int n, double *k)
{
  int r = n / 2;
  int dx, dy;

  if (n == 1) {
    k[0] = 1.0;
    return;
  }
  for (dy = -r; dy <= r; dy++)
    for (dx = -r; dx <= r; dx++) {
      double v = 0.0;

      if (dx == 0 && dy == 0)
        v = 5.0;
      else if (dx == 0 || dy == 0)
        v = -1.0 / r;
      k[(dy + r) * n + dx + r] = v;
    }
}

static void
exp_edge (int n, double *k)
{
  int r = n / 2;
  int q;

  if (n == 1) {
    k[0] = 0.0;
    return;
  }
  for (q = 0; q < n * n; q++)
    k[q] = -8.0 / ((double) n * n - 1.0);
  k[r * n + r] = 8.0;
}

static void
exp_emboss (int n, double *k)
{
  int r = n / 2;
  double s = (double) n * r * (r + 1) * (2 * r + 1) / 3.0;
  int dx, dy;

  if (n == 1) {
    k[0] = 1.0;
    return;
  }
  for (dy = -r; dy <= r; dy++)
    for (dx = -r; dx <= r; dx++)
      k[(dy + r) * n + dx + r] = 6.0 * (dx + dy) / s;
  k[r * n + r] = 1.0;
}

static void
exp_sobel_x (int n, double *k)
{
  double s[CONV_MAX_SIZE], d[CONV_MAX_SIZE];
  double ssum = 0.0, moment = 0.0;
  int r = n / 2;
  int i, j;

  if (n == 1) {
    k[0] = 0.0;
    return;
  }
  for (j = 0; j < n; j++) {
    s[j] = binom (n - 1, j);
    ssum += s[j];
  }
  for (j = 0; j < n; j++)
    s[j] *= 4.0 / ssum;
  for (i = 0; i < n; i++) {
    d[i] = binom (n - 2, i - 1) - binom (n - 2, i);
    moment += d[i] * (i - r);
  }
  for (i = 0; i < n; i++)
    d[i] *= 2.0 / moment;
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++)
      k[j * n + i] = s[j] * d[i];
}

static void
exp_sobel_y (int n, double *k)
{
  double *t = g_new (double, n * n);
  int i, j;

  exp_sobel_x (n, t);
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++)
      k[j * n + i] = t[i * n + j];
  g_free (t);
}

/* --- motion blur: exact piecewise integration ---
 * f(t) = tent(dx - t*ux) * tent(dy - t*uy) is a product of two piecewise-linear functions of
 * t whose kinks sit where dx - t*ux or dy - t*uy is -1, 0 or 1. Between consecutive kinks f
 * is a polynomial of degree <= 2, on which Simpson's rule is exact, so summing Simpson over
 * the pieces gives the integral up to rounding. */

static double
tent (double v)
{
  double a = 1.0 - fabs (v);

  return a > 0.0 ? a : 0.0;
}

static double
mb_integrand (double t, double dx, double dy, double ux, double uy)
{
  return tent (dx - t * ux) * tent (dy - t * uy);
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : (x > y ? 1 : 0);
}

static double
mb_cell (int dx, int dy, double ux, double uy, double half)
{
  double pts[8];
  double total = 0.0;
  int np = 0;
  int c, q;

  pts[np++] = -half;
  pts[np++] = half;
  for (c = -1; c <= 1; c++) {
    if (ux != 0.0) {
      double t = (dx - c) / ux;

      if (t > -half && t < half)
        pts[np++] = t;
    }
    if (uy != 0.0) {
      double t = (dy - c) / uy;

      if (t > -half && t < half)
        pts[np++] = t;
    }
  }
  qsort (pts, np, sizeof (double), cmp_double);
  for (q = 0; q + 1 < np; q++) {
    double a = pts[q], b = pts[q + 1];

    if (b > a)
      total += (b - a) / 6.0 * (mb_integrand (a, dx, dy, ux, uy)
          + 4.0 * mb_integrand (0.5 * (a + b), dx, dy, ux, uy)
          + mb_integrand (b, dx, dy, ux, uy));
  }
  return total;
}

static void
exp_motionblur (int n, double angle_deg, double *k)
{
  double a = angle_deg * G_PI / 180.0;
  double ux = cos (a), uy = -sin (a);
  double total = 0.0;
  int r = n / 2;
  int dx, dy, q;

  if (n == 1) {
    k[0] = 1.0;
    return;
  }
  for (dy = -r; dy <= r; dy++)
    for (dx = -r; dx <= r; dx++) {
      double w = mb_cell (dx, dy, ux, uy, n / 2.0);

      k[(dy + r) * n + dx + r] = w;
      total += w;
    }
  for (q = 0; q < n * n; q++)
    k[q] /= total;
}

/* ------------------------------------------------------------------------------------------ */
/* preset tests */

static void
test_default_sigma (void)
{
  int n;

  g_assert_cmpfloat_with_epsilon (conv_gaussian_default_sigma (1), 0.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (conv_gaussian_default_sigma (3), 0.8, 1e-12);
  g_assert_cmpfloat_with_epsilon (conv_gaussian_default_sigma (5), 1.1, 1e-12);
  g_assert_cmpfloat_with_epsilon (conv_gaussian_default_sigma (7), 1.4, 1e-12);
  g_assert_cmpfloat_with_epsilon (conv_gaussian_default_sigma (9), 1.7, 1e-12);
  g_assert_cmpfloat_with_epsilon (conv_gaussian_default_sigma (63), 9.8, 1e-12);
  for (n = 1; n <= CONV_MAX_SIZE; n += 2)
    g_assert_cmpfloat_with_epsilon (conv_gaussian_default_sigma (n), exp_default_sigma (n),
        1e-12);
}

typedef void (*ExpFunc) (int n, double *k);

/* Checks one simple preset against its formula for every odd n, with a relative tolerance. */
static void
check_preset_all_sizes (ConvPreset p, ExpFunc expected)
{
  double want[MAX_CELLS];
  int n;

  for (n = 1; n <= CONV_MAX_SIZE; n += 2) {
    double *got = generate (p, n, 0.0, 0.0);
    gchar *what = g_strdup_printf ("%s n=%d", preset_name (p), n);

    expected (n, want);
    check_matrix (what, got, want, n, rel_tol (want, n, 1e-12));
    g_free (what);
    g_free (got);
  }
}

/* Checks a preset at one size against a literal matrix. */
static void
check_literal (ConvPreset p, int n, double sigma, double angle, const double *want, double tol)
{
  double *got = generate (p, n, sigma, angle);
  gchar *what = g_strdup_printf ("%s n=%d (literal)", preset_name (p), n);

  check_matrix (what, got, want, n, tol);
  g_free (what);
  g_free (got);
}

static void
test_identity (void)
{
  static const double id3[9] = { 0, 0, 0, 0, 1, 0, 0, 0, 0 };
  static const double one[1] = { 1 };

  check_literal (CONV_PRESET_IDENTITY, 1, 0, 0, one, 0.0);
  check_literal (CONV_PRESET_IDENTITY, 3, 0, 0, id3, 0.0);
  check_preset_all_sizes (CONV_PRESET_IDENTITY, exp_identity);
}

static void
test_custom_is_identity (void)
{
  static const double id3[9] = { 0, 0, 0, 0, 1, 0, 0, 0, 0 };
  double want[MAX_CELLS];
  int n;

  check_literal (CONV_PRESET_CUSTOM, 3, 0, 0, id3, 0.0);
  for (n = 1; n <= CONV_MAX_SIZE; n += 2) {
    double *got = generate (CONV_PRESET_CUSTOM, n, 0.0, 0.0);
    gchar *what = g_strdup_printf ("custom n=%d", n);

    exp_identity (n, want);
    check_matrix (what, got, want, n, 0.0);
    g_free (what);
    g_free (got);
  }
}

static void
test_box (void)
{
  static const double one[1] = { 1 };
  double b3[9];
  int q;

  for (q = 0; q < 9; q++)
    b3[q] = 1.0 / 9.0;
  check_literal (CONV_PRESET_BOX, 1, 0, 0, one, 1e-15);
  check_literal (CONV_PRESET_BOX, 3, 0, 0, b3, 1e-15);
  check_preset_all_sizes (CONV_PRESET_BOX, exp_box);
}

static void
test_gaussian (void)
{
  static const double sigmas[] = { 0.0, -1.0, -0.0, 0.05, 0.3, 0.8, 1.0, 1.7, 2.5, 5.0, 10.0,
    40.0
  };
  static const double one[1] = { 1 };
  double want[MAX_CELLS];
  double g3[9];
  double e = exp (-1.0 / (2.0 * 0.8 * 0.8));
  double tot = (1.0 + 2.0 * e) * (1.0 + 2.0 * e);
  guint si;
  int n;

  /* n = 3, default sigma 0.8: g = [e, 1, e], e = exp (-1 / 1.28), written out */
  g3[0] = g3[2] = g3[6] = g3[8] = e * e / tot;
  g3[1] = g3[3] = g3[5] = g3[7] = e / tot;
  g3[4] = 1.0 / tot;
  check_literal (CONV_PRESET_GAUSSIAN, 3, 0.0, 0.0, g3, 1e-14);
  check_literal (CONV_PRESET_GAUSSIAN, 3, 0.8, 0.0, g3, 1e-14);
  check_literal (CONV_PRESET_GAUSSIAN, 1, 0.0, 0.0, one, 1e-15);
  check_literal (CONV_PRESET_GAUSSIAN, 1, 3.0, 0.0, one, 1e-15);

  for (si = 0; si < G_N_ELEMENTS (sigmas); si++) {
    for (n = 1; n <= CONV_MAX_SIZE; n += 2) {
      double *got = generate (CONV_PRESET_GAUSSIAN, n, sigmas[si], 0.0);
      gchar *what = g_strdup_printf ("gaussian n=%d sigma=%g", n, sigmas[si]);

      exp_gaussian (n, sigmas[si], want);
      check_matrix (what, got, want, n, 1e-12);
      g_free (what);
      g_free (got);
    }
  }
}

static void
test_sharpen (void)
{
  static const double one[1] = { 1 };
  static const double s3[9] = { 0, -1, 0, -1, 5, -1, 0, -1, 0 };
  static const double s5[25] = {
    0, 0, -0.5, 0, 0,
    0, 0, -0.5, 0, 0,
    -0.5, -0.5, 5, -0.5, -0.5,
    0, 0, -0.5, 0, 0,
    0, 0, -0.5, 0, 0
  };

  check_literal (CONV_PRESET_SHARPEN, 1, 0, 0, one, 0.0);
  check_literal (CONV_PRESET_SHARPEN, 3, 0, 0, s3, 1e-15);
  check_literal (CONV_PRESET_SHARPEN, 5, 0, 0, s5, 1e-15);
  check_preset_all_sizes (CONV_PRESET_SHARPEN, exp_sharpen);
}

static void
test_edge (void)
{
  static const double zero[1] = { 0 };
  static const double e3[9] = { -1, -1, -1, -1, 8, -1, -1, -1, -1 };
  double e5[25];
  int q;

  for (q = 0; q < 25; q++)
    e5[q] = -1.0 / 3.0;
  e5[12] = 8.0;
  check_literal (CONV_PRESET_EDGE, 1, 0, 0, zero, 0.0);
  check_literal (CONV_PRESET_EDGE, 3, 0, 0, e3, 1e-15);
  check_literal (CONV_PRESET_EDGE, 5, 0, 0, e5, 1e-15);
  check_preset_all_sizes (CONV_PRESET_EDGE, exp_edge);
}

static void
test_emboss (void)
{
  static const double one[1] = { 1 };
  static const double m3[9] = { -2, -1, 0, -1, 1, 1, 0, 1, 2 };
  /* n = 5: r = 2, S = 5*2*3*5/3 = 50, cell = 0.12 * (dx + dy) */
  static const double m5[25] = {
    -0.48, -0.36, -0.24, -0.12, 0.00,
    -0.36, -0.24, -0.12, 0.00, 0.12,
    -0.24, -0.12, 1.00, 0.12, 0.24,
    -0.12, 0.00, 0.12, 0.24, 0.36,
    0.00, 0.12, 0.24, 0.36, 0.48
  };

  check_literal (CONV_PRESET_EMBOSS, 1, 0, 0, one, 0.0);
  check_literal (CONV_PRESET_EMBOSS, 3, 0, 0, m3, 1e-14);
  check_literal (CONV_PRESET_EMBOSS, 5, 0, 0, m5, 1e-14);
  check_preset_all_sizes (CONV_PRESET_EMBOSS, exp_emboss);
}

static void
test_sobel_x (void)
{
  static const double zero[1] = { 0 };
  static const double x3[9] = { -1, 0, 1, -2, 0, 2, -1, 0, 1 };
  /* n = 5, by hand: s = C(4,j) = [1 4 6 4 1] (sum 16) * 4/16 = [0.25 1 1.5 1 0.25];
   * d = C(3,i-1) - C(3,i) = [-1 -2 0 2 1], sum d[i]*(i-2) = 2+2+2+2 = 8, * 2/8
   * = [-0.25 -0.5 0 0.5 0.25]; k = s[j] * d[i]. */
  static const double x5[25] = {
    -0.0625, -0.125, 0, 0.125, 0.0625,
    -0.25, -0.5, 0, 0.5, 0.25,
    -0.375, -0.75, 0, 0.75, 0.375,
    -0.25, -0.5, 0, 0.5, 0.25,
    -0.0625, -0.125, 0, 0.125, 0.0625
  };

  check_literal (CONV_PRESET_SOBEL_X, 1, 0, 0, zero, 0.0);
  check_literal (CONV_PRESET_SOBEL_X, 3, 0, 0, x3, 1e-14);
  check_literal (CONV_PRESET_SOBEL_X, 5, 0, 0, x5, 1e-14);
  check_preset_all_sizes (CONV_PRESET_SOBEL_X, exp_sobel_x);
}

static void
test_sobel_y (void)
{
  static const double zero[1] = { 0 };
  static const double y3[9] = { -1, -2, -1, 0, 0, 0, 1, 2, 1 };
  int n;

  check_literal (CONV_PRESET_SOBEL_Y, 1, 0, 0, zero, 0.0);
  check_literal (CONV_PRESET_SOBEL_Y, 3, 0, 0, y3, 1e-14);
  check_preset_all_sizes (CONV_PRESET_SOBEL_Y, exp_sobel_y);

  /* and literally the transpose of what the implementation gives for sobel-x */
  for (n = 1; n <= CONV_MAX_SIZE; n += 2) {
    double *x = generate (CONV_PRESET_SOBEL_X, n, 0, 0);
    double *y = generate (CONV_PRESET_SOBEL_Y, n, 0, 0);
    double *xt = g_new (double, n * n);
    gchar *what = g_strdup_printf ("sobel-y vs transpose(sobel-x) n=%d", n);
    int i, j;

    for (j = 0; j < n; j++)
      for (i = 0; i < n; i++)
        xt[j * n + i] = x[i * n + j];
    check_matrix (what, y, xt, n, rel_tol (xt, n, 1e-13));
    g_free (what);
    g_free (xt);
    g_free (y);
    g_free (x);
  }
}

/* --- motion blur --- */

static const double mb_angles[] = { 0.0, 10.0, 15.0, 30.0, 45.0, 60.0, 77.7, 90.0, 120.0,
  135.0, 180.0, 200.0, 270.0, -30.0, -45.0, 333.3, 405.0
};

static void
test_motionblur_reference (void)
{
  static const double one[1] = { 1 };
  double want[MAX_CELLS];
  guint ai;
  int n;

  check_literal (CONV_PRESET_MOTIONBLUR, 1, 0.0, 0.0, one, 1e-12);
  check_literal (CONV_PRESET_MOTIONBLUR, 1, 0.0, 45.0, one, 1e-12);
  for (ai = 0; ai < G_N_ELEMENTS (mb_angles); ai++) {
    for (n = 1; n <= CONV_MAX_SIZE; n += 2) {
      double *got = generate (CONV_PRESET_MOTIONBLUR, n, 0.0, mb_angles[ai]);
      gchar *what = g_strdup_printf ("motionblur n=%d angle=%g", n, mb_angles[ai]);

      exp_motionblur (n, mb_angles[ai], want);
      check_matrix (what, got, want, n, 1e-4);
      g_free (what);
      g_free (got);
    }
  }
}

/* angle 0 / 90, n = 7: a single line proportional to [0.875 1 1 1 1 1 0.875]
 * (the ends of the segment t in [-3.5, 3.5] reach half-way into the outer cells:
 * integral of the tent over [-0.5, 1] = 0.875). */
static void
check_axis_line (double angle, gboolean horizontal)
{
  static const double prof[7] = { 0.875, 1, 1, 1, 1, 1, 0.875 };
  double want[49];
  double *got = generate (CONV_PRESET_MOTIONBLUR, 7, 0.0, angle);
  gchar *what = g_strdup_printf ("motionblur n=7 angle=%g (line)", angle);
  int i, j;

  for (j = 0; j < 7; j++)
    for (i = 0; i < 7; i++) {
      double v = 0.0;

      if (horizontal && j == 3)
        v = prof[i] / 6.75;
      if (!horizontal && i == 3)
        v = prof[j] / 6.75;
      want[j * 7 + i] = v;
    }
  check_matrix (what, got, want, 7, 1e-4);
  g_free (what);

  /* off the line: zero up to rounding (cos 90deg is not exactly 0 in double) */
  what = g_strdup_printf ("motionblur n=7 angle=%g (off-line cells)", angle);
  for (j = 0; j < 7; j++)
    for (i = 0; i < 7; i++)
      if ((horizontal && j != 3) || (!horizontal && i != 3))
        want[j * 7 + i] = 0.0;
      else
        want[j * 7 + i] = got[j * 7 + i];
  check_matrix (what, got, want, 7, 1e-12);
  g_free (what);
  g_free (got);
}

static void
test_motionblur_angle0 (void)
{
  check_axis_line (0.0, TRUE);
  check_axis_line (180.0, TRUE);
}

static void
test_motionblur_angle90 (void)
{
  check_axis_line (90.0, FALSE);
  check_axis_line (-90.0, FALSE);
}

#define CELL(k, n, dx, dy) ((k)[((dy) + (n) / 2) * (n) + (dx) + (n) / 2])

static void
test_motionblur_angle45 (void)
{
  int sizes[] = { 5, 7, 9, 15 };
  guint si;

  for (si = 0; si < G_N_ELEMENTS (sizes); si++) {
    int n = sizes[si];
    double *k = generate (CONV_PRESET_MOTIONBLUR, n, 0.0, 45.0);
    double *k225 = generate (CONV_PRESET_MOTIONBLUR, n, 0.0, 225.0);
    double *km45 = generate (CONV_PRESET_MOTIONBLUR, n, 0.0, -45.0);
    double up = CELL (k, n, 2, -2), down = CELL (k, n, 2, 2);
    double up1 = CELL (k, n, -1, 1), down1 = CELL (k, n, -1, -1);
    gchar *what;

    g_test_message ("motionblur n=%d angle=45: k(+2,-2)=%.6g k(+2,+2)=%.6g", n, up, down);
    /* up and to the right: (+2,-2) and (-1,+1) lie on the segment, (+2,+2) and (-1,-1) not */
    g_assert_cmpfloat (up, >, 0.01);
    g_assert_cmpfloat (up, >, 100.0 * fabs (down) + 1e-6);
    g_assert_cmpfloat (up1, >, 100.0 * fabs (down1) + 1e-6);
    /* and -45 is its mirror image: weight on the main diagonal */
    g_assert_cmpfloat (CELL (km45, n, 2, 2), >, 100.0 * fabs (CELL (km45, n, 2, -2)) + 1e-6);

    /* the same line traversed the other way */
    what = g_strdup_printf ("motionblur n=%d angle=225 vs 45", n);
    check_matrix (what, k225, k, n, 1e-6);
    g_free (what);

    g_free (km45);
    g_free (k225);
    g_free (k);
  }
}

static void
test_motionblur_symmetry (void)
{
  static const double angles[] = { 10.0, 30.0, 45.0, 77.7, 135.0, -20.0 };
  int sizes[] = { 3, 5, 7, 11, 21, 63 };
  guint ai, si;

  for (ai = 0; ai < G_N_ELEMENTS (angles); ai++)
    for (si = 0; si < G_N_ELEMENTS (sizes); si++) {
      int n = sizes[si];
      double *k = generate (CONV_PRESET_MOTIONBLUR, n, 0.0, angles[ai]);
      double *rot = g_new (double, n * n);
      gchar *what = g_strdup_printf ("motionblur n=%d angle=%g point symmetry", n, angles[ai]);
      int q;

      for (q = 0; q < n * n; q++)
        rot[q] = k[n * n - 1 - q];
      check_matrix (what, k, rot, n, 1e-6);
      g_free (what);
      g_free (rot);
      g_free (k);
    }
}

static void
test_motionblur_nonnegative (void)
{
  guint ai;
  int n;

  for (ai = 0; ai < G_N_ELEMENTS (mb_angles); ai++)
    for (n = 1; n <= CONV_MAX_SIZE; n += 2) {
      double *k = generate (CONV_PRESET_MOTIONBLUR, n, 0.0, mb_angles[ai]);
      int q;

      for (q = 0; q < n * n; q++) {
        if (!(k[q] >= 0.0)) {
          g_test_message ("motionblur n=%d angle=%g: k[%d] = %.17g < 0", n, mb_angles[ai], q,
              k[q]);
          g_test_fail ();
          break;
        }
      }
      g_free (k);
    }
}

/* --- every preset, every size: finite, and the documented sum --- */

static void
test_all_presets_sums (void)
{
  static const ConvPreset presets[] = { CONV_PRESET_IDENTITY, CONV_PRESET_BOX,
    CONV_PRESET_GAUSSIAN, CONV_PRESET_SHARPEN, CONV_PRESET_EMBOSS, CONV_PRESET_EDGE,
    CONV_PRESET_SOBEL_X, CONV_PRESET_SOBEL_Y, CONV_PRESET_MOTIONBLUR, CONV_PRESET_CUSTOM
  };
  static const double sigmas[] = { 0.0, -2.0, 0.05, 0.7, 3.0, 100.0 };
  static const double angles[] = { 0.0, 30.0, 45.0, 90.0, 137.5, -60.0, 1000.0 };
  guint pi, vi;
  int n;

  for (pi = 0; pi < G_N_ELEMENTS (presets); pi++) {
    ConvPreset p = presets[pi];
    double expect_sum = (p == CONV_PRESET_EDGE || p == CONV_PRESET_SOBEL_X
        || p == CONV_PRESET_SOBEL_Y) ? 0.0 : 1.0;
    guint nvar = p == CONV_PRESET_GAUSSIAN ? G_N_ELEMENTS (sigmas)
        : p == CONV_PRESET_MOTIONBLUR ? G_N_ELEMENTS (angles) : 1;

    for (vi = 0; vi < nvar; vi++) {
      double sigma = p == CONV_PRESET_GAUSSIAN ? sigmas[vi] : 0.0;
      double angle = p == CONV_PRESET_MOTIONBLUR ? angles[vi] : 0.0;

      for (n = 1; n <= CONV_MAX_SIZE; n += 2) {
        double *k = generate (p, n, sigma, angle);
        double sum = 0.0;
        int q, nonfinite = -1;

        for (q = 0; q < n * n; q++) {
          if (!isfinite (k[q]) && nonfinite < 0)
            nonfinite = q;
          sum += k[q];
        }
        if (nonfinite >= 0) {
          g_test_message ("%s n=%d sigma=%g angle=%g: k[%d] = %g is not finite",
              preset_name (p), n, sigma, angle, nonfinite, k[nonfinite]);
          g_test_fail ();
        } else if (!(fabs (sum - expect_sum) <= 1e-9)) {
          g_test_message ("%s n=%d sigma=%g angle=%g: sum %.17g, want %g", preset_name (p),
              n, sigma, angle, sum, expect_sum);
          g_test_fail ();
        }
        g_free (k);
      }
    }
  }
}

/* ------------------------------------------------------------------------------------------ */
/* automatic divisor */

static void
test_auto_divisor (void)
{
  static const double ones[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
  static const double binom3[9] = { 1, 2, 1, 2, 4, 2, 1, 2, 1 };
  static const double lap[9] = { 0, 1, 0, 1, -4, 1, 0, 1, 0 };
  static const double neg[9] = { 0, -1, 0, -1, -1, -1, 0, -1, 0 };
  static const double tiny_pos[1] = { 1e-10 };
  static const double tiny_neg[1] = { -5e-10 };
  static const double small[1] = { 2e-9 };
  static const double minus3[1] = { -3 };
  static const double half[1] = { 0.5 };
  /* sum 1e-10 spread over cells that cancel */
  static const double cancel[9] = { 1e6, -1e6, 0, 0, 1e-10, 0, 0, 0, 0 };
  double big[MAX_CELLS];
  double *k;
  int q;

  g_assert_cmpfloat_with_epsilon (conv_auto_divisor (ones, 3), 9.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (conv_auto_divisor (binom3, 3), 16.0, 1e-12);
  g_assert_cmpfloat (conv_auto_divisor (lap, 3), ==, 1.0);
  g_assert_cmpfloat_with_epsilon (conv_auto_divisor (neg, 3), -5.0, 1e-12);
  g_assert_cmpfloat (conv_auto_divisor (tiny_pos, 1), ==, 1.0);
  g_assert_cmpfloat (conv_auto_divisor (tiny_neg, 1), ==, 1.0);
  g_assert_cmpfloat_with_epsilon (conv_auto_divisor (small, 1), 2e-9, 1e-20);
  g_assert_cmpfloat (conv_auto_divisor (minus3, 1), ==, -3.0);
  g_assert_cmpfloat (conv_auto_divisor (half, 1), ==, 0.5);
  g_assert_cmpfloat (conv_auto_divisor (cancel, 3), ==, 1.0);

  for (q = 0; q < MAX_CELLS; q++)
    big[q] = 1.0;
  g_assert_cmpfloat_with_epsilon (conv_auto_divisor (big, CONV_MAX_SIZE), (double) MAX_CELLS,
      1e-9);

  /* presets: edge and sobel sum to 0 -> 1; the normalised ones to 1 */
  k = generate (CONV_PRESET_EDGE, 5, 0, 0);
  g_assert_cmpfloat (conv_auto_divisor (k, 5), ==, 1.0);
  g_free (k);
  k = generate (CONV_PRESET_SOBEL_X, 7, 0, 0);
  g_assert_cmpfloat (conv_auto_divisor (k, 7), ==, 1.0);
  g_free (k);
  k = generate (CONV_PRESET_GAUSSIAN, 9, 0, 0);
  g_assert_cmpfloat_with_epsilon (conv_auto_divisor (k, 9), 1.0, 1e-12);
  g_free (k);
}

/* ------------------------------------------------------------------------------------------ */
/* matrix parsing */

/* Parses text and checks it is accepted with side want_n and exactly the values want. */
static void
expect_parse (const char *label, const char *text, int want_n, const double *want)
{
  double *out = g_new (double, MAX_CELLS);
  char err[256] = "";
  int n = conv_matrix_parse (text, out, err, sizeof err);

  if (n != want_n) {
    g_test_message ("parse %s: returned %d, want %d (err \"%s\")", label, n, want_n, err);
    g_test_fail ();
  } else {
    int q, bad = 0;

    for (q = 0; q < n * n; q++) {
      if (memcmp (&out[q], &want[q], sizeof (double)) != 0 && !(out[q] == want[q])) {
        if (bad < MAX_REPORTED)
          g_test_message ("parse %s: value %d = %.17g, want %.17g", label, q, out[q], want[q]);
        bad++;
      }
    }
    if (bad > 0)
      g_test_fail ();
  }
  g_free (out);
}

/* Parses text and checks it is rejected with a non-empty one-line err; if token is not NULL
 * the message must contain it. */
static void
expect_reject (const char *label, const char *text, const char *token)
{
  double *out = g_new (double, MAX_CELLS);
  char err[256];
  int n;

  memset (err, 0, sizeof err);
  n = conv_matrix_parse (text, out, err, sizeof err);
  if (n != 0) {
    g_test_message ("parse %s: accepted (returned %d), want rejection", label, n);
    g_test_fail ();
  } else if (err[0] == '\0') {
    g_test_message ("parse %s: rejected but err is empty", label);
    g_test_fail ();
  } else {
    g_test_message ("parse %s: rejected: \"%s\"", label, err);
    if (strchr (err, '\n') != NULL) {
      g_test_message ("parse %s: err is not one line", label);
      g_test_fail ();
    }
    if (token != NULL && strstr (err, token) == NULL) {
      g_test_message ("parse %s: err does not name the token \"%s\"", label, token);
      g_test_fail ();
    }
  }
  g_free (out);
}

static const double m121[9] = { 1, 2, 1, 2, 4, 2, 1, 2, 1 };

static void
test_parse_accept (void)
{
  static const double seven[1] = { 7 };
  static const double neg[1] = { -1.5e-1 };
  static const double mixed[9] = { -1.5e-1, 2.5E+2, -3, 0.125, 1e-3, -7.25e0, 1E3, 0, 10 };

  expect_parse ("commas", "1,2,1, 2,4,2, 1,2,1", 3, m121);
  expect_parse ("spaces+semicolons", "1 2 1; 2 4 2; 1 2 1", 3, m121);
  expect_parse ("tabs+newlines", "1\t2\t1\n2\t4\t2\n1\t2\t1", 3, m121);
  expect_parse ("crlf-free newlines, trailing newline", "1 2 1\n2 4 2\n1 2 1\n", 3, m121);
  expect_parse ("leading/trailing separators", " ;,\n\t1 2 1;2 4 2;1 2 1 ;\t\n, ", 3, m121);
  expect_parse ("runs of separators", "1,,2 ; ;1\t\t2\n\n4;;2 , 1,2,1", 3, m121);
  expect_parse ("no spaces after semicolons", "1,2,1;2,4,2;1,2,1", 3, m121);
  expect_parse ("single", "7", 1, seven);
  expect_parse ("single padded", "  7 ;", 1, seven);
  expect_parse ("negative exponent", "-1.5e-1", 1, neg);
  expect_parse ("mixed numbers", "-1.5e-1, 2.5E+2, -3; 0.125 1e-3 -7.25e0; 1E3 0 10", 3,
      mixed);
}

static void
test_parse_exact_values (void)
{
  static const double v[9] = { 0.1, 0.2, 0.3, 3.14159265358979323846, -2.718281828459045,
    1.7976931348623157e308, 2.2250738585072014e-308, 123456789.123456789, -0.0
  };
  static const double w[25] = { 1e-300, 1e300, 0.333333333333333314829616256247,
    9007199254740993.0, 5e-308, 0.333333333333333333333, 0.666666666666666666666, 0.7, 1e22,
    1e23,
    4.35, 8.145, 0.000123, 65535.5, -65535.5, 1.5, 2.5, -0.5, 100, 1000,
    6.02214076e23, 1.602176634e-19, 299792458, 0.1e1, 12.5e-1
  };
  double *big = g_new (double, MAX_CELLS);
  GString *s = g_string_new (NULL);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  int q;

  expect_parse ("exact values",
      "0.1 0.2 0.3; 3.14159265358979323846 -2.718281828459045 1.7976931348623157e308;"
      " 2.2250738585072014e-308 123456789.123456789 -0.0", 3, v);
  expect_parse ("exact values 5x5",
      "1e-300 1e300 0.333333333333333314829616256247 9007199254740993.0 5e-308,"
      "0.333333333333333333333 0.666666666666666666666 0.7 1e22 1e23,"
      "4.35 8.145 0.000123 65535.5 -65535.5;1.5 2.5 -0.5 100 1000;"
      "6.02214076e23 1.602176634e-19 299792458 0.1e1 12.5e-1", 5, w);

  /* 63 x 63 distinct values, each written with 17 significant digits */
  for (q = 0; q < MAX_CELLS; q++) {
    big[q] = (q - 1984) * 0.001 + q * 1e-9;
    g_string_append (s, g_ascii_dtostr (buf, sizeof buf, big[q]));
    g_string_append_c (s, (q % CONV_MAX_SIZE == CONV_MAX_SIZE - 1) ? ';' : ',');
  }
  expect_parse ("63x63", s->str, CONV_MAX_SIZE, big);

  /* and 61 x 61 plain integers */
  g_string_truncate (s, 0);
  for (q = 0; q < 61 * 61; q++) {
    big[q] = q % 7 - 3;
    g_string_append_printf (s, "%d ", q % 7 - 3);
  }
  expect_parse ("61x61", s->str, 61, big);

  g_string_free (s, TRUE);
  g_free (big);
}

static gchar *
numbers (int count)
{
  GString *s = g_string_new (NULL);
  int q;

  for (q = 0; q < count; q++)
    g_string_append_printf (s, "%s%d", q ? ", " : "", q % 5);
  return g_string_free (s, FALSE);
}

static void
test_parse_reject (void)
{
  static const int bad_counts[] = { 2, 4, 8, 10, 16, 24, 26, 36, 48, 50, 3968, 3970 };
  guint ci;
  gchar *t;

  expect_reject ("empty", "", NULL);
  expect_reject ("spaces only", "   ", NULL);
  expect_reject ("separators only", " ,;\t\n ;; ,", NULL);
  expect_reject ("2x2", "1,2,3,4", NULL);
  expect_reject ("8 numbers", "1 2 3 4 5 6 7 8", NULL);
  expect_reject ("9+1 numbers", "1 2 1; 2 4 2; 1 2 1; 5", NULL);
  for (ci = 0; ci < G_N_ELEMENTS (bad_counts); ci++) {
    gchar *label = g_strdup_printf ("%d numbers", bad_counts[ci]);

    t = numbers (bad_counts[ci]);
    expect_reject (label, t, NULL);
    g_free (t);
    g_free (label);
  }
  t = numbers (65 * 65);
  expect_reject ("65x65 (n > 63)", t, NULL);
  g_free (t);
  t = numbers (67 * 67);
  expect_reject ("67x67 (n > 63)", t, NULL);
  g_free (t);

  expect_reject ("non-number x", "1,2,x,4,5,6,7,8,9", NULL);
  expect_reject ("non-number token named", "1,2,zork,4,5,6,7,8,9", "zork");
  expect_reject ("non-number alone", "hello", "hello");
  expect_reject ("trailing garbage in a number", "1,2,3,4,5,6,7,8,1.5q", NULL);
  expect_reject ("nan", "nan", NULL);
  expect_reject ("NAN in a matrix", "1,2,3,4,NAN,6,7,8,9", NULL);
  expect_reject ("nan(123)", "nan(123)", NULL);
  expect_reject ("inf", "inf", NULL);
  expect_reject ("-inf", "-inf", NULL);
  expect_reject ("Infinity", "Infinity", NULL);
  expect_reject ("inf in a matrix", "1,2,3,4,inf,6,7,8,9", NULL);
  expect_reject ("1e999", "1e999", NULL);
  expect_reject ("-1e999", "-1e999", NULL);
  expect_reject ("1e999 in a matrix", "1 2 3; 4 1e999 6; 7 8 9", NULL);
}

/* The grammar is "numbers separated by separators": two numbers glued together without a
 * separator form one token that is not a number (an strtod loop would read them as two). */
static void
test_parse_reject_glued (void)
{
  expect_reject ("1.2.3 glued", "1.2.3,2,3,4,5,6,7,8", NULL);
  expect_reject ("1-2 glued", "1-2,3,4,5,6,7,8,9", NULL);
  expect_reject ("1e5e5 glued", "1e5e5", NULL);
}

/* --- rectangular matrices: rows of one odd length, centred in the square the element runs --- */

/* Parses text, checks its shape w x h, and that the values come out centred in the square of
 * the longer side with zeros around them (the expectation built here, by hand). */
static void
expect_shape (const char *label, const char *text, int want_w, int want_h, const double *want)
{
  double *out = g_new (double, MAX_CELLS);
  char err[256] = "";
  int w = -1, h = -1, n = conv_matrix_parse_shape (text, out, &w, &h, err, sizeof err);
  int side = MAX (want_w, want_h);

  if (n != side || w != want_w || h != want_h) {
    g_test_message ("shape %s: got n=%d %dx%d, want n=%d %dx%d (err \"%s\")", label, n, w, h,
        side, want_w, want_h, err);
    g_test_fail ();
  } else {
    for (int y = 0; y < side; y++)
      for (int x = 0; x < side; x++) {
        int i = x - (side - want_w) / 2, j = y - (side - want_h) / 2;
        double e = i >= 0 && i < want_w && j >= 0 && j < want_h ? want[j * want_w + i] : 0.0;

        if (out[y * side + x] != e) {
          g_test_message ("shape %s: square cell (%d,%d) = %g, want %g", label, x, y,
              out[y * side + x], e);
          g_test_fail ();
          y = side;
          break;
        }
      }
  }
  g_free (out);
}

static void
test_parse_shape (void)
{
  static const double row3[3] = { 1, 2, 1 };
  static const double row9[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
  static const double r5x3[15] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
  static const double r1x5[5] = { -1, -2, 0, 2, 1 };
  gchar *t, *s;

  expect_shape ("one line of 3: a row", "1 2 1", 3, 1, row3);
  expect_shape ("one line of 3 with commas", "1,2,1", 3, 1, row3);
  expect_shape ("row with a semicolon", "1, 2, 1;", 3, 1, row3);
  expect_shape ("column by semicolons", "1; 2; 1", 1, 3, row3);
  expect_shape ("column by lines", "1\n2\n1\n", 1, 3, row3);
  expect_shape ("column 5", "-1;-2;0;2;1", 1, 5, r1x5);
  expect_shape ("3 rows of 5", "1 2 3 4 5; 6 7 8 9 10; 11 12 13 14 15", 5, 3, r5x3);
  expect_shape ("3 rows of 5, blank lines and a trailing break",
      "\n1,2,3,4,5\n\n6,7,8,9,10\n11,12,13,14,15;\n", 5, 3, r5x3);
  expect_shape ("5 rows of 3", "1 2 3; 4 5 6; 7 8 9; 10 11 12; 13 14 15", 3, 5, r5x3);
  /* an odd square count on one line stays square; a semicolon makes it one row */
  expect_shape ("9 on one line: 3x3", "1 2 3 4 5 6 7 8 9", 3, 3, row9);
  expect_shape ("9 on one line and a newline: 3x3", "1 2 3 4 5 6 7 8 9\n", 3, 3, row9);
  expect_shape ("9 and a semicolon: one row", "1 2 3 4 5 6 7 8 9;", 9, 1, row9);
  /* rows of several lengths with an odd square count: the square, as before rows existed */
  expect_shape ("loose rows of 9", "1 2 3 4\n5 6 7 8 9", 3, 3, row9);

  expect_reject ("2 rows of 3", "1 2 1; 2 4 2", "odd");
  expect_reject ("3 rows of 2", "1 2; 3 4; 5 6", "odd");
  expect_reject ("ragged rows", "1 2 3; 4 5 6; 7 8", "different lengths");
  expect_reject ("even row", "1 2 3 4;", NULL);
  t = numbers (65);
  s = g_strdup_printf ("%s;", t);
  expect_reject ("a row of 65", s, "at most 63");
  g_free (s);
  g_free (t);
  t = g_strnfill (65 * 2, ';');
  for (int i = 0; i < 65; i++)
    t[2 * i] = '1';
  expect_reject ("a column of 65", t, "at most 63");
  g_free (t);

  /* the shape's text reads back as the same shape */
  {
    static const struct
    {
      int w, h;
    } shapes[] = { {3, 1}, {1, 3}, {5, 3}, {3, 5}, {63, 1}, {1, 63}, {9, 1}, {1, 1} };

    for (guint q = 0; q < G_N_ELEMENTS (shapes); q++) {
      int w = shapes[q].w, h = shapes[q].h, n = MAX (w, h);
      double *k = g_new0 (double, n * n), *vals = g_new (double, w * h);
      char *f;
      gchar *label = g_strdup_printf ("format %dx%d", w, h);

      for (int i = 0; i < w * h; i++)
        vals[i] = i + 1;
      for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++)
          k[(j + (n - h) / 2) * n + i + (n - w) / 2] = vals[j * w + i];
      f = conv_matrix_format_shape (k, n, w, h);
      expect_shape (label, f, w, h, vals);
      free (f);
      g_free (label);
      g_free (vals);
      g_free (k);
    }
  }
}

/* --- decimal commas: refused with a reason that says so, never read as two numbers --- */

/* The reason conv_matrix_parse gives for text, g_strdup'ed; NULL (and a failure) if accepted. */
static gchar *
parse_reason (const char *label, const char *text)
{
  double *out = g_new (double, MAX_CELLS);
  char err[256] = "";
  int n = conv_matrix_parse (text, out, err, sizeof err);

  g_free (out);
  if (n != 0) {
    g_test_message ("parse %s: accepted as %dx%d, want rejection", label, n, n);
    g_test_fail ();
    return NULL;
  }
  g_test_message ("parse %s: rejected: \"%s\"", label, err);
  return g_strdup (err);
}

/* Rejected, and the reason names a decimal comma, quotes word and suggests fix. */
static void
expect_decimal_comma (const char *label, const char *text, const char *word, const char *fix)
{
  gchar *err = parse_reason (label, text);
  gchar *quoted = g_strdup_printf ("'%s'", word);
  gchar *fixed = g_strdup_printf ("(%s)", fix);

  if (err != NULL && (strstr (err, "decimal comma") == NULL || strstr (err, quoted) == NULL
          || strstr (err, fixed) == NULL || strchr (err, '\n') != NULL)) {
    g_test_message ("parse %s: want a one-line reason naming a decimal comma, %s and %s",
        label, quoted, fixed);
    g_test_fail ();
  }
  g_free (err);
  g_free (quoted);
  g_free (fixed);
}

/* Rejected for its count; hint: whether the reason must (or must not) say commas separate. */
static void
expect_count_reject (const char *label, const char *text, int count, gboolean hint)
{
  gchar *err = parse_reason (label, text);
  gchar *counted = g_strdup_printf ("%d coefficients", count);

  if (err != NULL) {
    if (strstr (err, counted) == NULL || strstr (err, "decimal comma") != NULL) {
      g_test_message ("parse %s: want the count reason (\"%s\")", label, counted);
      g_test_fail ();
    }
    if ((strstr (err, "commas separate coefficients") != NULL) != hint
        || (hint && strstr (err, "1.5") == NULL)) {
      g_test_message ("parse %s: the comma hint is %s", label, hint ? "missing" : "out of place");
      g_test_fail ();
    }
  }
  g_free (err);
  g_free (counted);
}

/* Text that uses commas as separators consistently: read as before. */
static void
decimal_comma_accepted (void)
{
  static const double sharpen[9] = { 0, -1, 0, -1, 5, -1, 0, -1, 0 };
  static const double m7[9] = { 1, 2, 1, 2, 4, 2, 1, 2, 0.5 };
  static const double cells[25] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
    17, 18, 19, 20, 21, 22, 23, 24, 25
  };

  /* commas as separators, however the rows are marked: every word has 0 or 2+ commas */
  expect_parse ("README sharpen", "0,-1,0; -1,5,-1; 0,-1,0", 3, sharpen);
  expect_parse ("tight commas only", "1,2,1,2,4,2,1,2,1", 3, m121);
  expect_parse ("tight commas, rows by newlines", "1,2,1\n2,4,2\n1,2,1", 3, m121);
  expect_parse ("tight commas, rows by spaces", "1,2,1 2,4,2 1,2,1", 3, m121);
  expect_parse ("tight commas, rows by tabs", "1,2,1\t2,4,2\t1,2,1", 3, m121);
  expect_parse ("comma-space, rows by semicolons", "1, 2, 1; 2, 4, 2; 1, 2, 1", 3, m121);
  expect_parse ("space-comma", "1 ,2 ,1 ,2 ,4 ,2 ,1 ,2 ,1", 3, m121);
  expect_parse ("spaces only", "1 2 1 2 4 2 1 2 1", 3, m121);
  expect_parse ("spaces and newlines", "1 2 1\n2 4 2\n1 2 1", 3, m121);
  /* a point next to a tight comma: a decimal comma has digits alone on its sides */
  expect_parse ("decimal points, tight commas", "1,2,1,2,4,2,1,2,0.5", 3, m7);
  expect_parse ("point and comma in one word", "1 2 1 2 4 2 1,2,0.5", 3, m7);
  expect_parse ("rows by tight commas, exponent before", "1 2 3 4 5e0,6 7 8 9 10e0,11 12 13 14 "
      "15e0,16 17 18 19 20e0,21 22 23 24 25", 5, cells);
}

/* The issue's matrix: 24 coefficients written 0,04 and one 0.04, separated by sep (25 values
 * with decimal commas, 49 numbers once the commas separate them). */
static gchar *
issue_matrix (const char *sep)
{
  GString *s = g_string_new (NULL);
  int q;

  for (q = 0; q < 25; q++)
    g_string_append_printf (s, "%s%s", q ? sep : "", q == 12 ? "0.04" : "0,04");
  return g_string_free (s, FALSE);
}

static void
test_parse_decimal_comma (void)
{
  gchar *t;

  decimal_comma_accepted ();

  /* the issue: read as a 7x7 of 0s and 4s before */
  t = issue_matrix (" ");
  expect_decimal_comma ("issue 7x7 (spaces)", t, "0,04", "0.04");
  g_free (t);
  t = issue_matrix ("\n");
  expect_decimal_comma ("issue 7x7 (newlines)", t, "0,04", "0.04");
  g_free (t);
  /* decimal commas separated by ", " or ";": as ambiguous, refused too */
  t = issue_matrix (", ");
  expect_decimal_comma ("issue 7x7 (comma-space)", t, "0,04", "0.04");
  g_free (t);
  t = issue_matrix (";");
  expect_decimal_comma ("issue 7x7 (semicolons)", t, "0,04", "0.04");
  g_free (t);

  /* the issue's second case: refused before with a count that did not mention the comma */
  expect_decimal_comma ("1,5 2,5 1,5", "1,5 2,5 1,5", "1,5", "1.5");
  expect_decimal_comma ("1,5;2,5;1,5", "1,5;2,5;1,5", "1,5", "1.5");
  expect_decimal_comma ("1,5, 2,5, 1,5", "1,5, 2,5, 1,5", "1,5", "1.5");
  expect_decimal_comma ("single 1,5", "1,5", "1,5", "1.5");
  expect_decimal_comma ("3x3 with two decimals", "0,5 1 0,5; 1 2 1; 0,5 1 0,5", "0,5", "0.5");
  expect_decimal_comma ("3x3 with one decimal, 9 numbers otherwise",
      "1 2 1 2 4 2 1 2 0,5", "0,5", "0.5");
  expect_decimal_comma ("signed", "1 2 1 2 -4,25 2 1 2 1", "-4,25", "-4.25");
  expect_decimal_comma ("plus sign", "+4,25", "+4,25", "+4.25");
  expect_decimal_comma ("exponent", "1,5e-3 2 3 4 5 6 7 8 9", "1,5e-3", "1.5e-3");
  expect_decimal_comma ("thousands-like", "1,000 2 3 4 5 6 7 8 9", "1,000", "1.000");
  expect_decimal_comma ("tab separated", "0,25\t0,5\t0,25", "0,25", "0.25");
  /* a space, then a tight comma: which was meant cannot be told, so refused (documented) */
  expect_decimal_comma ("inconsistent spacing", "1, 2,1; 2, 4,2; 1, 2,1", "2,1", "2.1");
  /* the first such word is named */
  expect_decimal_comma ("first named", "7 8 9 0,75 1,25", "0,75", "0.75");
}

static void
test_parse_decimal_comma_hint (void)
{
  /* a count error where a comma stands between digits: the reason says commas separate */
  expect_count_reject ("1,5,2,5,1,5", "1,5,2,5,1,5", 6, TRUE);
  expect_count_reject ("1,2,3,4", "1,2,3,4", 4, TRUE);
  expect_count_reject ("0,5,1,0,5 (rows of 3 decimals?)", "0,5,1,0,5; 1,2,1; 0,5,1,0,5", 13, TRUE);
  /* none there: no hint */
  expect_count_reject ("1 2 3 4", "1 2 3 4", 4, FALSE);
  expect_count_reject ("1, 2, 3, 4", "1, 2, 3, 4", 4, FALSE);
  expect_count_reject ("1.5,-2", "1.5,-2", 2, FALSE);
}

static void
test_parse_err_buffer (void)
{
  double *out = g_new (double, MAX_CELLS);
  char buf[64];
  int q, n;

  /* the reason must fit into errlen bytes, NUL-terminated, and nothing after them is touched */
  memset (buf, 'Z', sizeof buf);
  n = conv_matrix_parse ("1,2,zork,4,5,6,7,8,9", out, buf, 8);
  g_assert_cmpint (n, ==, 0);
  g_assert_nonnull (memchr (buf, '\0', 8));
  for (q = 8; q < (int) sizeof buf; q++)
    if (buf[q] != 'Z') {
      g_test_message ("conv_matrix_parse wrote err[%d] with errlen 8", q);
      g_test_fail ();
      break;
    }

  memset (buf, 'Z', sizeof buf);
  n = conv_matrix_parse ("", out, buf, 1);
  g_assert_cmpint (n, ==, 0);
  g_assert_cmpint (buf[0], ==, '\0');
  g_assert_cmpint (buf[1], ==, 'Z');
  g_free (out);
}

/* conv_normalise's checks (below), used here for its reasons under a comma locale */
static void expect_normalised (const char *label, const double *k, int n, double divisor);
static void expect_refused (const char *label, const double *k, int n, double divisor, ...);

static void
test_parse_locale (void)
{
  static const char *names[] = { "de_DE.UTF-8", "de_DE.utf8", "de_DE", "de_DE@euro",
    "fr_FR.UTF-8", "fr_FR.utf8", "fr_FR", "nl_NL.UTF-8", "es_ES.UTF-8", "it_IT.UTF-8",
    "pt_BR.UTF-8", "ru_RU.UTF-8", "de_AT.UTF-8", "de_CH.UTF-8", "sv_SE.UTF-8"
  };
  static const double half[1] = { 0.5 };
  static const double m[9] = { 0.25, 0.5, 0.25, 0.5, 1.5, 0.5, 0.25, 0.5, 0.25 };
  static const double kf[9] = { 0.1, -2.5, 1e-7, 3.75, 0.5, -0.125, 1234.5678, 0.3, 7 };
  gchar *saved = g_strdup (setlocale (LC_NUMERIC, NULL));
  const char *found = NULL;
  guint q;

  for (q = 0; q < G_N_ELEMENTS (names) && found == NULL; q++) {
    if (setlocale (LC_NUMERIC, names[q]) != NULL) {
      if (strcmp (localeconv ()->decimal_point, ",") == 0)
        found = names[q];
      else
        setlocale (LC_NUMERIC, saved);
    }
  }
  if (found == NULL) {
    setlocale (LC_NUMERIC, saved);
    g_free (saved);
    /* meson test generates de_DE.UTF-8 into LOCPATH: there its absence is a failure */
    if (g_getenv ("LOCPATH")) {
      g_test_message ("LOCPATH=%s holds no comma-decimal locale", g_getenv ("LOCPATH"));
      g_test_fail ();
    } else {
      g_test_skip ("no comma-decimal locale (run through meson test, which provides one)");
    }
    return;
  }
  g_test_message ("LC_NUMERIC = %s (decimal point ',')", found);

  expect_parse ("0.5 under a comma locale", "0.5", 1, half);
  expect_parse ("3x3 decimals under a comma locale",
      "0.25 0.5 0.25; 0.5 1.5 0.5; 0.25 0.5 0.25", 3, m);
  /* "1,5" is two numbers whatever the locale */
  expect_reject ("\"1,5\" under a comma locale", "1,5", NULL);

  /* "1,5" is refused as a decimal comma whatever the locale, the reasons use points */
  expect_decimal_comma ("\"0,5 1 0,5\" under a comma locale", "0,5 1 0,5", "0,5", "0.5");
  {
    double *box = generate (CONV_PRESET_BOX, 3, 0.0, 0.0);

    expect_refused ("box 3 / 1e-300 under a comma locale", box, 3, 1e-300, "(0.111111)",
        "1.11111e+299", NULL);
    expect_normalised ("box 3 under a comma locale", box, 3, 0.0);
    g_free (box);
  }

  /* format must not use the locale's decimal point either */
  {
    char *s = conv_matrix_format (kf, 3);

    g_assert_nonnull (s);
    if (s != NULL) {
      g_test_message ("format under comma locale: \"%s\"", s);
      expect_parse ("format+parse under a comma locale", s, 3, kf);
      setlocale (LC_NUMERIC, "C");
      expect_parse ("format (comma locale) + parse (C)", s, 3, kf);
      free (s);
    }
  }

  setlocale (LC_NUMERIC, saved);
  g_free (saved);
}

/* ------------------------------------------------------------------------------------------ */
/* format -> parse round trip */

static double
random_value (void)
{
  switch (g_test_rand_int_range (0, 5)) {
    case 0:
      return g_test_rand_double_range (-1.0, 1.0);
    case 1:
      return g_test_rand_double_range (-1000.0, 1000.0);
    case 2:
      /* any magnitude across the normal range */
      return ldexp (g_test_rand_double_range (0.5, 1.0), g_test_rand_int_range (-1000, 1000))
          * (g_test_rand_bit ()? -1.0 : 1.0);
    case 3:
      return (double) g_test_rand_int_range (-100, 101);
    default:
      return g_test_rand_int_range (-1000, 1001) / 10.0;
  }
}

static void
check_roundtrip (const char *label, const double *k, int n)
{
  double *out = g_new (double, MAX_CELLS);
  char err[256] = "";
  char *s = conv_matrix_format (k, n);
  int got_n, q, semis = 0, bad = 0;
  const char *p;

  if (s == NULL) {
    g_test_message ("format %s: returned NULL", label);
    g_test_fail ();
    g_free (out);
    return;
  }
  for (p = s; *p; p++)
    if (*p == ';')
      semis++;
  if (semis != n - 1) {
    g_test_message ("format %s n=%d: %d ';' row separators, want %d", label, n, semis, n - 1);
    g_test_fail ();
  }

  got_n = conv_matrix_parse (s, out, err, sizeof err);
  if (got_n != n) {
    g_test_message ("format %s: parse of the formatted text returned %d (want %d): %s",
        label, got_n, n, err);
    g_test_fail ();
  } else {
    for (q = 0; q < n * n; q++)
      if (memcmp (&out[q], &k[q], sizeof (double)) != 0) {
        if (bad < MAX_REPORTED)
          g_test_message ("format %s n=%d: value %d %.17g came back as %.17g", label, n, q,
              k[q], out[q]);
        bad++;
      }
    if (bad > 0)
      g_test_fail ();
  }
  free (s);
  g_free (out);
}

static void
test_format_roundtrip (void)
{
  static const int sizes[] = { 1, 3, 5, 7, 9, 15, 31, 63 };
  static const double special[9] = { 0.1, 1.0 / 3.0, DBL_MAX, -DBL_MAX, DBL_MIN, -DBL_MIN,
    1e-300, 0.0, 9007199254740993.0
  };
  double *k = g_new (double, MAX_CELLS);
  guint si;
  int rep, q;

  check_roundtrip ("m121", m121, 3);
  check_roundtrip ("special values", special, 3);
  for (si = 0; si < G_N_ELEMENTS (sizes); si++)
    for (rep = 0; rep < 5; rep++) {
      gchar *label = g_strdup_printf ("random n=%d rep=%d", sizes[si], rep);

      for (q = 0; q < sizes[si] * sizes[si]; q++)
        k[q] = random_value ();
      check_roundtrip (label, k, sizes[si]);
      g_free (label);
    }

  /* every preset's output round-trips too */
  for (q = CONV_PRESET_IDENTITY; q <= CONV_PRESET_MOTIONBLUR; q++) {
    double *p = generate ((ConvPreset) q, 7, 0.0, 30.0);

    check_roundtrip (preset_name ((ConvPreset) q), p, 7);
    g_free (p);
  }
  g_free (k);
}

/* ------------------------------------------------------------------------------------------ */
/* normalised float coefficients */

#define FLOAT_GUARD 1.25e-7f

/* conv_normalise into a buffer with guard cells; returns its result, the reason in err[256]
 * (checked to be one non-empty line when refused) and the floats in out. */
static int
normalise (const char *label, const double *k, int n, double divisor, float *out, char *err)
{
  int ret, q;

  for (q = 0; q < n * n + GUARD_CELLS; q++)
    out[q] = FLOAT_GUARD;
  err[0] = '\0';
  ret = conv_normalise (k, n, divisor, out, err, 256);
  for (q = n * n; q < n * n + GUARD_CELLS; q++)
    if (out[q] != FLOAT_GUARD) {
      g_test_message ("normalise %s: wrote past out[n*n] (index %d)", label, q);
      g_test_fail ();
      break;
    }
  if (ret == 0 && (err[0] == '\0' || strchr (err, '\n') != NULL)) {
    g_test_message ("normalise %s: refused with an empty or multi-line reason \"%s\"", label,
        err);
    g_test_fail ();
  }
  return ret;
}

/* Accepted, each out[i] exactly (float) (k[i] / divisor), the element's old arithmetic. */
static void
expect_normalised (const char *label, const double *k, int n, double divisor)
{
  float *out = g_new (float, MAX_CELLS + GUARD_CELLS);
  char err[256];
  double d = divisor != 0.0 ? divisor : conv_auto_divisor (k, n);
  int q, bad = 0;

  if (normalise (label, k, n, divisor, out, err) != 1) {
    g_test_message ("normalise %s (n=%d, divisor %g): refused: \"%s\"", label, n, divisor, err);
    g_test_fail ();
    g_free (out);
    return;
  }
  for (q = 0; q < n * n; q++) {
    float want = (float) (k[q] / d);

    if (memcmp (&out[q], &want, sizeof (float)) != 0) {
      if (bad < MAX_REPORTED)
        g_test_message ("normalise %s n=%d: out[%d] = %.9g, want %.9g", label, n, q, out[q],
            want);
      bad++;
    }
  }
  if (bad > 0)
    g_test_fail ();
  g_free (out);
}

/* Refused, and the reason holds each of the NULL-terminated words. */
static void
expect_refused (const char *label, const double *k, int n, double divisor, ...)
{
  float *out = g_new (float, MAX_CELLS + GUARD_CELLS);
  char err[256];
  const char *word;
  va_list ap;

  if (normalise (label, k, n, divisor, out, err) != 0) {
    g_test_message ("normalise %s: accepted, want refusal", label);
    g_test_fail ();
    g_free (out);
    return;
  }
  g_test_message ("normalise %s: refused: \"%s\"", label, err);
  va_start (ap, divisor);
  while ((word = va_arg (ap, const char *)) != NULL)
    if (strstr (err, word) == NULL) {
      g_test_message ("normalise %s: the reason does not say \"%s\"", label, word);
      g_test_fail ();
    }
  va_end (ap);
  g_free (out);
}

static void
fill_cells (double *k, int count, double v)
{
  int q;

  for (q = 0; q < count; q++)
    k[q] = v;
}

/* Every preset, every size, a few sigmas, angles and divisors: accepted, the same floats as the
 * element computed before. */
static void
test_normalise_presets (void)
{
  static const double sigmas[] = { 0.0, 0.05, 0.7, 3.0, 100.0 };
  static const double angles[] = { 0.0, 30.0, 45.0, 137.5 };
  static const double divisors[] = { 0.0, 1.0, -3.0, 0.5, 255.0, 1e-3 };
  ConvPreset p;
  guint vi, di;
  int n;

  for (p = CONV_PRESET_IDENTITY; p <= CONV_PRESET_CUSTOM; p++) {
    guint nvar = p == CONV_PRESET_GAUSSIAN ? G_N_ELEMENTS (sigmas)
        : p == CONV_PRESET_MOTIONBLUR ? G_N_ELEMENTS (angles) : 1;

    for (vi = 0; vi < nvar; vi++)
      for (n = 1; n <= CONV_MAX_SIZE; n += 2) {
        double *k = generate (p, n, p == CONV_PRESET_GAUSSIAN ? sigmas[vi] : 0.0,
            p == CONV_PRESET_MOTIONBLUR ? angles[vi] : 0.0);
        gchar *label = g_strdup_printf ("%s variant %u", preset_name (p), vi);

        for (di = 0; di < G_N_ELEMENTS (divisors); di++)
          expect_normalised (label, k, n, divisors[di]);
        g_free (label);
        g_free (k);
      }
  }
}

/* Custom matrices of ordinary values, and the extremes that still fit. */
static void
test_normalise_custom (void)
{
  static const double zeros[9] = { 0 };
  static const double cancel[9] = { 1e30, -1e30, 0, 0, 1, 0, 0, 0, 0 };
  static const double partial[9] = { 1, 1e-300, 0, 0, 1, 0, 0, 0, -1e-60 };
  static const double denormal[1] = { 1e-45 };
  double *k = g_new (double, MAX_CELLS);
  float *out = g_new (float, MAX_CELLS + GUARD_CELLS);
  char err[256];
  int rep, q;

  expect_normalised ("m121 auto", m121, 3, 0.0);
  expect_normalised ("m121 / 7", m121, 3, 7.0);
  for (rep = 0; rep < 20; rep++) {
    int n = 2 * g_test_rand_int_range (0, 32) + 1;

    for (q = 0; q < n * n; q++)
      k[q] = g_test_rand_double_range (-1000.0, 1000.0);
    expect_normalised ("random", k, n, 0.0);
    expect_normalised ("random / 3.5", k, n, 3.5);
  }
  /* all zeros: a constant (black) output is what was asked for */
  expect_normalised ("zeros auto", zeros, 3, 0.0);
  expect_normalised ("zeros / 1e-300", zeros, 3, 1e-300);
  g_assert_cmpint (normalise ("zeros", zeros, 3, 0.0, out, err), ==, 1);
  for (q = 0; q < 9; q++)
    g_assert_cmpfloat (out[q], ==, 0.0f);
  /* large coefficients that cancel (divisor 1), small ones that underflow beside others */
  expect_normalised ("cancelling 1e30", cancel, 3, 0.0);
  expect_normalised ("some underflow", partial, 3, 0.0);
  /* a float denormal is not 0 */
  expect_normalised ("1e-45 (float denormal)", denormal, 1, 0.0);
  /* the largest magnitudes allowed: 63x63 of 1e30 / 1e-3 */
  fill_cells (k, MAX_CELLS, 1e30);
  expect_normalised ("63x63 of 1e30", k, CONV_MAX_SIZE, 1e3);
  g_free (k);
  g_free (out);
}

/* The issue's cases: the automatic divisor overflows; a tiny divisor overflows float. */
static void
test_normalise_issue (void)
{
  double k[9], *box;

  fill_cells (k, 9, 1e308);
  expect_refused ("nine 1e308, automatic divisor", k, 3, 0.0, "sum of the coefficients",
      "automatic divisor", "overflows", "set divisor", NULL);
  fill_cells (k, 9, -1e308);
  expect_refused ("nine -1e308, automatic divisor", k, 3, 0.0, "automatic divisor",
      "overflows", NULL);
  /* with a divisor given the sum is not used; 1e308 / 1e300 = 1e8 is fine */
  fill_cells (k, 9, 1e308);
  expect_normalised ("nine 1e308 / 1e300", k, 3, 1e300);
  expect_refused ("nine 1e308 / 1", k, 3, 1.0, "coefficient 1 (1e+308)", "divisor 1",
      "overflows float", NULL);

  box = generate (CONV_PRESET_BOX, 3, 0.0, 0.0);
  expect_refused ("box 3, divisor 1e-300", box, 3, 1e-300, "coefficient 1 (0.111111)",
      "divisor 1e-300", "1.11111e+299", "overflows float", "larger divisor", NULL);
  g_free (box);
}

static void
test_normalise_boundaries (void)
{
  /* the largest sum of |coefficients| whose weighted sum of 65535s stays a float */
  const double limit = FLT_MAX / CONV_MAX_SAMPLE;
  double k[9], one[1];
  int q;

  /* a quotient up to FLT_MAX is a float, but the sum rule refuses it */
  one[0] = FLT_MAX;
  expect_refused ("FLT_MAX", one, 1, 1.0, "sum to", "overflows float", NULL);
  one[0] = -FLT_MAX;
  expect_refused ("-FLT_MAX", one, 1, 1.0, "sum to", "overflows float", NULL);
  /* just over: no float at all */
  one[0] = nextafter (FLT_MAX, INFINITY);
  expect_refused ("just over FLT_MAX", one, 1, 1.0, "coefficient 1", "overflows float", NULL);
  one[0] = 1.0;
  expect_refused ("1 / 1e-39", one, 1, 1e-39, "coefficient 1", "overflows float", NULL);
  expect_refused ("1 / -1e-39", one, 1, -1e-39, "coefficient 1", "overflows float", NULL);

  /* the sum rule (divisor 1: the automatic one would be the coefficient itself): one
   * coefficient just under and just over the limit */
  one[0] = limit * (1.0 - 1e-6);
  expect_normalised ("one coefficient just under the limit", one, 1, 1.0);
  one[0] = limit * (1.0 + 1e-6);
  expect_refused ("one coefficient just over the limit", one, 1, 1.0, "sum to",
      "samples up to 65535", "overflows float", NULL);
  /* nine that share it, the same with a divisor */
  fill_cells (k, 9, limit / 9.0 * (1.0 - 1e-6));
  expect_normalised ("nine just under the limit", k, 3, 1.0);
  fill_cells (k, 9, limit / 9.0 * (1.0 + 1e-6));
  expect_refused ("nine just over the limit", k, 3, 1.0, "sum to", "overflows float", NULL);
  fill_cells (k, 9, limit * 2.0 / 9.0 * (1.0 + 1e-6));
  expect_refused ("nine over the limit, divisor 2", k, 3, 2.0, "divisor 2", "sum to", NULL);
  /* magnitudes count, not the signed sum (0 here, so the automatic divisor is 1) */
  for (q = 0; q < 9; q++)
    k[q] = q == 4 ? 0.0 : (q % 2 ? 1.0 : -1.0) * limit / 8.0 * (1.0 + 1e-6);
  expect_refused ("signs cancel, magnitudes over", k, 3, 0.0, "sum to", NULL);
  for (q = 0; q < 9; q++)
    k[q] = q == 4 ? 0.0 : (q % 2 ? 1.0 : -1.0) * limit / 8.0 * (1.0 - 1e-6);
  expect_normalised ("signs cancel, magnitudes under", k, 3, 0.0);

  /* every coefficient underflows: refused; 1e-45 rounds to the smallest float denormal, 5e-46
   * below half of it to 0 */
  fill_cells (k, 9, 1e-300);
  expect_refused ("nine 1e-300", k, 3, 1.0, "underflows", "constant", NULL);
  fill_cells (k, 9, 5e-46);
  expect_refused ("nine 5e-46", k, 3, 1.0, "underflows", NULL);
  fill_cells (k, 9, 1.0);
  expect_refused ("nine 1 / 1e300", k, 3, 1e300, "underflows", "divisor 1e+300",
      "smaller divisor", NULL);
  fill_cells (k, 9, 1e-45);
  expect_normalised ("nine 1e-45", k, 3, 1.0);

  /* a divisor that is not finite */
  fill_cells (k, 9, 1.0);
  expect_refused ("divisor inf", k, 3, INFINITY, "divisor inf", "not finite", NULL);
  expect_refused ("divisor -inf", k, 3, -INFINITY, "not finite", NULL);
  expect_refused ("divisor nan", k, 3, NAN, "not finite", NULL);
}

static void
test_normalise_err_buffer (void)
{
  double k[9];
  float out[9];
  char buf[64];
  int q;

  /* the reason fits into errlen bytes, NUL-terminated, and nothing after them is touched */
  fill_cells (k, 9, 1e308);
  memset (buf, 'Z', sizeof buf);
  g_assert_cmpint (conv_normalise (k, 3, 0.0, out, buf, 8), ==, 0);
  g_assert_nonnull (memchr (buf, '\0', 8));
  /* the reason, cut to the 7 characters that fit */
  g_assert_cmpint (strlen (buf), ==, 7);
  for (q = 8; q < (int) sizeof buf; q++)
    if (buf[q] != 'Z') {
      g_test_message ("conv_normalise wrote err[%d] with errlen 8", q);
      g_test_fail ();
      break;
    }
  memset (buf, 'Z', sizeof buf);
  g_assert_cmpint (conv_normalise (k, 3, 1.0, out, buf, 1), ==, 0);
  g_assert_cmpint (buf[0], ==, '\0');
  g_assert_cmpint (buf[1], ==, 'Z');
}

/* ------------------------------------------------------------------------------------------ */

/* ------------------------------------------------------------------ low-rank split */

/* Sum of |k - sum_{i<r} vert_i horiz_i^T|, computed here from the returned vectors. */
static double
split_residual (const double *k, int n, const double *vert, const double *horiz, int r)
{
  double l1 = 0.0;

  for (int y = 0; y < n; y++)
    for (int x = 0; x < n; x++) {
      double v = k[y * n + x];

      for (int i = 0; i < r; i++)
        v -= vert[i * n + y] * horiz[i * n + x];
      l1 += fabs (v);
    }
  return l1;
}

static double
l1_norm (const double *k, int n)
{
  double l1 = 0.0;

  for (int i = 0; i < n * n; i++)
    l1 += fabs (k[i]);
  return l1;
}

/* The contract: the residual of the returned pairs is within limit, and one pair fewer is not
 * (the split is the shortest). Returns r. */
static int
check_split (const double *k, int n, double limit, const gchar * what)
{
  double *vert = g_new0 (double, n * n), *horiz = g_new0 (double, n * n);
  int r = conv_low_rank (k, n, limit, vert, horiz);

  g_assert_cmpint (r, >=, 0);
  g_assert_cmpint (r, <=, n);
  if (split_residual (k, n, vert, horiz, r) > limit && r < n)
    g_error ("%s: %d pairs leave %g > limit %g", what, r, split_residual (k, n, vert, horiz,
            r), limit);
  if (r > 0 && split_residual (k, n, vert, horiz, r - 1) <= limit)
    g_error ("%s: %d pairs returned but %d already within %g", what, r, r - 1, limit);
  g_free (vert);
  g_free (horiz);
  return r;
}

static void
test_low_rank_separable_presets (void)
{
  double *k = g_new (double, CONV_MAX_SIZE * CONV_MAX_SIZE);

  for (int n = 1; n <= CONV_MAX_SIZE; n += 2) {
    const ConvPreset rank1[] = { CONV_PRESET_GAUSSIAN, CONV_PRESET_BOX, CONV_PRESET_SOBEL_X,
      CONV_PRESET_SOBEL_Y
    };

    for (guint p = 0; p < G_N_ELEMENTS (rank1); p++) {
      gchar *what = g_strdup_printf ("preset %d size %d", rank1[p], n);

      conv_preset_generate (rank1[p], n, 0.0, 0.0, k);
      /* (sobel of size 1 is all zeros: nothing to split) */
      g_assert_cmpint (check_split (k, n, 1e-9 * l1_norm (k, n), what), ==,
          l1_norm (k, n) > 0.0 ? 1 : 0);
      g_free (what);
    }
    /* a horizontal motion blur is one row: rank 1 */
    conv_preset_generate (CONV_PRESET_MOTIONBLUR, n, 0.0, 0.0, k);
    g_assert_cmpint (check_split (k, n, 1e-9 * l1_norm (k, n), "motionblur 0"), ==, 1);
  }
  g_free (k);
}

static void
test_low_rank_constructed (void)
{
  GRand *rand = g_rand_new_with_seed (7);

  for (int n = 3; n <= 31; n += 4) {
    double *k = g_new0 (double, n * n);
    double a[64], b[64], c[64], d[64];

    for (int i = 0; i < n; i++) {
      a[i] = g_rand_double_range (rand, -1, 1);
      b[i] = g_rand_double_range (rand, -1, 1);
      c[i] = g_rand_double_range (rand, -1, 1);
      d[i] = g_rand_double_range (rand, -1, 1);
    }
    /* rank 2 by construction */
    for (int y = 0; y < n; y++)
      for (int x = 0; x < n; x++)
        k[y * n + x] = a[y] * b[x] + 0.5 * c[y] * d[x];
    g_assert_cmpint (check_split (k, n, 1e-9 * l1_norm (k, n), "rank 2"), ==, 2);
    /* full rank: every pair is needed for a tight limit, none for a loose one */
    for (int i = 0; i < n * n; i++)
      k[i] = g_rand_double_range (rand, -1, 1);
    g_assert_cmpint (check_split (k, n, 1e-10 * l1_norm (k, n), "random"), ==, n);
    g_assert_cmpint (check_split (k, n, l1_norm (k, n), "random, loose"), ==, 0);
    /* the number of pairs never falls as the limit tightens, and each answer is the shortest */
    for (int e = 0, last = 0; e <= 10; e++) {
      int r = check_split (k, n, l1_norm (k, n) * pow (10.0, -e), "random, limits");

      g_assert_cmpint (r, >=, last);
      last = r;
    }
    g_free (k);
  }
  g_rand_free (rand);
}

/* conv_centre_term: w such that k - w at the centre is rank 1, for matrices built as w delta
 * plus an outer product (unsharp, random ones, w 0), and 0 where nothing is off the centre's
 * row and column */
static void
test_centre_term (void)
{
  GRand *rand = g_rand_new_with_seed (77);
  double one = 3.0, cross[9] = { 0, 1, 0, 1, 4, 1, 0, 1, 0 }, *k = g_new (double, 31 * 31);

  for (int n = 3; n <= 31; n += 4)
    for (int trial = 0; trial < 3; trial++) {
      double u[31], v[31], w = trial == 2 ? 0.0 : g_rand_double_range (rand, -4.0, 4.0);

      for (int i = 0; i < n; i++) {
        u[i] = g_rand_double_range (rand, 0.1, 1.0);
        v[i] = g_rand_double_range (rand, -1.0, 1.0);
      }
      for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
          k[j * n + i] = u[j] * v[i] + (i == n / 2 && j == n / 2 ? w : 0.0);
      g_assert_cmpfloat_with_epsilon (conv_centre_term (k, n), w, 1e-9);
    }
  conv_unsharp_generate (15, 0.0, 2.0, k);
  g_assert_cmpfloat_with_epsilon (conv_centre_term (k, 15), 3.0, 1e-9);
  g_assert_cmpfloat (conv_centre_term (&one, 1), ==, 0.0);
  /* a cross: zero off the centre's row and column */
  g_assert_cmpfloat (conv_centre_term (cross, 3), ==, 0.0);
  g_free (k);
  g_rand_free (rand);
}

static void
test_low_rank_presets_contract (void)
{
  double *k = g_new (double, CONV_MAX_SIZE * CONV_MAX_SIZE);

  /* the other presets: whatever their rank, the answer keeps the contract at several limits */
  for (ConvPreset p = CONV_PRESET_IDENTITY; p < CONV_PRESET_CUSTOM; p++)
    for (int n = 1; n <= 15; n += 2) {
      conv_preset_generate (p, n, 0.0, 30.0, k);
      for (int e = 2; e <= 9; e += 3)
        check_split (k, n, l1_norm (k, n) * pow (10.0, -e), "preset");
    }
  g_free (k);
}

/* Unsharp masking: at size 3 with the default sigma 0.8 the gaussian's 1-D weights are
 * (e, 1, e) / (1 + 2 e), e = exp (-1 / 1.28); the matrix is (1 + amount) at the centre minus
 * amount times their products, sums to 1, and the preset is amount 1. Amount 0 is the
 * identity. */
static void
test_unsharp (void)
{
  double e = exp (-1.0 / (2.0 * 0.8 * 0.8)), w[3], k[9], p[9];
  const double amounts[] = { 0.0, 1.0, 2.5, -1.0 };

  w[0] = w[2] = e / (1.0 + 2.0 * e);
  w[1] = 1.0 / (1.0 + 2.0 * e);
  for (guint a = 0; a < G_N_ELEMENTS (amounts); a++) {
    double amount = amounts[a], sum = 0.0;

    conv_unsharp_generate (3, 0.0, amount, k);
    for (int i = 0; i < 9; i++) {
      double want = (i == 4 ? 1.0 + amount : 0.0) - amount * w[i / 3] * w[i % 3];

      g_assert_cmpfloat_with_epsilon (k[i], want, 1e-12);
      sum += k[i];
    }
    g_assert_cmpfloat_with_epsilon (sum, 1.0, 1e-12);
  }
  conv_unsharp_generate (3, 0.0, 1.0, k);
  conv_preset_generate (CONV_PRESET_UNSHARP, 3, 0.0, 0.0, p);
  for (int i = 0; i < 9; i++)
    g_assert_cmpfloat (k[i], ==, p[i]);
  /* size 1: the identity whatever the amount */
  conv_unsharp_generate (1, 0.0, 3.0, k);
  g_assert_cmpfloat_with_epsilon (k[0], 1.0, 1e-12);
}

/* The tap list: the non-zero coefficients in row-major order with their offsets from the
 * centre and their float bits, written only when they fit; negative zero counts as zero. */
static void
test_taps (void)
{
  const float f[9] = { 0.0f, -1.5f, 0.0f, 0.0f, 0.0f, 2.0f, 0.25f, -0.0f, 0.0f };
  const int expect[3][2] = { {0, -1}, {1, 0}, {-1, 1} };
  ConvTap taps[4], guard = { 7, 7, 7, 7 };
  float m[63 * 63] = { 0 };

  for (int i = 0; i < 4; i++)
    taps[i] = guard;
  g_assert_cmpint (conv_taps (f, 3, taps, 4), ==, 3);
  for (int t = 0; t < 3; t++) {
    float c;

    g_assert_cmpint (taps[t].dx, ==, expect[t][0]);
    g_assert_cmpint (taps[t].dy, ==, expect[t][1]);
    memcpy (&c, &taps[t].bits, sizeof (c));
    g_assert_cmpfloat (c, ==, f[(expect[t][1] + 1) * 3 + expect[t][0] + 1]);
    g_assert_cmpint (taps[t].bits2, ==, 0);
  }
  g_assert_cmpint (taps[3].dx, ==, 7);
  /* more than max: counted, nothing written */
  for (int i = 0; i < 4; i++)
    taps[i] = guard;
  g_assert_cmpint (conv_taps (f, 3, taps, 2), ==, 3);
  g_assert_cmpint (taps[0].dx, ==, 7);
  /* the corners of 63x63 */
  m[0] = 1.0f;
  m[63 * 63 - 1] = 2.0f;
  g_assert_cmpint (conv_taps (m, 63, taps, 4), ==, 2);
  g_assert_cmpint (taps[0].dx, ==, -31);
  g_assert_cmpint (taps[0].dy, ==, -31);
  g_assert_cmpint (taps[1].dx, ==, 31);
  g_assert_cmpint (taps[1].dy, ==, 31);
}

/* scharr and prewitt: the classic 3x3 matrices, 5x5 worked by hand, y the transpose of x */
static void
test_gradients (void)
{
  static const double scharr3[9] = { -3, 0, 3, -10, 0, 10, -3, 0, 3 };
  static const double prewitt3[9] = { -1, 0, 1, -1, 0, 1, -1, 0, 1 };
  /* scharr 5: smoothing [3 10 3] * [1 2 1] = [3 16 26 16 3] (sum 64) * 16/64 = [0.75 4 6.5 4
   * 0.75]; sobel 5's derivative [-0.25 -0.5 0 0.5 0.25] */
  static const double ss[5] = { 0.75, 4, 6.5, 4, 0.75 }, sd[5] = { -0.25, -0.5, 0, 0.5, 0.25 };
  /* prewitt 5: 3/5 each; ramp [-2 -1 0 1 2], moment 10, * 2/10 */
  static const double pd[5] = { -0.4, -0.2, 0, 0.2, 0.4 };
  double scharr5[25], prewitt5[25], t[25];
  const ConvPreset xs[] = { CONV_PRESET_SCHARR_X, CONV_PRESET_PREWITT_X, CONV_PRESET_SOBEL_X };

  for (int j = 0; j < 5; j++)
    for (int i = 0; i < 5; i++) {
      scharr5[j * 5 + i] = ss[j] * sd[i];
      prewitt5[j * 5 + i] = 0.6 * pd[i];
    }
  check_literal (CONV_PRESET_SCHARR_X, 3, 0, 0, scharr3, 1e-14);
  check_literal (CONV_PRESET_SCHARR_X, 5, 0, 0, scharr5, 1e-14);
  check_literal (CONV_PRESET_PREWITT_X, 3, 0, 0, prewitt3, 1e-14);
  check_literal (CONV_PRESET_PREWITT_X, 5, 0, 0, prewitt5, 1e-14);
  for (int j = 0; j < 5; j++)
    for (int i = 0; i < 5; i++)
      t[i * 5 + j] = scharr5[j * 5 + i];
  check_literal (CONV_PRESET_SCHARR_Y, 5, 0, 0, t, 1e-14);
  for (int j = 0; j < 5; j++)
    for (int i = 0; i < 5; i++)
      t[i * 5 + j] = prewitt5[j * 5 + i];
  check_literal (CONV_PRESET_PREWITT_Y, 5, 0, 0, t, 1e-14);
  /* every size: zero sum, and the y preset is the transpose of the x one */
  for (guint p = 0; p < G_N_ELEMENTS (xs); p++)
    for (int n = 3; n <= 31; n += 2) {
      /* each y preset follows its x one in the enum */
      double *x = generate (xs[p], n, 0, 0), *y = generate (xs[p] + 1, n, 0, 0);
      double *xt = g_new (double, n * n), sum = 0;

      conv_transpose (x, n, xt);
      for (int i = 0; i < n * n; i++) {
        sum += x[i];
        g_assert_cmpfloat (xt[i], ==, y[i]);
      }
      g_assert_cmpfloat (fabs (sum), <, 1e-9);
      g_free (x);
      g_free (y);
      g_free (xt);
    }
}

/* two matrices' taps: every place where either is non-zero, the second's coefficient in
 * bits2 */
static void
test_taps_pair (void)
{
  const float f[9] = { 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, -1.0f, 0.0f };
  const float g[9] = { 0.0f, 0.0f, 0.0f, 2.0f, 0.0f, -2.0f, 0.0f, 0.5f, 0.0f };
  const int expect[4][2] = { {0, -1}, {-1, 0}, {1, 0}, {0, 1} };
  const float want_f[4] = { 1.0f, 0.0f, 0.0f, -1.0f }, want_g[4] = { 0.0f, 2.0f, -2.0f, 0.5f };
  ConvTap taps[4];

  g_assert_cmpint (conv_taps_pair (f, g, 3, taps, 4), ==, 4);
  for (int t = 0; t < 4; t++) {
    float a, b;

    memcpy (&a, &taps[t].bits, sizeof (a));
    memcpy (&b, &taps[t].bits2, sizeof (b));
    g_assert_cmpint (taps[t].dx, ==, expect[t][0]);
    g_assert_cmpint (taps[t].dy, ==, expect[t][1]);
    g_assert_cmpfloat (a, ==, want_f[t]);
    g_assert_cmpfloat (b, ==, want_g[t]);
  }
  g_assert_cmpint (conv_taps_pair (f, g, 3, taps, 3), ==, 4);
}

/* A box: every coefficient the same non-zero value, side 2 or more. */
static void
test_is_box (void)
{
  float box[9] = { 0.25f, 0.25f, 0.25f, 0.25f, 0.25f, 0.25f, 0.25f, 0.25f, 0.25f };
  float zeros[9] = { 0 }, one = 1.0f;

  g_assert_true (conv_is_box (box, 3));
  g_assert_false (conv_is_box (zeros, 3));
  g_assert_false (conv_is_box (&one, 1));
  box[8] = 0.2500001f;
  g_assert_false (conv_is_box (box, 3));
  box[8] = 0.25f;
  box[0] = -0.25f;
  g_assert_false (conv_is_box (box, 3));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();

  g_test_add_func ("/convkernel/gaussian-default-sigma", test_default_sigma);
  g_test_add_func ("/convkernel/is-box", test_is_box);
  g_test_add_func ("/convkernel/preset/identity", test_identity);
  g_test_add_func ("/convkernel/preset/custom-is-identity", test_custom_is_identity);
  g_test_add_func ("/convkernel/preset/box", test_box);
  g_test_add_func ("/convkernel/preset/gaussian", test_gaussian);
  g_test_add_func ("/convkernel/preset/sharpen", test_sharpen);
  g_test_add_func ("/convkernel/preset/edge", test_edge);
  g_test_add_func ("/convkernel/preset/emboss", test_emboss);
  g_test_add_func ("/convkernel/preset/sobel-x", test_sobel_x);
  g_test_add_func ("/convkernel/preset/sobel-y", test_sobel_y);
  g_test_add_func ("/convkernel/preset/scharr-prewitt", test_gradients);
  g_test_add_func ("/convkernel/preset/motionblur/reference", test_motionblur_reference);
  g_test_add_func ("/convkernel/preset/motionblur/angle0", test_motionblur_angle0);
  g_test_add_func ("/convkernel/preset/motionblur/angle90", test_motionblur_angle90);
  g_test_add_func ("/convkernel/preset/motionblur/angle45", test_motionblur_angle45);
  g_test_add_func ("/convkernel/preset/motionblur/point-symmetry", test_motionblur_symmetry);
  g_test_add_func ("/convkernel/preset/motionblur/nonnegative", test_motionblur_nonnegative);
  g_test_add_func ("/convkernel/preset/all/finite-and-sums", test_all_presets_sums);
  g_test_add_func ("/convkernel/auto-divisor", test_auto_divisor);
  g_test_add_func ("/convkernel/parse/accept", test_parse_accept);
  g_test_add_func ("/convkernel/parse/exact-values", test_parse_exact_values);
  g_test_add_func ("/convkernel/parse/reject", test_parse_reject);
  g_test_add_func ("/convkernel/parse/reject-glued-numbers", test_parse_reject_glued);
  g_test_add_func ("/convkernel/parse/shape", test_parse_shape);
  g_test_add_func ("/convkernel/parse/decimal-comma", test_parse_decimal_comma);
  g_test_add_func ("/convkernel/parse/decimal-comma/count-hint", test_parse_decimal_comma_hint);
  g_test_add_func ("/convkernel/parse/err-buffer", test_parse_err_buffer);
  g_test_add_func ("/convkernel/parse/locale", test_parse_locale);
  g_test_add_func ("/convkernel/format/roundtrip", test_format_roundtrip);
  g_test_add_func ("/convkernel/normalise/presets", test_normalise_presets);
  g_test_add_func ("/convkernel/normalise/custom", test_normalise_custom);
  g_test_add_func ("/convkernel/normalise/issue", test_normalise_issue);
  g_test_add_func ("/convkernel/normalise/boundaries", test_normalise_boundaries);
  g_test_add_func ("/convkernel/normalise/err-buffer", test_normalise_err_buffer);
  g_test_add_func ("/convkernel/low-rank/separable-presets", test_low_rank_separable_presets);
  g_test_add_func ("/convkernel/low-rank/constructed", test_low_rank_constructed);
  g_test_add_func ("/convkernel/low-rank/presets-contract", test_low_rank_presets_contract);
  g_test_add_func ("/convkernel/low-rank/centre-term", test_centre_term);
  g_test_add_func ("/convkernel/taps", test_taps);
  g_test_add_func ("/convkernel/taps-pair", test_taps_pair);
  g_test_add_func ("/convkernel/unsharp", test_unsharp);

  return g_test_run ();
}
