/* clconvolve tests: shared helpers
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "common.h"

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
