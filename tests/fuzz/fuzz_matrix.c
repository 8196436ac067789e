/* clconvolve: libFuzzer target for the custom matrix parser (gst/convkernel.h)
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The input, as a NUL-terminated string, goes to conv_matrix_parse. Checked (abort on a
 * violation, so libFuzzer keeps the input):
 *   - it returns 0 or an odd n <= CONV_MAX_SIZE, and then every coefficient is finite;
 *   - on failure the reason is a non-empty, NUL-terminated string within errlen;
 *   - conv_matrix_format of a parsed matrix parses again to the same n and the same values,
 *     bit for bit (the property getter's string must set the same matrix);
 *   - where the library has conv_normalise (a weak reference, so the target builds before and
 *     after it comes): with the automatic divisor, the first coefficient and the input's first
 *     8 bytes (any double: NaN, infinities, subnormals) as divisors, a success gives finite
 *     coefficients only, a failure a reason as above.
 * The buffers are heap blocks of exactly the documented size, so ASan sees any write past them. */

#include <glib.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convkernel.h"

#define MAX_CELLS (CONV_MAX_SIZE * CONV_MAX_SIZE)
#define ERR_LEN 128

int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

static void
fail (const char *what, const char *text)
{
  fprintf (stderr, "fuzz_matrix: %s (input \"%.200s\")\n", what, text);
  abort ();
}

/* A failure's reason: non-empty and terminated inside err[ERR_LEN]. */
static void
check_reason (const char *err, const char *text)
{
  if (!memchr (err, '\0', ERR_LEN))
    fail ("reason not NUL-terminated within errlen", text);
  if (err[0] == '\0')
    fail ("failure without a reason", text);
}

/* the same declaration as gst/convkernel.h's (where it has one), made weak: NULL when absent */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-decls"
int conv_normalise (const double *k, int n, double divisor, float *out, char *err,
    size_t errlen) __attribute__((weak));
#pragma GCC diagnostic pop

static void
check_normalise (const double *k, int n, double divisor, const char *text)
{
  float *out = malloc (sizeof (float) * n * n);
  char *err = malloc (ERR_LEN);

  memset (err, 'X', ERR_LEN);
  if (conv_normalise (k, n, divisor, out, err, ERR_LEN) == 1) {
    for (int i = 0; i < n * n; i++)
      if (!isfinite (out[i])) {
        fprintf (stderr, "fuzz_matrix: divisor %g: coefficient %d is %g\n", divisor, i,
            (double) out[i]);
        fail ("conv_normalise succeeded with a non-finite coefficient", text);
      }
  } else {
    check_reason (err, text);
  }
  free (out);
  free (err);
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  char *text = malloc (size + 1);
  double *k = malloc (sizeof (double) * MAX_CELLS);
  double *again = malloc (sizeof (double) * MAX_CELLS);
  char *err = malloc (ERR_LEN);
  char *formatted;
  int n, m;

  memcpy (text, data, size);
  text[size] = '\0';
  memset (err, 'X', ERR_LEN);

  n = conv_matrix_parse (text, k, err, ERR_LEN);
  if (n == 0) {
    check_reason (err, text);
    goto done;
  }
  if (n < 0 || n > CONV_MAX_SIZE || n % 2 == 0)
    fail ("side not 0 or odd 1..CONV_MAX_SIZE", text);
  for (int i = 0; i < n * n; i++)
    if (!isfinite (k[i]))
      fail ("non-finite coefficient accepted", text);

  /* the getter's string sets the same matrix */
  formatted = conv_matrix_format (k, n);
  if (!formatted)
    fail ("conv_matrix_format returned NULL", text);
  memset (err, 'X', ERR_LEN);
  m = conv_matrix_parse (formatted, again, err, ERR_LEN);
  if (m != n) {
    fprintf (stderr, "fuzz_matrix: side %d, formatted \"%.200s\" parses to %d (%.*s)\n", n,
        formatted, m, ERR_LEN, m == 0 ? err : "");
    fail ("format/parse round trip changed the side", text);
  }
  if (memcmp (k, again, sizeof (double) * n * n)) {
    fprintf (stderr, "fuzz_matrix: formatted \"%.200s\"\n", formatted);
    fail ("format/parse round trip changed a coefficient", text);
  }
  free (formatted);

  if (!conv_normalise)
    goto done;
  check_normalise (k, n, 0.0, text);
  /* a divisor in the range people type (may be 0, tiny or huge against the matrix) */
  check_normalise (k, n, k[0], text);
  if (size >= sizeof (double)) {
    double divisor;

    /* any bit pattern: NaN, infinities, subnormals, huge values */
    memcpy (&divisor, data, sizeof (divisor));
    check_normalise (k, n, divisor, text);
  }

done:
  free (text);
  free (k);
  free (again);
  free (err);
  return 0;
}
