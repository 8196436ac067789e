/* clconvolve: unit tests of the settings module (gst/clsettings.h): the setters' checks and
 * what they keep, the identity test, and the device coefficients against values computed here
 * from the definitions (a box is 1/n^2 everywhere, a custom matrix divides by its sum, a
 * split's pairs multiply back to the matrix).
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include <glib.h>
#include <math.h>
#include <string.h>

#include "clsettings.h"

#define ERR_LEN 256

static void
test_defaults (void)
{
  ClSettings *s = cl_settings_new ();

  g_assert_cmpint (s->kernel, ==, CONV_PRESET_GAUSSIAN);
  g_assert_cmpint (s->size, ==, 5);
  g_assert_cmpint (s->method, ==, GST_CL_CONVOLVE_METHOD_AUTO);
  g_assert_true (s->autotune);
  g_assert_cmpint (cl_settings_matrix_size (s), ==, 5);
  g_assert_cmpint (cl_settings_n_matrices (s), ==, 1);
  g_assert_false (cl_settings_paired (s));
  g_assert_false (cl_settings_identity (s));
  g_free (s);
}

static void
test_size (void)
{
  ClSettings *s = cl_settings_new ();
  gchar err[ERR_LEN], *text = NULL;

  g_assert_false (cl_settings_set_size (s, 4, err, ERR_LEN));
  g_assert_nonnull (strstr (err, "odd"));
  g_assert_cmpint (s->size, ==, 5);
  g_assert_true (cl_settings_set_size (s, 63, err, ERR_LEN));
  g_assert_cmpint (s->size, ==, 63);
  /* a custom matrix fixes the size */
  g_assert_true (cl_settings_set_matrix (s, "1 2 1", &text, err, ERR_LEN));
  g_assert_cmpint (s->kernel, ==, CONV_PRESET_CUSTOM);
  g_assert_cmpint (s->size, ==, 3);
  g_assert_nonnull (text);
  g_assert_false (cl_settings_set_size (s, 5, err, ERR_LEN));
  g_assert_nonnull (strstr (err, "matrix"));
  g_assert_cmpint (s->size, ==, 3);
  g_assert_true (cl_settings_set_size (s, 3, err, ERR_LEN));
  g_free (text);
  g_free (s);
}

static void
test_matrix (void)
{
  ClSettings *s = cl_settings_new ();
  gchar err[ERR_LEN], *text = NULL;
  gboolean size_changed;

  g_assert_false (cl_settings_set_matrix (s, "1 2 3 4", &text, err, ERR_LEN));
  g_assert_null (text);
  g_assert_cmpint (s->kernel, ==, CONV_PRESET_GAUSSIAN);
  g_assert_false (cl_settings_set_matrix (s, "1,2,x,4,5,6,7,8,9", &text, err, ERR_LEN));
  g_assert_nonnull (strstr (err, "'x'"));
  g_assert_true (cl_settings_set_matrix (s, "1 2 1; 2 4 2; 1 2 1", &text, err, ERR_LEN));
  g_assert_cmpint (s->custom_size, ==, 3);
  g_assert_cmpfloat (s->custom[4], ==, 4.0);
  g_free (text);
  /* back to a preset, then custom again: the size follows the matrix */
  g_assert_true (cl_settings_set_kernel (s, CONV_PRESET_BOX, &size_changed, err, ERR_LEN));
  g_assert_true (cl_settings_set_size (s, 7, err, ERR_LEN));
  g_assert_true (cl_settings_set_kernel (s, CONV_PRESET_CUSTOM, &size_changed, err,
          ERR_LEN));
  g_assert_true (size_changed);
  g_assert_cmpint (s->size, ==, 3);
  /* a divisor that overflows float is refused, and so is a matrix under it */
  g_assert_false (cl_settings_set_double (s, &s->divisor, 1e-300, err, ERR_LEN));
  g_assert_nonnull (strstr (err, "overflows"));
  g_assert_cmpfloat (s->divisor, ==, 0.0);
  g_free (s);
}

static void
test_paired (void)
{
  ClSettings *s = cl_settings_new ();
  ClCoefficients *c = g_new (ClCoefficients, 1);
  gchar err[ERR_LEN], *text = NULL;
  gboolean size_changed;

  g_assert_true (cl_settings_set_kernel (s, CONV_PRESET_SOBEL_X, &size_changed, err,
          ERR_LEN));
  g_assert_true (cl_settings_set_size (s, 3, err, ERR_LEN));
  g_assert_true (cl_settings_set_combine (s, GST_CL_CONVOLVE_COMBINE_MAGNITUDE, err,
          ERR_LEN));
  g_assert_true (cl_settings_paired (s));
  cl_settings_coefficients (s, 0, c);
  /* the second matrix is the first's transpose, both divided by 1 (sobel sums to 0) */
  for (gint j = 0; j < 3; j++)
    for (gint i = 0; i < 3; i++)
      g_assert_cmpfloat (c->coef[9 + i * 3 + j], ==, c->coef[j * 3 + i]);
  g_assert_cmpfloat (c->coef[0], ==, -1.0f);
  g_assert_cmpfloat (c->coef[2], ==, 1.0f);
  g_assert_cmpint (c->rank, ==, 2);
  g_assert_cmpint (c->rank_a, ==, 1);
  g_assert_false (c->box);
  /* matrix-y of another side: both centred in the larger */
  g_assert_true (cl_settings_set_matrix_y (s, "-1; 0; 0; 0; 1", &text, err, ERR_LEN));
  g_assert_cmpint (cl_settings_matrix_size (s), ==, 5);
  g_free (text);
  g_assert_false (cl_settings_set_matrix_y (s, "1 2", &text, err, ERR_LEN));
  g_assert_cmpint (s->custom_y_size, ==, 5);
  g_assert_true (cl_settings_set_matrix_y (s, NULL, &text, err, ERR_LEN));
  g_assert_null (text);
  g_assert_cmpint (s->custom_y_size, ==, 0);
  /* plane-matrices take the kernel's combine away: refused while combine is on */
  g_assert_false (cl_settings_set_plane_matrices (s, "|1 1 1", &text, err, ERR_LEN));
  g_assert_nonnull (strstr (err, "combine"));
  g_assert_cmpint (s->plane_size[1], ==, 0);
  g_free (c);
  g_free (s);
}

static void
test_plane_matrices (void)
{
  ClSettings *s = cl_settings_new ();
  ClCoefficients *c = g_new (ClCoefficients, 1);
  gchar err[ERR_LEN], *text = NULL;

  g_assert_false (cl_settings_set_plane_matrices (s, "|||1|1", &text, err, ERR_LEN));
  g_assert_nonnull (strstr (err, "at most 4"));
  g_assert_false (cl_settings_set_plane_matrices (s, "| 1 2 ", &text, err, ERR_LEN));
  g_assert_nonnull (strstr (err, "entry 2"));
  g_assert_true (cl_settings_set_plane_matrices (s, "|1 1 1 1 1 1 1", &text, err, ERR_LEN));
  g_assert_nonnull (text);
  g_free (text);
  g_assert_cmpint (s->plane_size[0], ==, 0);
  g_assert_cmpint (s->plane_size[1], ==, 7);
  g_assert_cmpint (cl_settings_n_matrices (s), ==, 4);
  g_assert_cmpint (cl_settings_matrix_size (s), ==, 7);
  g_assert_false (cl_settings_same_matrix (s, 0, 1));
  g_assert_true (cl_settings_same_matrix (s, 0, 2));
  /* component 1: a row of seven 1/7 in the middle of 7x7, zeros elsewhere */
  cl_settings_coefficients (s, 1, c);
  g_assert_cmpint (c->n, ==, 7);
  for (gint i = 0; i < 49; i++)
    g_assert_cmpfloat_with_epsilon (c->coef[i], i / 7 == 3 ? 1.0 / 7 : 0.0, 1e-7);
  g_assert_cmpint (c->ntaps, ==, 7);
  g_assert_cmpint (c->rank, ==, 1);
  g_assert_false (c->box);
  /* an empty text clears them */
  g_assert_true (cl_settings_set_plane_matrices (s, "", &text, err, ERR_LEN));
  g_assert_null (text);
  g_assert_cmpint (cl_settings_n_matrices (s), ==, 1);
  g_free (c);
  g_free (s);
}

/* The box's coefficients are 1/n^2 and marked as a box; its pairs multiply back to it. */
static void
test_box_coefficients (void)
{
  ClSettings *s = cl_settings_new ();
  ClCoefficients *c = g_new (ClCoefficients, 1);
  gchar err[ERR_LEN];
  gboolean size_changed;

  g_assert_true (cl_settings_set_kernel (s, CONV_PRESET_BOX, &size_changed, err, ERR_LEN));
  /* a 1x1 matrix is no box: nothing to sum */
  for (gint n = 3; n <= 63; n += 2) {
    g_assert_true (cl_settings_set_size (s, n, err, ERR_LEN));
    cl_settings_coefficients (s, 0, c);
    g_assert_cmpint (c->n, ==, n);
    g_assert_true (c->box);
    g_assert_true (c->unit);
    g_assert_cmpint (c->rank, ==, 1);
    g_assert_cmpint (c->ntaps, ==, n * n <= CL_MAX_TAPS ? n * n : 0);
    for (gint j = 0; j < n; j++)
      for (gint i = 0; i < n; i++) {
        g_assert_cmpfloat_with_epsilon (c->coef[j * n + i], 1.0 / (n * n), 1e-9);
        g_assert_cmpfloat_with_epsilon (c->sep[j] * c->sep[n + i], 1.0 / (n * n), 1e-8);
      }
  }
  g_free (c);
  g_free (s);
}

/* unsharp (1 + amount at the centre less amount times a gaussian) splits into one pair and a
 * centre term of 1 + amount, which multiply back to its matrix; a gaussian (one pair already)
 * and a rank-2 matrix (no centre term makes it rank 1) have none. */
static void
test_centre_coefficients (void)
{
  const gint sizes[] = { 3, 5, 7, 15, 31, 63 };
  const gdouble amounts[] = { 1.0, 2.5, -0.5 };
  ClSettings *s = cl_settings_new ();
  ClCoefficients *c = g_new (ClCoefficients, 1);
  gchar err[ERR_LEN], *text = NULL;
  gboolean size_changed;

  g_assert_true (cl_settings_set_kernel (s, CONV_PRESET_UNSHARP, &size_changed, err, ERR_LEN));
  for (guint a = 0; a < G_N_ELEMENTS (amounts); a++)
    for (guint z = 0; z < G_N_ELEMENTS (sizes); z++) {
      gint n = sizes[z];

      g_assert_true (cl_settings_set_double (s, &s->amount, amounts[a], err, ERR_LEN));
      g_assert_true (cl_settings_set_size (s, n, err, ERR_LEN));
      cl_settings_coefficients (s, 0, c);
      g_assert_cmpint (c->rank, ==, 1);
      g_assert_cmpfloat_with_epsilon (c->centre, 1.0 + amounts[a], 1e-6);
      /* the pair is - amount times a gaussian: its sums' product is |amount| */
      g_assert_true (c->unit == (fabs (amounts[a]) <= 1.0));
      /* stored after the pair, where the kernels read it */
      g_assert_cmpfloat (c->sep[2 * n], ==, c->centre);
      for (gint j = 0; j < n; j++)
        for (gint i = 0; i < n; i++)
          g_assert_cmpfloat_with_epsilon (c->sep[j] * c->sep[n + i] +
              (j == n / 2 && i == n / 2 ? c->centre : 0.0), c->coef[j * n + i], 1e-6);
    }
  g_assert_true (cl_settings_set_kernel (s, CONV_PRESET_GAUSSIAN, &size_changed, err, ERR_LEN));
  cl_settings_coefficients (s, 0, c);
  g_assert_cmpint (c->rank, ==, 1);
  g_assert_cmpfloat (c->centre, ==, 0.0f);
  g_assert_true (c->unit);
  /* two outer products: (1 2 1)(1 0 -1) + (0 1 0)(1 1 1) */
  g_assert_true (cl_settings_set_matrix (s, "1 0 -1; 3 1 -1; 1 0 -1", &text, err, ERR_LEN));
  g_free (text);
  cl_settings_coefficients (s, 0, c);
  g_assert_cmpint (c->rank, ==, 2);
  g_assert_cmpfloat (c->centre, ==, 0.0f);
  g_assert_false (c->unit);
  /* one pair of one sign each: a blur's where its coefficients sum to at most 1 */
  g_assert_true (cl_settings_set_matrix (s, "1 2 1; 2 4 2; 1 2 1", &text, err, ERR_LEN));
  g_free (text);
  cl_settings_coefficients (s, 0, c);
  g_assert_true (c->unit);
  g_assert_true (cl_settings_set_double (s, &s->divisor, 8.0, err, ERR_LEN));
  cl_settings_coefficients (s, 0, c);
  g_assert_cmpint (c->rank, ==, 1);
  g_assert_false (c->unit);
  g_assert_true (cl_settings_set_double (s, &s->divisor, -16.0, err, ERR_LEN));
  cl_settings_coefficients (s, 0, c);
  g_assert_true (c->unit);
  /* one sign per vector: (1 -2 1)(1 2 1) / 16 is not a blur's */
  g_assert_true (cl_settings_set_double (s, &s->divisor, 16.0, err, ERR_LEN));
  g_assert_true (cl_settings_set_matrix (s, "1 2 1; -2 -4 -2; 1 2 1", &text, err, ERR_LEN));
  g_free (text);
  cl_settings_coefficients (s, 0, c);
  g_assert_cmpint (c->rank, ==, 1);
  g_assert_false (c->unit);
  g_free (c);
  g_free (s);
}

/* A custom matrix divides by its sum (or 1 where it sums to 0), and bias does not change the
 * coefficients; a divisor replaces the sum. */
static void
test_custom_coefficients (void)
{
  const gdouble m[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 10 };
  ClSettings *s = cl_settings_new ();
  ClCoefficients *c = g_new (ClCoefficients, 1);
  gchar err[ERR_LEN], *text = NULL;

  g_assert_true (cl_settings_set_matrix (s, "1 2 3; 4 5 6; 7 8 10", &text, err, ERR_LEN));
  g_free (text);
  g_assert_true (cl_settings_set_double (s, &s->bias, 12.0, err, ERR_LEN));
  cl_settings_coefficients (s, 0, c);
  for (gint i = 0; i < 9; i++)
    g_assert_cmpfloat_with_epsilon (c->coef[i], m[i] / 46.0, 1e-7);
  /* a full-rank 3x3 splits into 3 pairs that multiply back to it */
  g_assert_cmpint (c->rank, ==, 3);
  for (gint j = 0; j < 3; j++)
    for (gint i = 0; i < 3; i++) {
      gdouble sum = 0;

      for (gint p = 0; p < c->rank; p++)
        sum += c->sep[2 * p * 3 + j] * c->sep[(2 * p + 1) * 3 + i];
      g_assert_cmpfloat_with_epsilon (sum, m[j * 3 + i] / 46.0, 1e-6);
    }
  g_assert_true (cl_settings_set_double (s, &s->divisor, -2.0, err, ERR_LEN));
  cl_settings_coefficients (s, 0, c);
  for (gint i = 0; i < 9; i++)
    g_assert_cmpfloat_with_epsilon (c->coef[i], m[i] / -2.0, 1e-6);
  g_free (c);
  g_free (s);
}

static void
test_identity (void)
{
  ClSettings *s = cl_settings_new ();
  gchar err[ERR_LEN], *text = NULL;
  gboolean size_changed;

  g_assert_true (cl_settings_set_kernel (s, CONV_PRESET_IDENTITY, &size_changed, err,
          ERR_LEN));
  g_assert_true (cl_settings_identity (s));
  g_assert_true (cl_settings_set_double (s, &s->bias, 1.0, err, ERR_LEN));
  g_assert_false (cl_settings_identity (s));
  g_assert_true (cl_settings_set_double (s, &s->bias, 0.0, err, ERR_LEN));
  /* a matrix that divides to a 1 at the centre */
  g_assert_true (cl_settings_set_matrix (s, "0 0 0; 0 3 0; 0 0 0", &text, err, ERR_LEN));
  g_free (text);
  g_assert_true (cl_settings_identity (s));
  g_assert_true (cl_settings_set_double (s, &s->divisor, 2.0, err, ERR_LEN));
  g_assert_false (cl_settings_identity (s));
  g_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/settings/defaults", test_defaults);
  g_test_add_func ("/settings/size", test_size);
  g_test_add_func ("/settings/matrix", test_matrix);
  g_test_add_func ("/settings/paired", test_paired);
  g_test_add_func ("/settings/plane-matrices", test_plane_matrices);
  g_test_add_func ("/settings/box-coefficients", test_box_coefficients);
  g_test_add_func ("/settings/custom-coefficients", test_custom_coefficients);
  g_test_add_func ("/settings/centre-coefficients", test_centre_coefficients);
  g_test_add_func ("/settings/identity", test_identity);
  return g_test_run ();
}
