/* clconvolve: the convolution settings, their validation and their coefficients
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "clsettings.h"

#include <stdlib.h>
#include <string.h>

/* method=separable: the split may leave an L1 error of at most SEP_LIMIT / 65535 of the
 * matrix (divided by its divisor), i.e. 0.002 of a sample's least significant bit at 16 bits,
 * so the split is as exact as the dense sum in float */
#define SEP_LIMIT 0.002

ClSettings *
cl_settings_new (void)
{
  ClSettings *s = g_new0 (ClSettings, 1);

  s->kernel = CL_SETTINGS_DEFAULT_KERNEL;
  s->size = CL_SETTINGS_DEFAULT_SIZE;
  s->divisor = CL_SETTINGS_DEFAULT_DIVISOR;
  s->bias = CL_SETTINGS_DEFAULT_BIAS;
  s->angle = CL_SETTINGS_DEFAULT_ANGLE;
  s->sigma = CL_SETTINGS_DEFAULT_SIGMA;
  s->amount = CL_SETTINGS_DEFAULT_AMOUNT;
  s->combine = CL_SETTINGS_DEFAULT_COMBINE;
  s->border = CL_SETTINGS_DEFAULT_BORDER;
  s->method = CL_SETTINGS_DEFAULT_METHOD;
  s->planes = CL_SETTINGS_DEFAULT_PLANES;
  s->autotune = CL_SETTINGS_DEFAULT_AUTOTUNE;
  return s;
}

/* The first matrix s describes (before the divisor) into k; returns its side. */
static gint
settings_first (const ClSettings * s, gdouble * k)
{
  if (s->kernel == CONV_PRESET_CUSTOM && s->custom_size) {
    memcpy (k, s->custom, sizeof (gdouble) * s->custom_size * s->custom_size);
    return s->custom_size;
  }
  if (s->kernel == CONV_PRESET_UNSHARP)
    conv_unsharp_generate (s->size, s->sigma, s->amount, k);
  else
    conv_preset_generate (s->kernel, s->size, s->sigma, s->angle, k);
  return s->size;
}

/* Whether the settings run a second matrix beside the first (combine magnitude or max). */
gboolean
cl_settings_paired (const ClSettings * s)
{
  return s->combine == GST_CL_CONVOLVE_COMBINE_MAGNITUDE ||
      s->combine == GST_CL_CONVOLVE_COMBINE_MAX;
}


/* Puts the n x n matrix k centred in an m x m one (m >= n), in place (k holds m * m). */
static void
centre_in (gdouble * k, gint n, gint m)
{
  gint o = (m - n) / 2;

  if (m == n)
    return;
  for (gint j = n - 1; j >= 0; j--)
    for (gint i = n - 1; i >= 0; i--)
      k[(j + o) * m + i + o] = k[j * n + i];
  for (gint j = 0; j < m; j++)
    for (gint i = 0; i < m; i++)
      if (j < o || j >= o + n || i < o || i >= o + n)
        k[j * m + i] = 0.0;
}

/* The matrices s runs into k and (if paired, else k2 is untouched) k2, both of the returned
 * side: the second is matrix-y, or the first's transpose; the smaller centred in the larger. */
static gint
settings_matrices (const ClSettings * s, gdouble * k, gdouble * k2)
{
  gint n = settings_first (s, k), m;

  if (!cl_settings_paired (s))
    return n;
  if (!s->custom_y_size) {
    conv_transpose (k, n, k2);
    return n;
  }
  m = s->custom_y_size;
  memcpy (k2, s->custom_y, sizeof (gdouble) * m * m);
  if (m > n)
    centre_in (k, n, m);
  else
    centre_in (k2, m, n);
  return MAX (n, m);
}

/* The matrix s describes (before the divisor) into k; returns its side. */
static gint
settings_matrix (const ClSettings * s, gdouble * k)
{
  gdouble *k2 = g_new (gdouble, CL_NCOEF);
  gint n = settings_matrices (s, k, k2);

  g_free (k2);
  return n;
}

/* The divisor of the settings' coefficients: the property, or the first matrix's automatic
 * one (the second matrix is divided by the same). */
static gdouble
settings_divisor (const ClSettings * s, const gdouble * k, gint n)
{
  return s->divisor != 0.0 ? s->divisor : conv_auto_divisor (k, n);
}

/* Whether the device coefficients of s (divided, as floats) are usable; err gets the reason
 * when they are not. The setters call it under the object lock on the settings they are about
 * to make current (generating a matrix takes microseconds), so self->set is always usable. */
gboolean
cl_settings_usable (const ClSettings * s, gchar * err, gsize errlen)
{
  gdouble *k = g_new (gdouble, CL_NCOEF), *k2 = g_new (gdouble, CL_NCOEF);
  gfloat *f = g_new (gfloat, CL_NCOEF);
  gint n = settings_matrices (s, k, k2);
  gboolean ok = conv_normalise (k, n, s->divisor, f, err, errlen);

  if (ok && cl_settings_paired (s)) {
    gchar why[200];

    ok = conv_normalise (k2, n, settings_divisor (s, k, n), f, why, sizeof (why));
    if (!ok)
      g_snprintf (err, errlen, "the second matrix (matrix-y or the transpose): %s", why);
  }
  for (gint c = 0; ok && c < CL_MAX_MATRICES; c++) {
    gint m = s->plane_size[c];
    gchar why[200];

    if (!m)
      continue;
    if (s->combine != GST_CL_CONVOLVE_COMBINE_NONE) {
      g_snprintf (err, errlen, "combine takes the kernel's matrix on every plane: "
          "plane-matrices must be empty with it");
      ok = FALSE;
      break;
    }
    ok = conv_normalise (s->plane_m[c], m, s->divisor != 0.0 ? s->divisor :
        conv_auto_divisor (s->plane_m[c], m), f, why, sizeof (why));
    if (!ok)
      g_snprintf (err, errlen, "plane-matrices entry %d: %s", c + 1, why);
  }
  g_free (f);
  g_free (k2);
  g_free (k);
  return ok;
}

/* The side of the matrix the settings give. */
gint
cl_settings_matrix_size (const ClSettings * s)
{
  gint n = s->kernel == CONV_PRESET_CUSTOM && s->custom_size ? s->custom_size : s->size;

  for (gint c = 0; c < CL_MAX_MATRICES; c++)
    n = MAX (n, s->plane_size[c]);
  return cl_settings_paired (s) ? MAX (n, s->custom_y_size) : n;
}

/* Whether components a and b run the same matrix (plane-matrices). */
gboolean
cl_settings_same_matrix (const ClSettings * s, gint a, gint b)
{
  return s->plane_size[a] == s->plane_size[b] && (!s->plane_size[a] ||
      !memcmp (s->plane_m[a], s->plane_m[b], sizeof (gdouble) * s->plane_size[a] *
          s->plane_size[a]));
}

/* Whether s leaves every sample as it is: the identity matrix (a 1 at the centre once divided)
 * and no bias. */
gboolean
cl_settings_identity (const ClSettings * s)
{
  gdouble k[CL_NCOEF];
  gint n = settings_matrix (s, k);
  gdouble divisor = s->divisor != 0.0 ? s->divisor : conv_auto_divisor (k, n);

  if (s->bias != 0.0 || divisor == 0.0 || s->combine != GST_CL_CONVOLVE_COMBINE_NONE)
    return FALSE;
  for (gint c = 0; c < CL_MAX_MATRICES; c++)
    if (s->plane_size[c])
      return FALSE;
  for (gint i = 0; i < n * n; i++)
    if (k[i] / divisor != (i == n * n / 2 ? 1.0 : 0.0))
      return FALSE;
  return TRUE;
}

/* The split of the n x n matrix k (already divided) into vector pairs, appended to sep
 * ([pair][vertical n, horizontal n]) from pair `first` on; returns the number of pairs, or -1
 * when they would pass CL_MAX_RANK in all. */
static gint
split_pairs (const gdouble * k, gint n, gfloat * sep, gint first)
{
  gdouble *vert = g_new (gdouble, n * n), *horiz = g_new (gdouble, n * n);
  gint r = conv_low_rank (k, n, SEP_LIMIT / 65535.0, vert, horiz);

  for (gint i = 0; i < r && first + i < CL_MAX_RANK; i++)
    for (gint t = 0; t < n; t++) {
      sep[(2 * (first + i)) * n + t] = (gfloat) vert[i * n + t];
      sep[(2 * (first + i) + 1) * n + t] = (gfloat) horiz[i * n + t];
    }
  g_free (vert);
  g_free (horiz);
  return first + r <= CL_MAX_RANK ? r : -1;
}

/* The split of k (already divided, of r pairs; -1: more than CL_MAX_RANK) as a centre term w
 * and fewer pairs where that saves some (an unsharp mask: one pair, not two): returns the
 * pairs then, w in *centre and after them in sep (the kernels' RANK_CENTRE); else r, sep and
 * *centre as they were. */
static gint
split_centre (gdouble * k, gint n, gfloat * sep, gint r, gfloat * centre)
{
  gdouble w = conv_centre_term (k, n);
  gfloat *rest = g_new0 (gfloat, 2 * CL_MAX_RANK * CONV_MAX_SIZE);
  gint rc;

  if (w == 0.0) {
    g_free (rest);
    return r;
  }
  k[n * n / 2] -= w;
  rc = split_pairs (k, n, rest, 0);
  k[n * n / 2] += w;
  if (rc >= 0 && rc < CL_MAX_RANK && (r < 0 || rc < r)) {
    memcpy (sep, rest, sizeof (gfloat) * 2 * CL_MAX_RANK * CONV_MAX_SIZE);
    *centre = sep[2 * rc * n] = (gfloat) w;
    r = rc;
  }
  g_free (rest);
  return r;
}

/* The device's float coefficients: the matrix already divided by the divisor into out[n * n]
 * (paired: the second matrix after it, out[n * n .. 2 n * n)); its split into vector pairs
 * into sep (paired: the second's pairs after the first's, *rank_a of them the first's; not
 * paired: a centre term in *centre where one saves pairs, split_centre). Returns the number of pairs in all, or -1 when they need more than CL_MAX_RANK. */
static gint
compute_coefficients (const ClSettings * s, gint comp, gfloat * out, gfloat * sep, gint * rank_a,
    gfloat * centre)
{
  gdouble *k = g_new (gdouble, CL_NCOEF), *k2 = g_new0 (gdouble, CL_NCOEF);
  gint n, ra, rb = 0;
  gdouble divisor;

  /* component comp's own matrix (plane-matrices), else the kernel's; all of the side of the
   * largest, centred */
  if (s->plane_size[comp]) {
    n = s->plane_size[comp];
    memcpy (k, s->plane_m[comp], sizeof (gdouble) * n * n);
  } else {
    n = settings_matrices (s, k, k2);
  }
  centre_in (k, n, cl_settings_matrix_size (s));
  n = cl_settings_matrix_size (s);
  divisor = settings_divisor (s, k, n);
  gboolean paired = cl_settings_paired (s);
  gchar err[256];

  /* the setters only let usable settings through */
  if (!conv_normalise (k, n, divisor, out, err, sizeof (err)) ||
      (paired && !conv_normalise (k2, n, divisor, out + n * n, err, sizeof (err))))
    g_critical ("unusable coefficients passed the setters: %s", err);
  for (gint i = 0; i < n * n; i++) {
    k[i] /= divisor;
    k2[i] /= divisor;
  }
  ra = split_pairs (k, n, sep, 0);
  if (paired && ra >= 0)
    rb = split_pairs (k2, n, sep, ra);
  else if (s->combine == GST_CL_CONVOLVE_COMBINE_NONE && (ra < 0 || ra > 1))
    ra = split_centre (k, n, sep, ra, centre);
  g_free (k);
  g_free (k2);
  *rank_a = MAX (ra, 0);
  return ra < 0 || rb < 0 ? -1 : ra + rb;
}

gint
cl_settings_n_matrices (const ClSettings * s)
{
  for (gint c = 0; c < CL_MAX_MATRICES; c++)
    if (s->plane_size[c] > 0)
      return CL_MAX_MATRICES;
  return 1;
}

/* Whether the vector pair v, h = v + n has each vector of one sign and the product of their
 * absolute sums at most 1: no sum of the pair's passes grows past the largest sample. */
static gboolean
unit_pair (const gfloat * v, gint n)
{
  const gfloat *h = v + n;
  gdouble sv = 0.0, sh = 0.0;
  gint pos = 0, neg = 0, hpos = 0, hneg = 0;

  for (gint t = 0; t < n; t++) {
    pos += v[t] > 0.0f;
    neg += v[t] < 0.0f;
    hpos += h[t] > 0.0f;
    hneg += h[t] < 0.0f;
    sv += ABS (v[t]);
    sh += ABS (h[t]);
  }
  return (pos == 0 || neg == 0) && (hpos == 0 || hneg == 0) && sv * sh <= 1.0 + 1e-6;
}

void
cl_settings_coefficients (const ClSettings * s, gint comp, ClCoefficients * c)
{
  gboolean paired = cl_settings_paired (s);

  memset (c->coef, 0, sizeof (c->coef));
  memset (c->sep, 0, sizeof (c->sep));
  c->n = cl_settings_matrix_size (s);
  /* the SVD of the split runs here, once per coefficient set, not per frame */
  c->centre = 0.0f;
  c->rank = compute_coefficients (s, comp, c->coef, c->sep, &c->rank_a, &c->centre);
  c->ntaps = conv_taps_pair (c->coef, paired ? c->coef + c->n * c->n : NULL, c->n, c->taps,
      CL_MAX_TAPS);
  if (c->ntaps > CL_MAX_TAPS)
    c->ntaps = 0;
  c->box = !paired && conv_is_box (c->coef, c->n) != 0;
  c->unit = !paired && c->rank == 1 && unit_pair (c->sep, c->n);
}

/* ---------------------------------------------------------------------------------------------
 * Setters */

gboolean
cl_settings_set_kernel (ClSettings * s, ConvPreset kernel, gboolean * size_changed,
    gchar * err, gsize errlen)
{
  ConvPreset old_kernel = s->kernel;
  gint old_size = s->size;

  *size_changed = FALSE;
  s->kernel = kernel;
  if (kernel == CONV_PRESET_CUSTOM && s->custom_size && s->size != s->custom_size) {
    s->size = s->custom_size;
    *size_changed = TRUE;
  }
  if (cl_settings_usable (s, err, errlen))
    return TRUE;
  s->kernel = old_kernel;
  s->size = old_size;
  *size_changed = FALSE;
  return FALSE;
}

gboolean
cl_settings_set_size (ClSettings * s, gint size, gchar * err, gsize errlen)
{
  gint old = s->size, custom = s->kernel == CONV_PRESET_CUSTOM ? s->custom_size : 0;

  if (size % 2 == 0) {
    g_snprintf (err, errlen, "the kernel size must be odd (1, 3, 5, ... %d)", CONV_MAX_SIZE);
    return FALSE;
  }
  if (custom != 0 && custom != size) {
    g_snprintf (err, errlen, "kernel=custom takes its size (%d) from the matrix; choose a "
        "preset kernel first", custom);
    return FALSE;
  }
  s->size = size;
  if (size == old || cl_settings_usable (s, err, errlen))
    return TRUE;
  s->size = old;
  return FALSE;
}

gboolean
cl_settings_set_double (ClSettings * s, gdouble * field, gdouble v, gchar * err, gsize errlen)
{
  gdouble old = *field;

  *field = v;
  if (v == old || cl_settings_usable (s, err, errlen))
    return TRUE;
  *field = old;
  return FALSE;
}

gboolean
cl_settings_set_combine (ClSettings * s, GstClConvolveCombine combine, gchar * err,
    gsize errlen)
{
  GstClConvolveCombine old = s->combine;

  s->combine = combine;
  if (cl_settings_usable (s, err, errlen))
    return TRUE;
  s->combine = old;
  return FALSE;
}

/* A matrix in the matrix syntax into k (CL_NCOEF), its side returned (0 with err set) and its
 * text as the getter gives it back into *formatted. */
static gint
parse_matrix (const gchar * text, gdouble * k, gchar ** formatted, gchar * err, gsize errlen)
{
  gint w, h, n = conv_matrix_parse_shape (text, k, &w, &h, err, errlen);

  if (n) {
    char *f = conv_matrix_format_shape (k, n, w, h);

    *formatted = g_strdup (f);
    free (f);
  }
  return n;
}

gboolean
cl_settings_set_matrix (ClSettings * s, const gchar * text, gchar ** formatted, gchar * err,
    gsize errlen)
{
  gdouble *k = g_new (gdouble, CL_NCOEF);
  gint n = parse_matrix (text, k, formatted, err, errlen);
  gboolean ok = n > 0;

  if (ok) {
    gfloat *f = g_new (gfloat, n * n);

    ok = conv_normalise (k, n, s->divisor, f, err, errlen);
    g_free (f);
  }
  if (ok) {
    memcpy (s->custom, k, sizeof (gdouble) * n * n);
    s->custom_size = n;
    s->kernel = CONV_PRESET_CUSTOM;
    s->size = n;
  } else {
    g_clear_pointer (formatted, g_free);
  }
  g_free (k);
  return ok;
}

gboolean
cl_settings_set_matrix_y (ClSettings * s, const gchar * text, gchar ** formatted,
    gchar * err, gsize errlen)
{
  gdouble *k = g_new (gdouble, CL_NCOEF), *old = NULL;
  gint n = 0, old_n = s->custom_y_size;
  gboolean ok = TRUE;

  *formatted = NULL;
  if (text && *text) {
    n = parse_matrix (text, k, formatted, err, errlen);
    ok = n > 0;
  }
  if (ok) {
    old = g_memdup2 (s->custom_y, sizeof (gdouble) * CL_NCOEF);
    if (n)
      memcpy (s->custom_y, k, sizeof (gdouble) * n * n);
    s->custom_y_size = n;
    ok = cl_settings_usable (s, err, errlen);
    if (!ok) {
      memcpy (s->custom_y, old, sizeof (gdouble) * CL_NCOEF);
      s->custom_y_size = old_n;
    }
  }
  if (!ok)
    g_clear_pointer (formatted, g_free);
  g_free (old);
  g_free (k);
  return ok;
}

/* The entries of a plane-matrices text into size[] and m[] (CL_MAX_MATRICES x CL_NCOEF), their
 * formatted text appended to formatted. */
static gboolean
parse_plane_matrices (const gchar * text, gint * size, gdouble * m, GString * formatted,
    gchar * err, gsize errlen)
{
  gchar **entries = text && *text ? g_strsplit (text, "|", -1) : g_new0 (gchar *, 1);
  gboolean ok = g_strv_length (entries) <= CL_MAX_MATRICES;

  if (!ok)
    g_snprintf (err, errlen, "%u entries, at most %d (one per component)",
        g_strv_length (entries), CL_MAX_MATRICES);
  for (gint c = 0; ok && entries[c]; c++) {
    gchar *e = g_strstrip (entries[c]), *f = NULL;

    if (c > 0)
      g_string_append (formatted, " | ");
    if (!*e)
      continue;
    size[c] = parse_matrix (e, m + (gsize) c * CL_NCOEF, &f, err, errlen);
    if (!size[c]) {
      gchar *why = g_strdup (err);

      g_snprintf (err, errlen, "entry %d: %s", c + 1, why);
      g_free (why);
      ok = FALSE;
    } else {
      g_string_append (formatted, f);
    }
    g_free (f);
  }
  g_strfreev (entries);
  return ok;
}

gboolean
cl_settings_set_plane_matrices (ClSettings * s, const gchar * text, gchar ** formatted,
    gchar * err, gsize errlen)
{
  gint size[CL_MAX_MATRICES] = { 0 }, old_size[CL_MAX_MATRICES];
  gdouble *m = g_new0 (gdouble, (gsize) CL_MAX_MATRICES * CL_NCOEF);
  GString *text_out = g_string_new (NULL);
  gboolean ok = parse_plane_matrices (text, size, m, text_out, err, errlen);

  *formatted = NULL;
  if (ok) {
    gdouble *old = g_new (gdouble, (gsize) CL_MAX_MATRICES * CL_NCOEF);

    for (gint c = 0; c < CL_MAX_MATRICES; c++) {
      old_size[c] = s->plane_size[c];
      memcpy (old + (gsize) c * CL_NCOEF, s->plane_m[c], sizeof (gdouble) * CL_NCOEF);
      s->plane_size[c] = size[c];
      memcpy (s->plane_m[c], m + (gsize) c * CL_NCOEF, sizeof (gdouble) * CL_NCOEF);
    }
    ok = cl_settings_usable (s, err, errlen);
    for (gint c = 0; !ok && c < CL_MAX_MATRICES; c++) {
      s->plane_size[c] = old_size[c];
      memcpy (s->plane_m[c], old + (gsize) c * CL_NCOEF, sizeof (gdouble) * CL_NCOEF);
    }
    g_free (old);
  }
  if (ok && text && *text)
    *formatted = g_strdup (text_out->str);
  g_string_free (text_out, TRUE);
  g_free (m);
  return ok;
}
