/* clconvolve: coefficient maths (presets, custom matrices, divisor)
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "convkernel.h"

#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Samples per unit of line length in the motion-blur integral (midpoint rule). */
#define MOTION_SAMPLES_PER_PIXEL 256

double
conv_gaussian_default_sigma (int size)
{
  return 0.3 * ((size - 1) * 0.5 - 1.0) + 0.8;
}

static void
fill (double *out, int n, double v)
{
  for (int i = 0; i < n * n; i++)
    out[i] = v;
}

static void
scale (double *v, int len, double target_sum)
{
  double sum = 0.0;

  for (int i = 0; i < len; i++)
    sum += v[i];
  for (int i = 0; i < len; i++)
    v[i] *= target_sum / sum;
}

static void
outer (const double *col, const double *row, int n, double *out)
{
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      out[j * n + i] = col[j] * row[i];
}

static double
binomial (int m, int k)
{
  double c = 1.0;

  if (k < 0 || k > m)
    return 0.0;
  for (int i = 1; i <= k; i++)
    c = c * (m - k + i) / i;
  return c;
}

/* Binomial smoothing (sum 4) and binomial derivative (unit-ramp response 2): the classic
 * [1 2 1] and [-1 0 1] at n = 3, the same ramp response at every size. */
static void
sobel_factors (int n, double *smooth, double *deriv)
{
  int r = n / 2;
  double moment = 0.0;

  for (int i = 0; i < n; i++) {
    smooth[i] = binomial (n - 1, i);
    deriv[i] = binomial (n - 2, i - 1) - binomial (n - 2, i);
    moment += deriv[i] * (i - r);
  }
  scale (smooth, n, 4.0);
  for (int i = 0; i < n; i++)
    deriv[i] *= 2.0 / moment;
}

static double
tent (double v)
{
  v = fabs (v);
  return v < 1.0 ? 1.0 - v : 0.0;
}

/* A line of length n through the centre, splatted bilinearly (anti-aliased) into the window. */
static void
motion_line (int n, double angle_deg, double *out)
{
  int r = n / 2;
  double a = angle_deg * G_PI / 180.0;
  double ux = cos (a), uy = -sin (a);
  int samples = MOTION_SAMPLES_PER_PIXEL * n;
  double dt = (double) n / samples;

  fill (out, n, 0.0);
  for (int s = 0; s < samples; s++) {
    double t = -0.5 * n + (s + 0.5) * dt;
    double px = t * ux, py = t * uy;
    int x0 = (int) floor (px), y0 = (int) floor (py);

    for (int dy = y0; dy <= y0 + 1; dy++) {
      for (int dx = x0; dx <= x0 + 1; dx++) {
        if (dx < -r || dx > r || dy < -r || dy > r)
          continue;
        out[(dy + r) * n + dx + r] += tent (px - dx) * tent (py - dy) * dt;
      }
    }
  }
  scale (out, n * n, 1.0);
}

void
conv_preset_generate (ConvPreset preset, int n, double sigma, double angle_deg, double *out)
{
  int r = n / 2, c = r * n + r;
  double v1[CONV_MAX_SIZE], v2[CONV_MAX_SIZE];

  fill (out, n, 0.0);

  switch (preset) {
    case CONV_PRESET_BOX:
      fill (out, n, 1.0 / (n * n));
      return;
    case CONV_PRESET_GAUSSIAN:
      if (sigma <= 0.0)
        sigma = conv_gaussian_default_sigma (n);
      /* below this the kernel is the identity anyway, and 2 sigma^2 must not underflow */
      sigma = MAX (sigma, CONV_MIN_SIGMA);
      for (int i = 0; i < n; i++)
        v1[i] = exp (-((i - r) * (i - r)) / (2.0 * sigma * sigma));
      scale (v1, n, 1.0);
      outer (v1, v1, n, out);
      return;
    case CONV_PRESET_SHARPEN:
      out[c] = n == 1 ? 1.0 : 5.0;
      for (int d = 1; d <= r; d++) {
        out[c - d] = out[c + d] = -1.0 / r;
        out[c - d * n] = out[c + d * n] = -1.0 / r;
      }
      return;
    case CONV_PRESET_EDGE:
      if (n > 1) {
        fill (out, n, -8.0 / (n * n - 1));
        out[c] = 8.0;
      }
      return;
    case CONV_PRESET_EMBOSS:{
      double s = n * r * (r + 1.0) * (2 * r + 1) / 3.0;

      for (int dy = -r; dy <= r; dy++)
        for (int dx = -r; dx <= r; dx++)
          out[(dy + r) * n + dx + r] = 6.0 * (dx + dy) / s;
      out[c] = 1.0;
      return;
    }
    case CONV_PRESET_SOBEL_X:
    case CONV_PRESET_SOBEL_Y:
      if (n == 1)
        return;
      sobel_factors (n, v1, v2);
      if (preset == CONV_PRESET_SOBEL_X)
        outer (v1, v2, n, out);
      else
        outer (v2, v1, n, out);
      return;
    case CONV_PRESET_MOTIONBLUR:
      if (n == 1)
        out[0] = 1.0;
      else
        motion_line (n, angle_deg, out);
      return;
    case CONV_PRESET_IDENTITY:
    case CONV_PRESET_CUSTOM:
    default:
      out[c] = 1.0;
      return;
  }
}

static gboolean
is_separator (char ch)
{
  return ch == ',' || ch == ';' || g_ascii_isspace (ch);
}

int
conv_matrix_parse (const char *text, double *out, char *err, size_t errlen)
{
  const char *p = text ? text : "";
  int count = 0, n;

  for (;;) {
    const char *start;
    char *end;
    double v;

    while (*p && is_separator (*p))
      p++;
    if (!*p)
      break;
    start = p;
    while (*p && !is_separator (*p))
      p++;
    if (count == CONV_MAX_SIZE * CONV_MAX_SIZE) {
      snprintf (err, errlen, "more than %d coefficients (the largest matrix is %dx%d)",
          CONV_MAX_SIZE * CONV_MAX_SIZE, CONV_MAX_SIZE, CONV_MAX_SIZE);
      return 0;
    }
    v = g_ascii_strtod (start, &end);
    if (end != p || end == start) {
      snprintf (err, errlen, "'%.*s' (coefficient %d) is not a number", (int) (p - start),
          start, count + 1);
      return 0;
    }
    if (!isfinite (v)) {
      snprintf (err, errlen, "'%.*s' (coefficient %d) is not finite", (int) (p - start), start,
          count + 1);
      return 0;
    }
    out[count++] = v;
  }

  if (count == 0) {
    snprintf (err, errlen, "the matrix is empty");
    return 0;
  }
  n = (int) lround (sqrt ((double) count));
  if (n * n != count || n % 2 == 0) {
    snprintf (err, errlen, "%d coefficients: the count must be an odd square (1, 9, 25, ... %d)",
        count, CONV_MAX_SIZE * CONV_MAX_SIZE);
    return 0;
  }
  return n;
}

char *
conv_matrix_format (const double *k, int n)
{
  GString *s = g_string_new (NULL);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  char *ret;

  for (int j = 0; j < n; j++) {
    for (int i = 0; i < n; i++) {
      if (i > 0)
        g_string_append (s, ", ");
      g_string_append (s, g_ascii_dtostr (buf, sizeof (buf), k[j * n + i]));
    }
    if (j + 1 < n)
      g_string_append (s, "; ");
  }
  ret = strdup (s->str);
  g_string_free (s, TRUE);
  return ret;
}

double
conv_auto_divisor (const double *k, int n)
{
  double sum = 0.0;

  for (int i = 0; i < n * n; i++)
    sum += k[i];
  return fabs (sum) < 1e-9 ? 1.0 : sum;
}

/* One-sided Jacobi SVD of the n x n matrix a (row-major): a = sum_j s[j] u_j v_j^T with u_j the
 * j-th column of u and v_j that of v (both row-major n x n), s sorted in decreasing order.
 * Rotations orthogonalise the columns of a working copy until every pair is orthogonal to
 * within rounding; plenty for n <= 63 and done once per coefficient set. */
static void
jacobi_svd (const double *a, int n, double *u, double *s, double *v)
{
  double *w = malloc (sizeof (double) * n * n);
  int *order = malloc (sizeof (int) * n);
  double *su = malloc (sizeof (double) * n * n), *sv = malloc (sizeof (double) * n * n);

  if (!w || !order || !su || !sv)
    abort ();
  memcpy (w, a, sizeof (double) * n * n);
  for (int i = 0; i < n * n; i++)
    v[i] = (i / n == i % n) ? 1.0 : 0.0;

  for (int sweep = 0; sweep < 80; sweep++) {
    int rotated = 0;

    for (int p = 0; p < n - 1; p++) {
      for (int q = p + 1; q < n; q++) {
        double alpha = 0.0, beta = 0.0, gamma = 0.0, zeta, t, c, sn;

        for (int i = 0; i < n; i++) {
          alpha += w[i * n + p] * w[i * n + p];
          beta += w[i * n + q] * w[i * n + q];
          gamma += w[i * n + p] * w[i * n + q];
        }
        if (gamma == 0.0 || fabs (gamma) <= 1e-15 * sqrt (alpha * beta))
          continue;
        rotated = 1;
        zeta = (beta - alpha) / (2.0 * gamma);
        t = (zeta >= 0.0 ? 1.0 : -1.0) / (fabs (zeta) + sqrt (1.0 + zeta * zeta));
        c = 1.0 / sqrt (1.0 + t * t);
        sn = c * t;
        for (int i = 0; i < n; i++) {
          double wp = w[i * n + p], wq = w[i * n + q];
          double vp = v[i * n + p], vq = v[i * n + q];

          w[i * n + p] = c * wp - sn * wq;
          w[i * n + q] = sn * wp + c * wq;
          v[i * n + p] = c * vp - sn * vq;
          v[i * n + q] = sn * vp + c * vq;
        }
      }
    }
    if (!rotated)
      break;
  }

  /* singular values are the column norms; u = the columns normalised */
  for (int j = 0; j < n; j++) {
    double norm = 0.0;

    for (int i = 0; i < n; i++)
      norm += w[i * n + j] * w[i * n + j];
    s[j] = sqrt (norm);
    for (int i = 0; i < n; i++)
      w[i * n + j] = s[j] > 0.0 ? w[i * n + j] / s[j] : 0.0;
    order[j] = j;
  }
  /* decreasing singular values (insertion sort: n <= 63) */
  for (int j = 1; j < n; j++)
    for (int m = j; m > 0 && s[order[m]] > s[order[m - 1]]; m--) {
      int tmp = order[m];

      order[m] = order[m - 1];
      order[m - 1] = tmp;
    }
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      su[i * n + j] = w[i * n + order[j]];
      sv[i * n + j] = v[i * n + order[j]];
    }
  memcpy (u, su, sizeof (double) * n * n);
  memcpy (v, sv, sizeof (double) * n * n);
  for (int j = 0; j < n; j++)
    w[j] = s[order[j]];
  memcpy (s, w, sizeof (double) * n);
  free (w);
  free (order);
  free (su);
  free (sv);
}

int
conv_low_rank (const double *k, int n, double limit, double *vert, double *horiz)
{
  double *u = malloc (sizeof (double) * n * n), *v = malloc (sizeof (double) * n * n);
  double *s = malloc (sizeof (double) * n), *rest = malloc (sizeof (double) * n * n);
  int r = 0;

  if (!u || !v || !s || !rest)
    abort ();
  jacobi_svd (k, n, u, s, v);
  memcpy (rest, k, sizeof (double) * n * n);
  for (;;) {
    double l1 = 0.0;

    for (int i = 0; i < n * n; i++)
      l1 += fabs (rest[i]);
    if (l1 <= limit || r == n)
      break;
    /* one more pair: sqrt(s) on each side */
    for (int i = 0; i < n; i++) {
      vert[r * n + i] = u[i * n + r] * sqrt (s[r]);
      horiz[r * n + i] = v[i * n + r] * sqrt (s[r]);
    }
    for (int y = 0; y < n; y++)
      for (int x = 0; x < n; x++)
        rest[y * n + x] -= vert[r * n + y] * horiz[r * n + x];
    r++;
  }
  free (u);
  free (v);
  free (s);
  free (rest);
  return r;
}
