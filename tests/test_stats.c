/* clconvolve: unit tests of the profiling interval arithmetic
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include <glib.h>

#include "gstclstats.h"

static void
test_serial (void)
{
  GstClStats s = { 0 };

  gst_cl_stats_init (&s);
  gst_cl_stats_add (&s, GST_CL_STAGE_UPLOAD, 100, 110);
  gst_cl_stats_add (&s, GST_CL_STAGE_KERNEL, 110, 130);
  gst_cl_stats_add (&s, GST_CL_STAGE_DOWNLOAD, 135, 140);
  gst_cl_stats_fold (&s);
  g_assert_cmpuint (s.stage_ns[GST_CL_STAGE_UPLOAD], ==, 10);
  g_assert_cmpuint (s.stage_ns[GST_CL_STAGE_KERNEL], ==, 20);
  g_assert_cmpuint (s.stage_ns[GST_CL_STAGE_DOWNLOAD], ==, 5);
  g_assert_cmpuint (s.busy_ns, ==, 35);
  g_assert_cmpuint (s.overlap_ns, ==, 0);       /* touching intervals do not overlap */
  g_assert_cmpuint (s.last_ns - s.first_ns, ==, 40);
  gst_cl_stats_clear (&s);
}

static void
test_overlapped (void)
{
  GstClStats s = { 0 };

  /* frame n's kernel [10,30] runs while n+1 uploads [15,25] and n-1 downloads [20,40] */
  gst_cl_stats_init (&s);
  gst_cl_stats_add (&s, GST_CL_STAGE_KERNEL, 10, 30);
  gst_cl_stats_add (&s, GST_CL_STAGE_UPLOAD, 15, 25);
  gst_cl_stats_add (&s, GST_CL_STAGE_DOWNLOAD, 20, 40);
  gst_cl_stats_add (&s, GST_CL_STAGE_KERNEL, 50, 60);
  gst_cl_stats_fold (&s);
  g_assert_cmpuint (s.busy_ns, ==, 40);         /* [10,40] + [50,60] */
  g_assert_cmpuint (s.overlap_ns, ==, 15);      /* [15,30] has two or three at once */
  gst_cl_stats_init (&s);                       /* reset keeps working */
  g_assert_cmpuint (s.busy_ns, ==, 0);
  gst_cl_stats_add (&s, GST_CL_STAGE_KERNEL, 5, 3);     /* bogus: ignored */
  gst_cl_stats_fold (&s);
  g_assert_cmpuint (s.busy_ns, ==, 0);
  gst_cl_stats_clear (&s);
}

static void
test_many (void)
{
  GstClStats s = { 0 };

  /* more intervals than one fold holds: 10000 serial 10 ns commands, 5 ns apart */
  gst_cl_stats_init (&s);
  for (guint64 i = 0; i < 10000; i++)
    gst_cl_stats_add (&s, GST_CL_STAGE_KERNEL, 1000 + i * 15, 1000 + i * 15 + 10);
  gst_cl_stats_fold (&s);
  g_assert_cmpuint (s.busy_ns, ==, 100000);
  g_assert_cmpuint (s.overlap_ns, ==, 0);
  gst_cl_stats_clear (&s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stats/serial", test_serial);
  g_test_add_func ("/stats/overlapped", test_overlapped);
  g_test_add_func ("/stats/many", test_many);
  return g_test_run ();
}
