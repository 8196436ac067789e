/* clconvolve example: embedding the element in an application
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Runs
 *
 *   appsrc ! clconvolve kernel=box size=3 border=clamp ! appsink
 *
 * on a few frames of pseudo-random GRAY8 pixels made here, pulls every filtered frame back
 * and checks it against a 3x3 box filter written in plain C below.
 *
 * Usage: clconvolve-example-embed [WIDTH HEIGHT]   (default 64 48; odd sizes work too)
 * Exit status: 0 every frame matches, 1 a frame differs (the first wrong pixel is printed),
 * 2 the pipeline failed (e.g. no OpenCL device: the element's error is printed) or bad usage.
 */

#include <stdlib.h>
#include <string.h>
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#define N_FRAMES 5
/* the longest wait for one output frame; the first one may include compiling the kernel */
#define PULL_TIMEOUT (10 * GST_SECOND)

enum
{
  EXIT_MATCH = 0,
  EXIT_MISMATCH = 1,
  EXIT_PIPELINE = 2
};

/* Frame n's pixels in tight rows (row y starts at y * width), the same on every run. */
static void
make_pixels (guint8 * pix, gint width, gint height, guint n)
{
  guint32 state = 0x9e3779b9u + n * 0x85ebca6bu;        /* xorshift32, never 0 here */
  gint i;

  for (i = 0; i < width * height; i++) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    pix[i] = state >> 24;
  }
}

/* What the element should output at (x, y): the mean of the 3x3 neighbourhood, rounded to
 * nearest. border=clamp makes up the pixels outside the frame by repeating the edge pixel,
 * i.e. it clamps the coordinates into the frame. */
static gint
box3_reference (const guint8 * pix, gint width, gint height, gint x, gint y)
{
  gint sum = 0, dx, dy;

  for (dy = -1; dy <= 1; dy++)
    for (dx = -1; dx <= 1; dx++)
      sum += pix[CLAMP (y + dy, 0, height - 1) * width + CLAMP (x + dx, 0, width - 1)];
  return (sum + 4) / 9;
}

/* Prints the first error message on the pipeline's bus; TRUE if there was one. */
static gboolean
report_bus_error (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  GError *err = NULL;
  gchar *debug = NULL;

  gst_object_unref (bus);
  if (!msg)
    return FALSE;
  gst_message_parse_error (msg, &err, &debug);
  g_printerr ("error from %s: %s\n", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message);
  if (debug)
    g_printerr ("(details: %s)\n", debug);
  g_error_free (err);
  g_free (debug);
  gst_message_unref (msg);
  return TRUE;
}

/* Wraps frame n's pixels in a buffer laid out as the caps say and hands it to appsrc. */
static GstFlowReturn
push_frame (GstAppSrc * src, const GstVideoInfo * info, const guint8 * pix, guint n)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);
  GstVideoFrame frame;
  gint y;

  if (!gst_video_frame_map (&frame, info, buf, GST_MAP_WRITE)) {
    gst_buffer_unref (buf);
    return GST_FLOW_ERROR;
  }
  /* the caps' layout pads rows to 4 bytes (an odd width has a stride above it): copy each row */
  for (y = 0; y < GST_VIDEO_INFO_HEIGHT (info); y++)
    memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), pix + y * GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_WIDTH (info));
  gst_video_frame_unmap (&frame);

  GST_BUFFER_PTS (buf) = gst_util_uint64_scale (n, GST_SECOND, 30);
  GST_BUFFER_DURATION (buf) = gst_util_uint64_scale (1, GST_SECOND, 30);
  return gst_app_src_push_buffer (src, buf);    /* takes the buffer */
}

/* Compares an output sample with the reference for input pix; prints one line and returns
 * TRUE when every pixel is within 1 of it. */
static gboolean
check_frame (GstSample * sample, const guint8 * pix, gint width, gint height, guint n)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  const guint8 *data;
  gint stride, x, y, max_diff = 0, bad = 0, bad_x = 0, bad_y = 0, bad_got = 0, bad_want = 0;

  /* the output's layout: its caps, or the buffer's GstVideoMeta where it has one (a producer
   * may pad rows beyond what the caps imply); gst_video_frame_map takes care of both */
  if (!gst_video_info_from_caps (&info, gst_sample_get_caps (sample)) ||
      !gst_video_frame_map (&frame, &info, gst_sample_get_buffer (sample), GST_MAP_READ)) {
    g_printerr ("frame %u: cannot map the output buffer\n", n);
    return FALSE;
  }
  if (GST_VIDEO_FRAME_WIDTH (&frame) != width || GST_VIDEO_FRAME_HEIGHT (&frame) != height) {
    g_printerr ("frame %u: output is %dx%d, input was %dx%d\n", n,
        GST_VIDEO_FRAME_WIDTH (&frame), GST_VIDEO_FRAME_HEIGHT (&frame), width, height);
    gst_video_frame_unmap (&frame);
    return FALSE;
  }

  data = GST_VIDEO_FRAME_PLANE_DATA (&frame, 0);
  stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
  for (y = 0; y < height; y++) {
    for (x = 0; x < width; x++) {
      gint got = data[y * stride + x];
      gint want = box3_reference (pix, width, height, x, y);
      gint diff = ABS (got - want);

      max_diff = MAX (max_diff, diff);
      /* 1 LSB of rounding difference is allowed (the device computes in float) */
      if (diff > 1 && bad++ == 0) {
        bad_x = x;
        bad_y = y;
        bad_got = got;
        bad_want = want;
      }
    }
  }
  gst_video_frame_unmap (&frame);

  if (bad) {
    g_printerr ("frame %u: MISMATCH at %d pixels, first at x=%d y=%d: got %d, expected %d\n",
        n, bad, bad_x, bad_y, bad_got, bad_want);
    return FALSE;
  }
  g_print ("frame %u: ok (%dx%d, stride %d, largest difference %d)\n", n, width, height,
      stride, max_diff);
  return TRUE;
}

int
main (int argc, char **argv)
{
  gint width = 64, height = 48;
  GstElement *pipeline, *src, *sink;
  GstCaps *caps;
  GstVideoInfo info;
  GstSample *sample;
  GError *err = NULL;
  guint8 *pix;
  guint n, received = 0;
  int status = EXIT_MATCH;

  gst_init (&argc, &argv);
  if (argc == 3) {
    width = atoi (argv[1]);
    height = atoi (argv[2]);
  }
  if ((argc != 1 && argc != 3) || width < 1 || height < 1 || width > 8192 || height > 8192) {
    g_printerr ("usage: %s [WIDTH HEIGHT]\n", argv[0]);
    return EXIT_PIPELINE;
  }

  /* sync=false: take frames as fast as they come instead of at 30 frames per second */
  pipeline = gst_parse_launch ("appsrc name=src format=time "
      "! clconvolve kernel=box size=3 border=clamp "
      "! appsink name=sink sync=false", &err);
  if (err) {
    /* e.g. "no element clconvolve": the plugin is not on GST_PLUGIN_PATH */
    g_printerr ("cannot build the pipeline: %s\n", err->message);
    g_error_free (err);
    if (pipeline)
      gst_object_unref (pipeline);
    return EXIT_PIPELINE;
  }
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");

  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, "GRAY8",
      "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
  gst_video_info_from_caps (&info, caps);
  gst_app_src_set_caps (GST_APP_SRC (src), caps);
  gst_caps_unref (caps);
  pix = g_malloc ((gsize) width * height);

  /* the element opens its OpenCL device here: without one this fails with an error message
   * on the bus */
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    if (!report_bus_error (pipeline))
      g_printerr ("the pipeline did not start\n");
    status = EXIT_PIPELINE;
    goto done;
  }

  /* every frame, then end-of-stream: appsrc queues them and the element takes them in order */
  for (n = 0; n < N_FRAMES; n++) {
    make_pixels (pix, width, height, n);
    if (push_frame (GST_APP_SRC (src), &info, pix, n) != GST_FLOW_OK) {
      g_printerr ("appsrc refused frame %u\n", n);
      status = EXIT_PIPELINE;
      goto done;
    }
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));

  /* the filtered frames, in the order they went in; NULL at end-of-stream, or after the
   * timeout when something went wrong (never blocks for ever) */
  while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), PULL_TIMEOUT))) {
    if (received >= N_FRAMES) {
      g_printerr ("more output frames than the %d pushed\n", N_FRAMES);
      status = EXIT_MISMATCH;
    } else {
      /* the input again: make_pixels gives the same pixels for the same frame number */
      make_pixels (pix, width, height, received);
      if (!check_frame (sample, pix, width, height, received))
        status = EXIT_MISMATCH;
    }
    received++;
    gst_sample_unref (sample);
  }

  if (report_bus_error (pipeline)) {
    status = EXIT_PIPELINE;
  } else if (!gst_app_sink_is_eos (GST_APP_SINK (sink))) {
    g_printerr ("no output frame within %d s after frame %u\n",
        (gint) (PULL_TIMEOUT / GST_SECOND), received);
    status = EXIT_PIPELINE;
  } else if (received != N_FRAMES) {
    g_printerr ("%u output frames for %d input frames\n", received, N_FRAMES);
    status = EXIT_MISMATCH;
  }

done:
  if (status == EXIT_MATCH)
    g_print ("all %d frames match the reference\n", N_FRAMES);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (pix);
  return status;
}
