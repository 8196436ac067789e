/* clconvolve: coefficient maths (presets, custom matrices, divisor)
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "convkernel.h"

#include <float.h>
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

/* Scharr: the smoothing [3 10 3] (sum 16), widened to n by binomial smoothing as Sobel's is;
 * Sobel's derivative. The classic 3x3 Scharr at n = 3. */
static void
scharr_factors (int n, double *smooth, double *deriv)
{
  static const double base[3] = { 3.0, 10.0, 3.0 };

  sobel_factors (n, smooth, deriv);
  for (int i = 0; i < n; i++) {
    smooth[i] = 0.0;
    for (int t = 0; t < 3; t++)
      smooth[i] += base[t] * binomial (n - 3, i - t);
  }
  scale (smooth, n, 16.0);
}

/* Prewitt: flat smoothing (sum 3) and a linear ramp derivative with Sobel's unit-ramp response
 * 2: the classic [1 1 1] and [-1 0 1] at n = 3. */
static void
prewitt_factors (int n, double *smooth, double *deriv)
{
  int r = n / 2;
  double moment = 0.0;

  for (int i = 0; i < n; i++) {
    smooth[i] = 1.0;
    deriv[i] = i - r;
    moment += deriv[i] * (i - r);
  }
  scale (smooth, n, 3.0);
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
    case CONV_PRESET_SCHARR_X:
    case CONV_PRESET_SCHARR_Y:
    case CONV_PRESET_PREWITT_X:
    case CONV_PRESET_PREWITT_Y:
      if (n == 1)
        return;
      if (preset == CONV_PRESET_SOBEL_X || preset == CONV_PRESET_SOBEL_Y)
        sobel_factors (n, v1, v2);
      else if (preset == CONV_PRESET_SCHARR_X || preset == CONV_PRESET_SCHARR_Y)
        scharr_factors (n, v1, v2);
      else
        prewitt_factors (n, v1, v2);
      /* x: smoothing down the columns, the derivative along the row; y: the transpose */
      if (preset == CONV_PRESET_SOBEL_X || preset == CONV_PRESET_SCHARR_X ||
          preset == CONV_PRESET_PREWITT_X)
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
    case CONV_PRESET_UNSHARP:
      conv_unsharp_generate (n, sigma, 1.0, out);
      return;
    case CONV_PRESET_IDENTITY:
    case CONV_PRESET_CUSTOM:
    default:
      out[c] = 1.0;
      return;
  }
}

void
conv_unsharp_generate (int n, double sigma, double amount, double *out)
{
  conv_preset_generate (CONV_PRESET_GAUSSIAN, n, sigma, 0.0, out);
  for (int i = 0; i < n * n; i++)
    out[i] *= -amount;
  out[(n / 2) * n + n / 2] += 1.0 + amount;
}

static gboolean
is_separator (char ch)
{
  return ch == ',' || ch == ';' || g_ascii_isspace (ch);
}

/* Words for the decimal-comma rule: cut at spaces and semicolons, not at commas. */
static gboolean
is_word_break (char ch)
{
  return ch == ';' || g_ascii_isspace (ch);
}

static const char *
skip_digits (const char *p, const char *end)
{
  while (p < end && g_ascii_isdigit (*p))
    p++;
  return p;
}

/* TRUE when [p, end) is a sign, digits, one comma, digits and an optional exponent: a number
 * written with a decimal comma ("0,04", "-1,5", "1,5e-3"). */
static gboolean
is_decimal_comma (const char *p, const char *end)
{
  const char *q;

  if (p < end && (*p == '+' || *p == '-'))
    p++;
  q = skip_digits (p, end);
  if (q == p || q == end || *q != ',')
    return FALSE;
  p = q + 1;
  q = skip_digits (p, end);
  if (q == p)
    return FALSE;
  if (q < end && (*q == 'e' || *q == 'E')) {
    p = q + 1;
    if (p < end && (*p == '+' || *p == '-'))
      p++;
    q = skip_digits (p, end);
    if (q == p)
      return FALSE;
  }
  return q == end;
}

/* The first word of text that reads as a decimal comma (commas at the word's ends left out),
 * or NULL; *len is its length. */
static const char *
find_decimal_comma (const char *text, int *len)
{
  const char *p = text;

  while (*p) {
    const char *start, *end;

    while (*p && is_word_break (*p))
      p++;
    start = p;
    while (*p && !is_word_break (*p))
      p++;
    end = p;
    while (start < end && *start == ',')
      start++;
    while (end > start && end[-1] == ',')
      end--;
    if (end > start && is_decimal_comma (start, end)) {
      *len = (int) (end - start);
      return start;
    }
  }
  return NULL;
}

/* TRUE when a comma stands between two digits ("1,5"): then a reader may have meant a decimal. */
static gboolean
has_tight_comma (const char *text)
{
  for (const char *p = text; *p; p++)
    if (*p == ',' && p > text && g_ascii_isdigit (p[-1]) && g_ascii_isdigit (p[1]))
      return TRUE;
  return FALSE;
}

/* Row breaks of the matrix syntax: a semicolon or a line end. */
static gboolean
is_row_break (char ch)
{
  return ch == ';' || ch == '\n' || ch == '\r';
}

/* Checks the shape of count values read in rows of lengths row_len[0..rows-1] and sets *w, *h;
 * returns FALSE with a reason in err otherwise. */
static gboolean
matrix_shape (const char *src, int count, const int *row_len, int rows, gboolean semicolon,
    int *w, int *h, char *err, size_t errlen)
{
  /* "1,5,2,5": the writer may have meant two decimals */
  const char *hint = has_tight_comma (src) ?
      "; commas separate coefficients (decimals take a point: 1.5, not 1,5)" : "";
  int n = (int) lround (sqrt ((double) count));
  gboolean square = n * n == count && n % 2 == 1;
  gboolean ragged = FALSE;

  for (int r = 1; r < rows; r++)
    ragged |= row_len[r] != row_len[0];
  if ((rows == 1 && !semicolon) || ragged) {
    /* one list (as before rows existed), or rows of several lengths: an odd square count is
     * the square matrix; one line of another odd count is a row */
    if (square) {
      *w = *h = n;
      return TRUE;
    }
    if (ragged) {
      int r = 1;

      while (row_len[r] == row_len[0])
        r++;
      snprintf (err, errlen, "%d coefficients in rows of different lengths (row 1 has %d, row "
          "%d has %d): give every row the same odd count, or an odd square count in all%s",
          count, row_len[0], r + 1, row_len[r], hint);
      return FALSE;
    }
    if (count % 2 == 0) {
      snprintf (err, errlen, "%d coefficients: the count must be an odd square (1, 9, 25, "
          "... %d) or, for one row, odd%s", count, CONV_MAX_SIZE * CONV_MAX_SIZE, hint);
      return FALSE;
    }
  }
  *w = row_len[0];
  *h = rows;
  if (*w % 2 == 0 || *h % 2 == 0) {
    snprintf (err, errlen, "%d coefficients in %d rows of %d: the width and the height must "
        "be odd (1, 3, 5, ... %d)%s", count, *h, *w, CONV_MAX_SIZE, hint);
    return FALSE;
  }
  if (*w > CONV_MAX_SIZE || *h > CONV_MAX_SIZE) {
    snprintf (err, errlen, "%d rows of %d coefficients: the width and the height are at most "
        "%d", *h, *w, CONV_MAX_SIZE);
    return FALSE;
  }
  return TRUE;
}

int
conv_matrix_parse_shape (const char *text, double *out, int *w_out, int *h_out, char *err,
    size_t errlen)
{
  const char *src = text ? text : "", *p = src;
  const char *dec;
  int count = 0, len, rows = 0, w, h, n;
  int row_len[CONV_MAX_SIZE * CONV_MAX_SIZE + 1];    /* a row opens after the last value */
  gboolean semicolon = FALSE;
  double *values;

  /* before reading numbers: "0,04 0,04 ..." reads as 0s and 4s, a valid matrix */
  dec = find_decimal_comma (p, &len);
  if (dec) {
    char fixed[41];
    int shown = MIN (len, (int) sizeof (fixed) - 1);

    for (int i = 0; i < shown; i++)
      fixed[i] = dec[i] == ',' ? '.' : dec[i];
    fixed[shown] = '\0';
    snprintf (err, errlen, "'%.*s' looks like a decimal comma: write decimals with a point (%s) "
        "and separate coefficients with commas, semicolons or spaces", shown, dec, fixed);
    return 0;
  }

  for (;;) {
    const char *start;
    char *end;
    double v;

    /* a row ends at its first break after a number; empty rows do not count */
    while (*p && is_separator (*p)) {
      if (is_row_break (*p) && rows > 0 && row_len[rows - 1] > 0) {
        semicolon |= *p == ';';
        row_len[rows++] = 0;
      }
      p++;
    }
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
    if (rows == 0)
      row_len[rows++] = 0;
    row_len[rows - 1]++;
    out[count++] = v;
  }
  /* the break after the last value opened a row that got none */
  if (rows > 0 && row_len[rows - 1] == 0)
    rows--;

  if (count == 0) {
    snprintf (err, errlen, "the matrix is empty");
    return 0;
  }
  if (!matrix_shape (src, count, row_len, rows, semicolon, &w, &h, err, errlen))
    return 0;

  /* centre the w x h values in the n x n square the kernels run */
  n = MAX (w, h);
  values = g_memdup2 (out, sizeof (double) * count);
  memset (out, 0, sizeof (double) * n * n);
  for (int j = 0; j < h; j++)
    memcpy (out + (j + (n - h) / 2) * n + (n - w) / 2, values + j * w, sizeof (double) * w);
  g_free (values);
  if (w_out)
    *w_out = w;
  if (h_out)
    *h_out = h;
  return n;
}

int
conv_matrix_parse (const char *text, double *out, char *err, size_t errlen)
{
  return conv_matrix_parse_shape (text, out, NULL, NULL, err, errlen);
}

char *
conv_matrix_format_shape (const double *k, int n, int w, int h)
{
  GString *s = g_string_new (NULL);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  const double *top = k + (n - h) / 2 * n + (n - w) / 2;
  char *ret;

  for (int j = 0; j < h; j++) {
    for (int i = 0; i < w; i++) {
      if (i > 0)
        g_string_append (s, ", ");
      g_string_append (s, g_ascii_dtostr (buf, sizeof (buf), top[j * n + i]));
    }
    /* one row ends with a semicolon, so that its text reads back as a row, not a square */
    if (j + 1 < h || (h == 1 && w > 1))
      g_string_append (s, "; ");
  }
  ret = strdup (s->str);
  g_string_free (s, TRUE);
  return ret;
}

char *
conv_matrix_format (const double *k, int n)
{
  return conv_matrix_format_shape (k, n, n, n);
}

double
conv_auto_divisor (const double *k, int n)
{
  double sum = 0.0;

  for (int i = 0; i < n * n; i++)
    sum += k[i];
  return fabs (sum) < 1e-9 ? 1.0 : sum;
}

/* %g in the C locale, like the matrix syntax (the reasons must not show "0,5") */
static const char *
ascii_g (char *buf, double v)
{
  return g_ascii_formatd (buf, G_ASCII_DTOSTR_BUF_SIZE, "%g", v);
}

int
conv_normalise (const double *k, int n, double divisor, float *out, char *err, size_t errlen)
{
  gboolean automatic = divisor == 0.0;
  double d = automatic ? conv_auto_divisor (k, n) : divisor;
  double sum = 0.0, largest = 0.0;
  gboolean any_nonzero = FALSE, any_float = FALSE;
  char what[64], b1[G_ASCII_DTOSTR_BUF_SIZE], b2[G_ASCII_DTOSTR_BUF_SIZE];
  char b3[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (d)) {
    if (automatic)
      snprintf (err, errlen, "the sum of the coefficients (the automatic divisor) overflows; "
          "set divisor or use smaller coefficients");
    else
      snprintf (err, errlen, "the divisor %s is not finite; set a finite divisor",
          ascii_g (b1, d));
    return 0;
  }
  /* named in the reasons below */
  snprintf (what, sizeof (what), "%s %s", automatic ? "automatic divisor" : "divisor",
      ascii_g (b1, d));

  for (int i = 0; i < n * n; i++) {
    /* the element's arithmetic: the quotient in double, then rounded to float */
    double q = k[i] / d;

    /* checked before the conversion: a double beyond the float range has no float value */
    if (!isfinite (q) || fabs (q) > FLT_MAX) {
      snprintf (err, errlen, "coefficient %d (%s) / %s = %s overflows float (largest %s); "
          "use a larger divisor or smaller coefficients", i + 1, ascii_g (b1, k[i]), what,
          ascii_g (b2, q), ascii_g (b3, FLT_MAX));
      return 0;
    }
    out[i] = (float) q;
    sum += fabs ((double) out[i]);
    if (q != 0.0) {
      any_nonzero = TRUE;
      largest = MAX (largest, fabs (q));
    }
    if (out[i] != 0.0f)
      any_float = TRUE;
  }

  /* every float coefficient times the largest sample: the worst weighted sum */
  if (sum * CONV_MAX_SAMPLE > FLT_MAX) {
    snprintf (err, errlen, "the coefficients / %s sum to %s in magnitude: a weighted sum of "
        "samples up to %s overflows float (largest %s); use a larger divisor or smaller "
        "coefficients", what, ascii_g (b1, sum), ascii_g (b2, CONV_MAX_SAMPLE),
        ascii_g (b3, FLT_MAX));
    return 0;
  }
  if (any_nonzero && !any_float) {
    snprintf (err, errlen, "every coefficient / %s underflows to 0 in float (the largest is "
        "%s): the output would be constant; use a smaller divisor or larger coefficients",
        what, ascii_g (b1, largest));
    return 0;
  }
  return 1;
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

double
conv_centre_term (const double *k, int n)
{
  int c = n / 2, bi = -1, bj = -1;
  double best = 0.0;

  /* a rank-1 matrix a has a[c][c] a[i][j] = a[c][j] a[i][c]: its centre from the largest
   * entry off the centre's row and column */
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (i != c && j != c && fabs (k[i * n + j]) > best) {
        best = fabs (k[i * n + j]);
        bi = i;
        bj = j;
      }
  if (bi < 0)
    return 0.0;
  return k[c * n + c] - k[c * n + bj] * k[bi * n + c] / k[bi * n + bj];
}

int
conv_taps_pair (const float *f, const float *g, int n, ConvTap * taps, int max)
{
  int r = n / 2, count = 0;

  for (int i = 0; i < n * n; i++)
    count += f[i] != 0.0f || (g && g[i] != 0.0f);
  if (count > max)
    return count;
  for (int i = 0, t = 0; i < n * n; i++) {
    float second = g ? g[i] : 0.0f;

    if (f[i] == 0.0f && second == 0.0f)
      continue;
    taps[t].dx = i % n - r;
    taps[t].dy = i / n - r;
    memcpy (&taps[t].bits, &f[i], sizeof (float));
    memcpy (&taps[t].bits2, &second, sizeof (float));
    t++;
  }
  return count;
}

int
conv_taps (const float *f, int n, ConvTap * taps, int max)
{
  return conv_taps_pair (f, NULL, n, taps, max);
}

int
conv_is_box (const float *f, int n)
{
  if (n < 2 || f[0] == 0.0f)
    return 0;
  for (int i = 1; i < n * n; i++)
    if (f[i] != f[0])
      return 0;
  return 1;
}

void
conv_transpose (const double *k, int n, double *out)
{
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      out[i * n + j] = k[j * n + i];
}
