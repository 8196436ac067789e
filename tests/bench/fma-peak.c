/* clconvolve-fma-peak: the CPU's measured single-precision multiply-add peak, all cores
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Prints {"kind":"fma_peak","threads":n,"gfma_per_s":x,...}: lane multiply-adds per second of
 * one thread per online CPU, each running 12 independent chains of 8-lane fused multiply-adds
 * (AVX2+FMA where the CPU has them, else whatever the compiler makes of the 8-lane vectors).
 * It is the yardstick for "fraction of the FMA peak" in tests/bench/run-bench --parts kernels:
 * measured on the machine, not computed from a nominal clock. The peak is the best of 9 runs
 * (a shared virtual machine's other tenants only ever lower a run); the median is shown too. */

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>

typedef float v8 __attribute__ ((vector_size (32)));

#define CHAINS 12
#define ITER 20000000L

#if defined(__x86_64__) || defined(__i386__)
#define TARGET __attribute__ ((target ("avx2,fma")))
#else
#define TARGET
#endif

/* 12 chains, each x = x * m + c: enough independent work to fill two FMA pipes of latency 4-5. */
#define STEP(x) x = x * m + c
static TARGET float
chains (long iter)
{
  v8 m = { 0.999f, 0.999f, 0.999f, 0.999f, 0.999f, 0.999f, 0.999f, 0.999f };
  v8 c = { 1e-3f, 1e-3f, 1e-3f, 1e-3f, 1e-3f, 1e-3f, 1e-3f, 1e-3f };
  v8 a = m, b = c, d = m + c, e = m - c, f = m * c, g = c - m, h = m + m, i = c + c,
      j = m * m, k = c * c, l = m + 2 * c, n = c + 2 * m;

  for (long t = 0; t < iter; t++) {
    STEP (a); STEP (b); STEP (d); STEP (e); STEP (f); STEP (g);
    STEP (h); STEP (i); STEP (j); STEP (k); STEP (l); STEP (n);
  }
  a = a + b + d + e + f + g + h + i + j + k + l + n;
  return a[0] + a[7];
}

/* one thread's work and result (kept, so that the compiler cannot drop the chains) */
typedef struct
{
  long iter;
  float result;
} Job;

static gpointer
worker (gpointer data)
{
  Job *job = data;

  job->result = chains (job->iter);
  return NULL;
}

static int
cmp (const void *x, const void *y)
{
  double a = *(const double *) x, b = *(const double *) y;
  return a < b ? -1 : a > b;
}

int
main (void)
{
  guint n = g_get_num_processors ();
  gboolean fma = TRUE;
  double rates[9];

#if defined(__x86_64__) || defined(__i386__)
  fma = __builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("fma");
  if (!fma) {
    fprintf (stderr, "fma-peak: this CPU has no AVX2+FMA\n");
    return 1;
  }
#endif
  Job warm = { ITER / 20, 0.0f }, jobs[256];
  float total = 0.0f;

  n = MIN (n, G_N_ELEMENTS (jobs));
  worker (&warm);               /* warm up clocks */
  for (int r = 0; r < 9; r++) {
    GThread *t[G_N_ELEMENTS (jobs)];
    gint64 t0 = g_get_monotonic_time ();
    double s;

    for (guint i = 0; i < n; i++) {
      jobs[i] = (Job) { ITER, 0.0f };
      t[i] = g_thread_new ("fma", worker, &jobs[i]);
    }
    for (guint i = 0; i < n; i++) {
      g_thread_join (t[i]);
      total += jobs[i].result;
    }
    s = (g_get_monotonic_time () - t0) / 1e6;
    rates[r] = (double) n * ITER * CHAINS * 8 / s / 1e9;
  }
  qsort (rates, 9, sizeof (double), cmp);
  printf ("{\"kind\":\"fma_peak\",\"threads\":%u,\"gfma_per_s\":%.2f,\"median\":%.2f,"
      "\"min\":%.2f,\"lanes\":8,\"chains\":%d}\n", n, rates[8], rates[4], rates[0], CHAINS);
  fprintf (stderr, "FMA peak: %.1f G lane multiply-adds/s on %u threads (median %.1f; %g)\n",
      rates[8], n, rates[4], total + warm.result);
  return 0;
}
