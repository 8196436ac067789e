/* clconvolve tests: shared helpers
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "common.h"

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <string.h>

/* The "device-name" of the pipeline's clconvolve, read while it still runs. */
static gchar *
element_device_name (GstElement * pipe)
{
  GstIterator *it = gst_bin_iterate_recurse (GST_BIN (pipe));
  GValue item = G_VALUE_INIT;
  gchar *name = NULL;

  while (!name && gst_iterator_next (it, &item) == GST_ITERATOR_OK) {
    GstElement *e = g_value_get_object (&item);
    GstElementFactory *f = gst_element_get_factory (e);

    if (f && !g_strcmp0 (GST_OBJECT_NAME (f), "clconvolve"))
      g_object_get (e, "device-name", &name, NULL);
    g_value_reset (&item);
  }
  g_value_unset (&item);
  gst_iterator_free (it);
  return name;
}

static gboolean
run_one_frame (const gchar * element_desc, GError ** error, gchar ** debug, gchar ** device)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=1 ! video/x-raw,width=32,height=24 "
      "! %s ! fakesink", element_desc);
  GstElement *pipe = gst_parse_launch (desc, NULL);
  GstBus *bus;
  GstMessage *msg;
  gboolean ok;

  g_free (desc);
  g_assert (pipe != NULL);
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  ok = msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
  if (ok && device)
    *device = element_device_name (pipe);
  if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR && error)
    gst_message_parse_error (msg, error, debug);
  if (msg)
    gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  return ok;
}

gboolean
run_one_frame_pipeline (const gchar * element_desc, GError ** error, gchar ** debug)
{
  return run_one_frame (element_desc, error, debug, NULL);
}

/* Asks OpenCL itself, not the element, whether the device labelled "device (platform)" (the
 * element's device-name) shares memory with the host. */
static gboolean
device_host_unified (const gchar * label)
{
  cl_platform_id platforms[16];
  cl_uint np = 0;
  gboolean unified = FALSE, found = FALSE;

  if (clGetPlatformIDs (G_N_ELEMENTS (platforms), platforms, &np) != CL_SUCCESS)
    return FALSE;
  for (cl_uint p = 0; p < MIN (np, G_N_ELEMENTS (platforms)) && !found; p++) {
    cl_device_id devs[16];
    cl_uint nd = 0;
    gchar pname[256] = "";

    clGetPlatformInfo (platforms[p], CL_PLATFORM_NAME, sizeof (pname) - 1, pname, NULL);
    if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, G_N_ELEMENTS (devs), devs,
            &nd) != CL_SUCCESS)
      continue;
    for (cl_uint d = 0; d < MIN (nd, G_N_ELEMENTS (devs)) && !found; d++) {
      gchar dname[256] = "", *l;
      cl_bool u = CL_FALSE;

      clGetDeviceInfo (devs[d], CL_DEVICE_NAME, sizeof (dname) - 1, dname, NULL);
      l = g_strdup_printf ("%s (%s)", dname, pname);
      if (!g_strcmp0 (l, label)) {
        found = TRUE;
        clGetDeviceInfo (devs[d], CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof (u), &u, NULL);
        unified = u == CL_TRUE;
      }
      g_free (l);
    }
  }
  if (!found)
    g_printerr ("note: no OpenCL device is labelled '%s'; taking it as discrete\n", label);
  return unified;
}

gboolean
require_device (gboolean * host_unified)
{
  GError *err = NULL;
  gchar *device = NULL;

  if (!run_one_frame ("clconvolve", &err, NULL, &device)) {
    g_printerr ("FAIL: %s.\nThe element said: %s\n", NO_DEVICE_HINT,
        err ? err->message : "nothing");
    g_clear_error (&err);
    return FALSE;
  }
  if (host_unified)
    *host_unified = device && device_host_unified (device);
  g_printerr ("device: %s\n", device ? device : "?");
  g_free (device);
  return TRUE;
}

const gchar *
struct_text (const GstStructure * st)
{
  static gchar *text;

  g_free (text);
  text = st ? gst_structure_to_string (st) : g_strdup ("(none)");
  return text;
}

const TestPreset preset_table[TEST_N_PRESETS] = {
  {"identity", CONV_PRESET_IDENTITY}, {"box", CONV_PRESET_BOX},
  {"gaussian", CONV_PRESET_GAUSSIAN}, {"sharpen", CONV_PRESET_SHARPEN},
  {"emboss", CONV_PRESET_EMBOSS}, {"edge", CONV_PRESET_EDGE},
  {"sobel-x", CONV_PRESET_SOBEL_X}, {"sobel-y", CONV_PRESET_SOBEL_Y},
  {"motionblur", CONV_PRESET_MOTIONBLUR},
};

/* in the order of RefBorder and of the element's border enum */
const gchar *const border_names[TEST_N_BORDERS] = { "clamp", "mirror", "wrap", "constant" };

ConvPreset
preset_from_nick (const gchar * nick)
{
  for (guint i = 0; i < TEST_N_PRESETS; i++)
    if (!strcmp (preset_table[i].nick, nick))
      return preset_table[i].preset;
  g_assert_not_reached ();
  return CONV_PRESET_IDENTITY;
}

RefBorder
border_from_nick (const gchar * nick)
{
  for (guint i = 0; i < TEST_N_BORDERS; i++)
    if (!strcmp (border_names[i], nick))
      return (RefBorder) i;
  g_assert_not_reached ();
  return REF_BORDER_CLAMP;
}
