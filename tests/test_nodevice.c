/* clconvolve: the error a user gets with no OpenCL device at all
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* meson runs this with OCL_ICD_VENDORS pointing at an empty directory, so the ICD loader finds
 * no platform (the loader reads it once per process, hence a test program of its own). */

#include <gst/check/gstcheck.h>
#include <string.h>

#include "common.h"

/* Every debug category of the plugin exists once the plugin is loaded (issue 43: so that
 * --gst-debug-help lists them before any element runs). First in this suite's process, before
 * any element or context exists; no device needed. */
GST_START_TEST (test_debug_categories)
{
  const gchar *names[] = { "clconvolve", "clcontext", "clworker", "cltuner", "clmemory",
    "clbufferpool"
  };
  GstPlugin *plugin = gst_plugin_load_by_name ("clconvolve");
  GSList *all;

  fail_unless (plugin != NULL, "the clconvolve plugin did not load");
  all = gst_debug_get_all_categories ();
  for (guint i = 0; i < G_N_ELEMENTS (names); i++) {
    gboolean found = FALSE;

    for (GSList * l = all; l && !found; l = l->next)
      found = !strcmp (gst_debug_category_get_name (l->data), names[i]);
    fail_unless (found, "no debug category %s after the plugin loaded", names[i]);
  }
  g_slist_free (all);
  gst_object_unref (plugin);
}

GST_END_TEST;

GST_START_TEST (test_no_device_error)
{
  GError *err = NULL;
  gchar *debug = NULL;
  const gchar *vendors = g_getenv ("OCL_ICD_VENDORS");

  fail_unless (vendors != NULL, "run through meson test: OCL_ICD_VENDORS must name an empty "
      "directory");
  fail_if (run_one_frame_pipeline ("clconvolve", &err, &debug),
      "the element started although no OpenCL platform is installed");
  fail_unless (err != NULL, "no error message on the bus");
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND),
      "expected RESOURCE/NOT_FOUND, got %s", err->message);
  fail_unless (strstr (err->message, "No OpenCL device") != NULL, "%s", err->message);
  fail_unless (strstr (err->message, "pocl-opencl-icd") != NULL, "%s", err->message);
  g_clear_error (&err);
  g_free (debug);
}

GST_END_TEST;

static Suite *
nodevice_suite (void)
{
  Suite *s = suite_create ("nodevice");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_debug_categories);
  tcase_add_test (tc, test_no_device_error);
  return s;
}

GST_CHECK_MAIN (nodevice);
