/* clconvolve tests: shared helpers
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "common.h"

#include <string.h>

gboolean
run_one_frame_pipeline (const gchar * element_desc, GError ** error, gchar ** debug)
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
  if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR && error)
    gst_message_parse_error (msg, error, debug);
  if (msg)
    gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  return ok;
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
