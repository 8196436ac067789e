/* clconvolve-gaps: the longest wait for an output frame while settings change live
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Plays
 *   appsrc is-live=true format=time max-buffers=2 block=true (video/x-raw RGBA WxH F/1)
 *   ! clconvolve kernel=gaussian size=7 method=auto ! appsink sync=false
 * pushing frames paced in real time (frame n at the first push + n/F; a push that is late,
 * because downstream held the pusher back, goes at once: no frame is skipped, so after a stall
 * the frames and changes come as fast as the element takes them until the pusher catches up).
 * Every --every frames, right before a push, the pushing thread applies the next change of a
 * schedule: sizes, kernels, methods, motionblur angles, then a switch of appsrc's caps to NV12
 * and back to RGBA (a renegotiation). The element must never stall the stream: the figure is
 * the worst gap between two consecutive output frames. A gap is counted against the last change
 * applied before the output that ends it (so a stall on a frame queued before the change
 * counts too).
 *
 * Prints one JSON line {"kind":"gaps", ...} on stdout: first_frame_ms (first push to first
 * output), worst_gap_ms and the change it followed, median_gap_ms, frames in and out, total
 * time, the latency of the frames after the first (each frame's output time less its push
 * time: latency_ms_median, _p95, _max), the element's stats structure, and per change: the frame it preceded, the time setting
 * it took in the pushing thread, its worst gap (-1 here and elsewhere: none). A readable table
 * goes to stderr. Exits 0 unless the pipeline failed or frames were lost or reordered (1, with
 * the reason; 2: bad options).
 *
 *   GST_PLUGIN_PATH_1_0=$PWD/build/gst build/tests/bench/clconvolve-gaps --res 640x480 --every 30
 * tests/bench/gaps.sh runs it with empty caches, then again with the caches it filled.
 * With --schedule "" nothing changes: tests/bench/latency.sh measures the latency a live
 * stream sees that way (--format, --extra kernel=identity for the pipeline without filtering). */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <gst/app/app.h>
#include <gst/video/video.h>
#include <math.h>

#include "benchframes.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_BUFFERS 3             /* pre-filled frames per format, pushed in turn */
#define START_SETTINGS "kernel=gaussian size=7 method=auto"

/* The changes, in order: properties of clconvolve separated by spaces (one change may set
 * several); format=F is special: appsrc's caps switch to format F at the same size. */
static const gchar *default_schedule[] = {
  "size=9", "size=13", "kernel=box", "size=5", "method=vector", "method=tiled", "method=auto",
  "kernel=motionblur size=7 angle=0", "angle=30", "angle=45", "angle=90",
  "format=NV12", "format=RGBA", NULL
};

typedef struct
{
  gint width, height, fps, every;
  gdouble timeout;
  gchar *res, *schedule, *device, *extra, *format;
} Options;

static Options opt;

typedef struct
{
  gchar *label;                 /* as given, e.g. "kernel=motionblur size=7 angle=0" */
  gchar **props, **values;      /* clconvolve properties to set (none for a format switch) */
  gchar *format;                /* switch appsrc's caps to this format, or NULL */
  guint frame;                  /* applied right before pushing this frame */
  gint64 t_us;                  /* when it was applied; 0: never reached */
  gdouble set_ms;               /* time applying it took in the pushing thread */
  gdouble worst_ms;             /* worst gap counted against it; -1: none */
  guint outputs;                /* outputs counted against it */
} Change;

/* The pre-filled frames of one format */
typedef struct
{
  gchar *format;
  GstCaps *caps;
  GstBuffer *bufs[N_BUFFERS];
} FrameSet;

typedef struct
{
  gint64 t_us;
  GstClockTime pts;
} Output;

static GstElement *pipeline, *src, *conv, *sink;
static GPtrArray *changes;      /* Change *; [0] is the start */
static GPtrArray *frame_sets;   /* FrameSet * */
static GMainLoop *loop;
static GThread *pusher;
static gint stopping;           /* atomic: the pusher stops at once */
static guint frames_total, pushed, late_pushes;
static gint64 push_t0;          /* first push */
static gint64 *push_t;          /* each frame's push, by frame number */

static GMutex lock;             /* guards the outputs, written by the streaming thread */
static GArray *outputs;         /* Output */
static guint reordered;

static gchar *failure;          /* why the run failed; NULL: it did not */

/* ------------------------------------------------------------------ helpers */

static gint
dcmp (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return x < y ? -1 : x > y;
}

static gchar *
json_escape (const gchar * s)
{
  GString *o = g_string_new (NULL);

  for (; s && *s; s++) {
    if (*s == '"' || *s == '\\')
      g_string_append_c (o, '\\');
    if ((guchar) * s < 0x20)
      g_string_append_printf (o, "\\u%04x", (guchar) * s);
    else
      g_string_append_c (o, *s);
  }
  return g_string_free (o, FALSE);
}

/* Records the first failure and ends the main loop; callable from any thread via an idle. */
static gboolean
fail_idle (gpointer why)
{
  if (!failure)
    failure = why;
  else
    g_free (why);
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

/* The frames of format, made and filled on the first call (before the clock starts) */
static FrameSet *
frame_set (const gchar * format)
{
  FrameSet *fs;
  GstVideoInfo info;

  for (guint i = 0; i < frame_sets->len; i++) {
    fs = g_ptr_array_index (frame_sets, i);
    if (!strcmp (fs->format, format))
      return fs;
  }
  fs = g_new0 (FrameSet, 1);
  fs->format = g_strdup (format);
  fs->caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, format,
      "width", G_TYPE_INT, opt.width, "height", G_TYPE_INT, opt.height,
      "framerate", GST_TYPE_FRACTION, opt.fps, 1, NULL);
  gst_video_info_from_caps (&info, fs->caps);
  for (gint i = 0; i < N_BUFFERS; i++) {
    fs->bufs[i] = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
    bench_fill_random (fs->bufs[i], 1 + i + 16 * frame_sets->len);
  }
  g_ptr_array_add (frame_sets, fs);
  return fs;
}

static void
frame_set_free (gpointer data)
{
  FrameSet *fs = data;

  for (gint i = 0; i < N_BUFFERS; i++)
    gst_buffer_unref (fs->bufs[i]);
  gst_caps_unref (fs->caps);
  g_free (fs->format);
  g_free (fs);
}

static void
change_free (gpointer data)
{
  Change *c = data;

  g_free (c->label);
  g_strfreev (c->props);
  g_strfreev (c->values);
  g_free (c->format);
  g_free (c);
}

/* ------------------------------------------------------------------ the schedule */

/* Parses "prop=value prop=value ..." (format=F: a caps switch) into a change, checking the
 * properties on conv; NULL with a message when one is wrong. */
static Change *
parse_change (const gchar * text)
{
  Change *c = g_new0 (Change, 1);
  gchar **words = g_strsplit_set (text, " \t", -1);
  GPtrArray *props = g_ptr_array_new (), *values = g_ptr_array_new ();
  gboolean ok = TRUE;

  c->label = g_strstrip (g_strdup (text));
  c->worst_ms = -1;
  for (gchar ** w = words; *w && ok; w++) {
    gchar *eq = strchr (*w, '=');
    GParamSpec *ps;

    if (!**w)
      continue;
    if (!eq || eq == *w) {
      g_printerr ("gaps: '%s' is not prop=value\n", *w);
      ok = FALSE;
      break;
    }
    *eq = '\0';
    if (!strcmp (*w, "format")) {
      ok = gst_video_format_from_string (eq + 1) != GST_VIDEO_FORMAT_UNKNOWN;
      if (!ok)
        g_printerr ("gaps: unknown video format '%s'\n", eq + 1);
      g_free (c->format);
      c->format = g_strdup (eq + 1);
      continue;
    }
    ps = g_object_class_find_property (G_OBJECT_GET_CLASS (conv), *w);
    if (!ps || !(ps->flags & G_PARAM_WRITABLE)) {
      g_printerr ("gaps: clconvolve has no writable property '%s'\n", *w);
      ok = FALSE;
      break;
    }
    g_ptr_array_add (props, g_strdup (*w));
    g_ptr_array_add (values, g_strdup (eq + 1));
  }
  g_strfreev (words);
  g_ptr_array_add (props, NULL);
  g_ptr_array_add (values, NULL);
  c->props = (gchar **) g_ptr_array_free (props, FALSE);
  c->values = (gchar **) g_ptr_array_free (values, FALSE);
  if (!ok || (!c->props[0] && !c->format)) {
    if (ok)
      g_printerr ("gaps: empty change in the schedule\n");
    change_free (c);
    return NULL;
  }
  return c;
}

/* Sets the change's properties (from the pushing thread); returns the frames to push next. */
static FrameSet *
apply_change (Change * c, FrameSet * current)
{
  gint64 t = g_get_monotonic_time ();

  for (gint i = 0; c->props[i]; i++)
    gst_util_set_object_arg (G_OBJECT (conv), c->props[i], c->values[i]);
  if (c->format) {
    /* appsrc queues the caps with the buffers: the new caps go out before the next frame */
    current = frame_set (c->format);
    gst_app_src_set_caps (GST_APP_SRC (src), current->caps);
  }
  c->t_us = t;
  c->set_ms = (g_get_monotonic_time () - t) / 1e3;
  return current;
}

/* ------------------------------------------------------------------ threads */

static gpointer
push_frames (gpointer data)
{
  FrameSet *fs = frame_set (opt.format);
  guint next = 1;               /* the next change in changes */
  GstFlowReturn ret = GST_FLOW_OK;
  gint64 period = G_USEC_PER_SEC / opt.fps;

  for (guint n = 0; n < frames_total && !g_atomic_int_get (&stopping); n++) {
    GstBuffer *buf;
    gint64 due = push_t0 + (gint64) gst_util_uint64_scale (n, G_USEC_PER_SEC, opt.fps);
    gint64 now = g_get_monotonic_time ();

    /* real-time pacing; a late frame goes at once */
    while (n > 0 && now < due && !g_atomic_int_get (&stopping)) {
      g_usleep (MIN (due - now, 20000));
      now = g_get_monotonic_time ();
    }
    if (n > 0 && now - due > period)
      late_pushes++;
    if (next < changes->len && ((Change *) g_ptr_array_index (changes, next))->frame == n)
      fs = apply_change (g_ptr_array_index (changes, next++), fs);

    /* a new buffer sharing the filled memory: its own timestamps */
    buf = gst_buffer_copy (fs->bufs[n % N_BUFFERS]);
    GST_BUFFER_PTS (buf) = gst_util_uint64_scale (n, GST_SECOND, opt.fps);
    GST_BUFFER_DURATION (buf) = gst_util_uint64_scale (n + 1, GST_SECOND, opt.fps) -
        GST_BUFFER_PTS (buf);
    push_t[n] = g_get_monotonic_time ();
    if (n == 0) {
      push_t0 = push_t[n];
      ((Change *) g_ptr_array_index (changes, 0))->t_us = push_t0;
    }
    ret = gst_app_src_push_buffer (GST_APP_SRC (src), buf);
    if (ret != GST_FLOW_OK)
      break;
    pushed++;
  }
  if (ret != GST_FLOW_OK && !g_atomic_int_get (&stopping))
    g_idle_add (fail_idle, g_strdup_printf ("push of frame %u: %s", pushed,
            gst_flow_get_name (ret)));
  else if (!g_atomic_int_get (&stopping))
    gst_app_src_end_of_stream (GST_APP_SRC (src));
  return NULL;
}

/* The streaming thread: the time of each output, in order */
static GstFlowReturn
on_sample (GstAppSink * appsink, gpointer data)
{
  GstSample *sample = gst_app_sink_pull_sample (appsink);
  Output o = { g_get_monotonic_time (), GST_CLOCK_TIME_NONE };

  if (!sample)
    return GST_FLOW_FLUSHING;
  o.pts = GST_BUFFER_PTS (gst_sample_get_buffer (sample));
  g_mutex_lock (&lock);
  if (outputs->len > 0) {
    GstClockTime last = g_array_index (outputs, Output, outputs->len - 1).pts;

    if (!GST_CLOCK_TIME_IS_VALID (o.pts) || !GST_CLOCK_TIME_IS_VALID (last) || o.pts <= last)
      reordered++;
  }
  g_array_append_val (outputs, o);
  g_mutex_unlock (&lock);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

static gboolean
on_bus (GstBus * bus, GstMessage * msg, gpointer data)
{
  GError *err = NULL;
  gchar *dbg = NULL;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:
      gst_message_parse_error (msg, &err, &dbg);
      fail_idle (g_strdup_printf ("error from %s: %s\n%s",
              GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message, dbg ? dbg : ""));
      g_error_free (err);
      g_free (dbg);
      break;
    case GST_MESSAGE_WARNING:
      gst_message_parse_warning (msg, &err, NULL);
      g_printerr ("gaps: warning from %s: %s\n", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)),
          err->message);
      g_error_free (err);
      break;
    case GST_MESSAGE_EOS:
      g_main_loop_quit (loop);
      break;
    default:
      break;
  }
  return TRUE;
}

static gboolean
on_timeout (gpointer data)
{
  guint n;

  g_mutex_lock (&lock);
  n = outputs->len;
  g_mutex_unlock (&lock);
  fail_idle (g_strdup_printf ("timed out after %.0f s (%u frames pushed, %u out)",
          opt.timeout, pushed, n));
  return G_SOURCE_REMOVE;
}

/* ------------------------------------------------------------------ results */

/* Counts each gap against its change; returns the gaps (ms), sorted */
static GArray *
measure_gaps (gdouble * worst, guint * worst_change)
{
  GArray *gaps = g_array_new (FALSE, FALSE, sizeof (gdouble));
  guint c = 0;

  *worst = -1;
  *worst_change = 0;
  for (guint i = 0; i < outputs->len; i++) {
    gint64 t = g_array_index (outputs, Output, i).t_us;
    Change *ch;
    gdouble gap;

    /* the last change applied before this output */
    while (c + 1 < changes->len) {
      Change *n = g_ptr_array_index (changes, c + 1);
      if (!n->t_us || n->t_us >= t)
        break;
      c++;
    }
    ch = g_ptr_array_index (changes, c);
    ch->outputs++;
    if (i == 0)
      continue;
    gap = (t - g_array_index (outputs, Output, i - 1).t_us) / 1e3;
    g_array_append_val (gaps, gap);
    ch->worst_ms = MAX (ch->worst_ms, gap);
    if (gap > *worst) {
      *worst = gap;
      *worst_change = c;
    }
  }
  g_array_sort (gaps, dcmp);
  return gaps;
}

/* The latency of each output but the first (its time less its frame's push), in ms, sorted */
static GArray *
measure_latency (void)
{
  GArray *lat = g_array_new (FALSE, FALSE, sizeof (gdouble));

  for (guint i = 1; i < outputs->len; i++) {
    Output *o = &g_array_index (outputs, Output, i);
    guint64 n = gst_util_uint64_scale_round (o->pts, opt.fps, GST_SECOND);
    gdouble ms;

    if (!GST_CLOCK_TIME_IS_VALID (o->pts) || n >= frames_total || !push_t[n])
      continue;
    ms = (o->t_us - push_t[n]) / 1e3;
    g_array_append_val (lat, ms);
  }
  g_array_sort (lat, dcmp);
  return lat;
}

/* The q-quantile of sorted values (nearest rank); -1 when there are none */
static gdouble
quantile (GArray * sorted, gdouble q)
{
  guint i;

  if (!sorted->len)
    return -1;
  i = (guint) ceil (q * sorted->len);
  return g_array_index (sorted, gdouble, CLAMP (i, 1, sorted->len) - 1);
}

static void
report (GstStructure * stats, const gchar * device_name)
{
  gdouble worst, median = NAN, first_ms = NAN, total_s = NAN, period = 1e3 / opt.fps;
  guint worst_change, long_gaps = 0;
  gint width = 34;
  GArray *gaps = measure_gaps (&worst, &worst_change);
  GArray *lat = measure_latency ();
  gchar *stats_text = stats ? gst_structure_to_string (stats) : g_strdup ("");
  gchar *esc;
  const gchar *worst_label = worst >= 0 ?
      ((Change *) g_ptr_array_index (changes, worst_change))->label : "";
  GString *j = g_string_new (NULL);

  if (gaps->len)
    median = gaps->len % 2 ? g_array_index (gaps, gdouble, gaps->len / 2) :
        0.5 * (g_array_index (gaps, gdouble, gaps->len / 2 - 1) +
        g_array_index (gaps, gdouble, gaps->len / 2));
  for (guint i = 0; i < gaps->len; i++)
    long_gaps += g_array_index (gaps, gdouble, i) > 2 * period;
  if (outputs->len) {
    first_ms = (g_array_index (outputs, Output, 0).t_us - push_t0) / 1e3;
    total_s = (g_array_index (outputs, Output, outputs->len - 1).t_us - push_t0) / 1e6;
  }

  /* JSON on stdout */
  g_string_append_printf (j, "{\"kind\":\"gaps\",\"width\":%d,\"height\":%d,\"fps\":%d,"
      "\"format\":\"%s\",\"extra\":\"%s\",\"every\":%d,\"device\":\"%s\",", opt.width,
      opt.height, opt.fps, opt.format, opt.extra ? opt.extra : "", opt.every,
      esc = json_escape (device_name));
  g_free (esc);
  g_string_append_printf (j, "\"frames_in\":%u,\"frames_out\":%u,\"reordered\":%u,"
      "\"late_pushes\":%u,\"first_frame_ms\":%.3f,\"worst_gap_ms\":%.3f,"
      "\"worst_after\":\"%s\",\"median_gap_ms\":%.3f,\"frame_period_ms\":%.3f,"
      "\"gaps_over_2_periods\":%u,\"total_s\":%.3f,\"latency_ms_median\":%.3f,"
      "\"latency_ms_p95\":%.3f,\"latency_ms_max\":%.3f,\"changes\":[", pushed, outputs->len,
      reordered, late_pushes, isnan (first_ms) ? -1.0 : first_ms, worst,
      esc = json_escape (worst_label), isnan (median) ? -1.0 : median, period, long_gaps,
      isnan (total_s) ? -1.0 : total_s, quantile (lat, 0.5), quantile (lat, 0.95),
      quantile (lat, 1.0));
  g_free (esc);
  for (guint i = 0; i < changes->len; i++) {
    Change *c = g_ptr_array_index (changes, i);

    g_string_append_printf (j, "%s{\"change\":\"%s\",\"frame\":%u,\"applied\":%s,"
        "\"set_ms\":%.3f,\"outputs\":%u,\"worst_gap_ms\":%.3f}", i ? "," : "",
        esc = json_escape (c->label), c->frame, c->t_us ? "true" : "false", c->set_ms,
        c->outputs, c->worst_ms);
    g_free (esc);
  }
  g_string_append_printf (j, "],\"stats\":\"%s\",\"ok\":%s,\"failure\":",
      esc = json_escape (stats_text), failure ? "false" : "true");
  g_free (esc);
  if (failure)
    g_string_append_printf (j, "\"%s\"}", esc = json_escape (failure));
  else
    g_string_append (j, "null}");
  g_print ("%s\n", j->str);
  fflush (stdout);
  g_string_free (j, TRUE);

  /* the table on stderr */
  g_printerr ("\nclconvolve-gaps: %dx%d %s at %d/1, a change every %d frames, device %s\n",
      opt.width, opt.height, opt.format, opt.fps, opt.every, device_name);
  for (guint i = 0; i < changes->len; i++)
    width = MAX (width, (gint) strlen (((Change *) g_ptr_array_index (changes, i))->label));
  g_printerr ("  %-*s %6s %9s %8s %13s\n", width, "change (the first line: the start)",
      "frame", "set ms", "outputs", "worst gap ms");
  for (guint i = 0; i < changes->len; i++) {
    Change *c = g_ptr_array_index (changes, i);
    gchar *set = i && c->t_us ? g_strdup_printf ("%.2f", c->set_ms) : g_strdup ("-");

    if (c->worst_ms >= 0)
      g_printerr ("  %-*s %6u %9s %8u %13.1f%s\n", width, c->label, c->frame, set, c->outputs,
          c->worst_ms, i == worst_change ? "  <- worst" : "");
    else
      g_printerr ("  %-*s %6u %9s %8u %13s\n", width, c->label, c->frame, set, c->outputs,
          "-");
    g_free (set);
  }
  g_printerr ("frames in %u, out %u%s; first frame %.1f ms; worst gap %.1f ms after \"%s\"; "
      "median gap %.1f ms (period %.1f ms), %u gaps over 2 periods, %u late pushes; %.1f s\n",
      pushed, outputs->len, reordered ? ", REORDERED" : ", in order", first_ms, worst,
      worst_label, median, period, long_gaps, late_pushes, total_s);
  g_printerr ("latency after the first frame: median %.2f ms, p95 %.2f ms, max %.2f ms\n",
      quantile (lat, 0.5), quantile (lat, 0.95), quantile (lat, 1.0));
  g_printerr ("stats: %s\n", stats_text);
  g_free (stats_text);
  g_array_free (gaps, TRUE);
  g_array_free (lat, TRUE);
}

/* ------------------------------------------------------------------ main */

int
main (int argc, char **argv)
{
  GError *err = NULL;
  GOptionEntry entries[] = {
    {"res", 'r', 0, G_OPTION_ARG_STRING, &opt.res, "Frame size (default 640x480)", "WxH"},
    {"fps", 'f', 0, G_OPTION_ARG_INT, &opt.fps, "Frame rate, frames pushed per second "
          "(default 30)", "N"},
    {"every", 'e', 0, G_OPTION_ARG_INT, &opt.every, "Frames between changes (default 30)",
        "N"},
    {"schedule", 's', 0, G_OPTION_ARG_STRING, &opt.schedule,
          "Comma list of changes instead of the built-in one; a change is one or more "
          "prop=value separated by spaces, format=F switches the caps (e.g. "
          "\"size=9,kernel=box size=5,format=NV12\")", "LIST"},
    {"device", 'd', 0, G_OPTION_ARG_STRING, &opt.device, "clconvolve's device property",
        "SPEC"},
    {"extra", 'x', 0, G_OPTION_ARG_STRING, &opt.extra,
        "More clconvolve properties set before the start", "\"prop=value ...\""},
    {"format", 'F', 0, G_OPTION_ARG_STRING, &opt.format,
        "Video format of the frames at the start (default RGBA)", "F"},
    {"timeout", 't', 0, G_OPTION_ARG_DOUBLE, &opt.timeout,
        "Give up after this many seconds (default 600)", "S"},
    {NULL}
  };
  GOptionContext *octx =
      g_option_context_new ("- clconvolve: worst output gap under live setting changes");
  gchar **items;
  Change *start;
  GstAppSinkCallbacks callbacks = { NULL };
  GstBus *bus;
  GstStructure *stats = NULL;
  gchar *device_name = NULL;

  opt.fps = 30;
  opt.every = 30;
  opt.timeout = 600;
  g_option_context_add_main_entries (octx, entries, NULL);
  g_option_context_add_group (octx, gst_init_get_option_group ());
  if (!g_option_context_parse (octx, &argc, &argv, &err)) {
    g_printerr ("gaps: %s\n", err->message);
    return 2;
  }
  g_option_context_free (octx);
  if (!opt.format)
    opt.format = g_strdup ("RGBA");
  if (sscanf (opt.res ? opt.res : "640x480", "%dx%d", &opt.width, &opt.height) != 2
      || opt.width < 1 || opt.height < 1 || opt.fps < 1 || opt.every < 1 || opt.timeout <= 0
      || gst_video_format_from_string (opt.format) == GST_VIDEO_FORMAT_UNKNOWN) {
    g_printerr ("gaps: bad option value (see --help)\n");
    return 2;
  }

  pipeline = gst_pipeline_new ("gaps");
  src = gst_element_factory_make ("appsrc", "src");
  conv = gst_element_factory_make ("clconvolve", "c");
  sink = gst_element_factory_make ("appsink", "sink");
  if (!src || !conv || !sink) {
    g_printerr ("gaps: missing element%s%s%s (GST_PLUGIN_PATH_1_0=$PWD/build/gst?)\n",
        src ? "" : " appsrc", conv ? "" : " clconvolve", sink ? "" : " appsink");
    return 1;
  }
  gst_bin_add_many (GST_BIN (pipeline), src, conv, sink, NULL);
  gst_element_link_many (src, conv, sink, NULL);

  /* the start settings, then the changes, each --every frames apart */
  changes = g_ptr_array_new_with_free_func (change_free);
  start = parse_change (START_SETTINGS);
  g_ptr_array_add (changes, start);
  /* --schedule "": no change at all */
  items = !opt.schedule ? g_strdupv ((gchar **) default_schedule) :
      *opt.schedule ? g_strsplit (opt.schedule, ",", -1) : g_new0 (gchar *, 1);
  for (gchar ** it = items; *it; it++) {
    Change *c = parse_change (*it);

    if (!c)
      return 2;
    c->frame = changes->len * opt.every;
    g_ptr_array_add (changes, c);
  }
  g_strfreev (items);
  frames_total = changes->len * opt.every;        /* --every more after the last change */
  push_t = g_new0 (gint64, frames_total);

  for (gint i = 0; start->props[i]; i++)
    gst_util_set_object_arg (G_OBJECT (conv), start->props[i], start->values[i]);
  if (opt.extra && *opt.extra) {
    Change *x = parse_change (opt.extra);

    if (!x || x->format) {
      g_printerr ("gaps: --extra takes clconvolve properties only\n");
      return 2;
    }
    for (gint i = 0; x->props[i]; i++)
      gst_util_set_object_arg (G_OBJECT (conv), x->props[i], x->values[i]);
    change_free (x);
  }
  if (opt.device)
    g_object_set (conv, "device", opt.device, NULL);

  /* every frame set is filled now, before the clock starts */
  frame_sets = g_ptr_array_new_with_free_func (frame_set_free);
  frame_set (opt.format);
  for (guint i = 1; i < changes->len; i++)
    if (((Change *) g_ptr_array_index (changes, i))->format)
      frame_set (((Change *) g_ptr_array_index (changes, i))->format);

  g_object_set (src, "caps", frame_set (opt.format)->caps, "is-live", TRUE,
      "format", GST_FORMAT_TIME, "max-buffers", (guint64) 2, "block", TRUE, NULL);
  g_object_set (sink, "sync", FALSE, "enable-last-sample", FALSE, NULL);
  callbacks.new_sample = on_sample;
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &callbacks, NULL, NULL);
  outputs = g_array_new (FALSE, FALSE, sizeof (Output));
  loop = g_main_loop_new (NULL, FALSE);
  bus = gst_element_get_bus (pipeline);
  gst_bus_add_watch (bus, on_bus, NULL);
  gst_object_unref (bus);

  g_printerr ("clconvolve-gaps: %dx%d at %d/1, %u changes every %d frames, %u frames\n",
      opt.width, opt.height, opt.fps, changes->len - 1, opt.every, frames_total);
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    GstMessage *m;

    bus = gst_element_get_bus (pipeline);
    if ((m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR))) {
      on_bus (bus, m, NULL);    /* its error is the reason */
      gst_message_unref (m);
    }
    gst_object_unref (bus);
    if (!failure)
      failure = g_strdup ("the pipeline did not start");
  } else {
    pusher = g_thread_new ("pusher", push_frames, NULL);
    g_timeout_add ((guint) (opt.timeout * 1000), on_timeout, NULL);
    g_main_loop_run (loop);
  }

  /* the stats and device are the element's while it runs */
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (conv), "stats"))
    g_object_get (conv, "stats", &stats, NULL);
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (conv), "device-name"))
    g_object_get (conv, "device-name", &device_name, NULL);
  g_atomic_int_set (&stopping, 1);
  gst_element_set_state (pipeline, GST_STATE_NULL);     /* unblocks a waiting push */
  if (pusher)
    g_thread_join (pusher);

  if (!failure && reordered)
    failure = g_strdup_printf ("%u frames out of order", reordered);
  if (!failure && outputs->len != pushed)
    failure = g_strdup_printf ("%u frames in, %u out", pushed, outputs->len);
  report (stats, device_name ? device_name : "");
  if (failure)
    g_printerr ("gaps: FAILED: %s\n", failure);

  if (stats)
    gst_structure_free (stats);
  g_free (device_name);
  gst_object_unref (pipeline);
  g_ptr_array_free (frame_sets, TRUE);
  g_ptr_array_free (changes, TRUE);
  g_array_free (outputs, TRUE);
  g_free (push_t);
  g_main_loop_unref (loop);
  return failure ? 1 : 0;
}
