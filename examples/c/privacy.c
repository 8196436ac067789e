/* clconvolve example: a privacy blur driven by regions of interest
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Runs
 *
 *   SOURCE ! videoconvert ! clconvolve kernel=gaussian roi-meta=true roi-scale=0.2
 *       roi-margin-scale=0.1 ! videoconvert ! jpegenc ! filesink location=OUT
 *
 * where a pad probe on clconvolve's sink pad stands in for a face detector: it puts three
 * regions of interest of type "face" and of different sizes on every frame, as
 * GstVideoRegionOfInterestMeta. Each is blurred with a kernel a fifth of its shorter side
 * (roi-scale), over the region grown by a tenth of its size on every side (roi-margin-scale);
 * the rest of the picture passes unchanged.
 *
 * Usage: clconvolve-example-privacy OUT.jpg [IN.jpg]
 *   SOURCE is IN.jpg decoded, or without it one 360x240 frame of videotestsrc.
 * Exit status: 0 the picture was written, 2 the pipeline failed (its error is printed) or bad
 * usage.
 */

#include <gst/gst.h>
#include <gst/video/video.h>

/* The "detections": left, top and side of each face as fractions of the frame's height (the
 * left also of its width) */
static const struct
{
  gdouble x, y, side;
} faces[] = {
  {0.03, 0.60, 0.20},           /* far away: 48 pixels on a 240-row frame, 9.6: a 9x9 kernel */
  {0.30, 0.04, 0.40},           /* 96 pixels: 19 */
  {0.63, 0.28, 0.62},           /* 148 pixels: 29.6, 29, run as 31 */
};

/* The stand-in detector: regions on each frame that goes into clconvolve */
static GstPadProbeReturn
detect (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstCaps *caps = gst_pad_get_current_caps (pad);
  GstVideoInfo vinfo;

  if (!caps || !gst_video_info_from_caps (&vinfo, caps)) {
    g_clear_pointer (&caps, gst_caps_unref);
    return GST_PAD_PROBE_OK;
  }
  gst_caps_unref (caps);
  buf = gst_buffer_make_writable (buf);
  for (guint i = 0; i < G_N_ELEMENTS (faces); i++) {
    guint w = GST_VIDEO_INFO_WIDTH (&vinfo), h = GST_VIDEO_INFO_HEIGHT (&vinfo);
    guint side = (guint) (faces[i].side * h);

    gst_buffer_add_video_region_of_interest_meta (buf, "face", (guint) (faces[i].x * w),
        (guint) (faces[i].y * h), side, side);
  }
  GST_PAD_PROBE_INFO_DATA (info) = buf;
  return GST_PAD_PROBE_OK;
}

int
main (int argc, char **argv)
{
  GstElement *pipe, *blur;
  GstPad *sink;
  GstMessage *msg;
  GError *err = NULL;
  GstBus *bus;
  gchar *desc, *src, *out;
  int status = 0;

  gst_init (&argc, &argv);
  if (argc < 2 || argc > 3) {
    g_printerr ("usage: %s OUT.jpg [IN.jpg]\n", argv[0]);
    return 2;
  }
  out = g_strescape (argv[1], NULL);
  if (argc == 3) {
    gchar *in = g_strescape (argv[2], NULL);

    src = g_strdup_printf ("filesrc location=\"%s\" ! jpegdec", in);
    g_free (in);
  } else {
    src = g_strdup ("videotestsrc num-buffers=1 ! video/x-raw,width=360,height=240");
  }
  desc = g_strdup_printf ("%s ! videoconvert ! clconvolve name=blur kernel=gaussian "
      "roi-meta=true roi-scale=0.2 roi-margin-scale=0.1 ! videoconvert ! jpegenc ! "
      "filesink location=\"%s\"", src, out);
  pipe = gst_parse_launch (desc, &err);
  if (!pipe) {
    g_printerr ("cannot build the pipeline: %s\n", err ? err->message : "?");
    return 2;
  }
  blur = gst_bin_get_by_name (GST_BIN (pipe), "blur");
  sink = gst_element_get_static_pad (blur, "sink");
  gst_pad_add_probe (sink, GST_PAD_PROBE_TYPE_BUFFER, detect, NULL, NULL);
  gst_object_unref (sink);
  gst_object_unref (blur);

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  bus = gst_element_get_bus (pipe);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  gst_object_unref (bus);
  if (!msg || GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *dbg = NULL;

    if (msg)
      gst_message_parse_error (msg, &err, &dbg);
    g_printerr ("the pipeline failed: %s\n%s\n", msg ? err->message : "no end within 60 s",
        dbg ? dbg : "");
    g_clear_error (&err);
    g_free (dbg);
    status = 2;
  } else {
    g_print ("wrote %s\n", argv[1]);
  }
  g_clear_pointer (&msg, gst_message_unref);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  g_free (desc);
  g_free (src);
  g_free (out);
  return status;
}
