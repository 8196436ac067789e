/* clconvolve-bench: element throughput, per-stage device time and the transfer limit
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Prints one JSON object per line (and a readable summary on stderr):
 *   {"kind":"element", ...}   frames/s of an element alone in "appsrc ! ELEMENT ! video/x-raw !
 *                             fakesink" (system memory out),
 *                             the same pipeline without it measured in the same run and removed;
 *                             with --streams N, N such pipelines at once (fps: their total);
 *                             appsrc recycles a few frames filled once, allocated from the pool
 *                             the element proposes; clconvolve also gives per-stage device time
 *   {"kind":"transfer", ...}  pinned host<->device bandwidth on the same OpenCL device, each way
 *                             alone and both at once on two queues, and the frame rates they allow
 *   {"kind":"floor", ...}     device time of one frame copied buffer to buffer on the device
 *                             (profiling events, median of FLOOR_COPIES); measured with "element"
 *                             whenever a record has a kernel time, which then carries
 *                             kernel_floor_ratio = kernel time a frame / that copy
 *   {"kind":"naive", ...}     a plain single-threaded C loop doing the same convolution
 *   {"kind":"process", ...}   peak RSS of this process
 * tests/bench/run-bench drives it (and the peers outside GStreamer) and writes the report. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "gstclcontext.h"
#include "convkernel.h"

#include "benchframes.h"

#define N_POOL_BUFFERS 3
#define WARMUP_FRAMES 3
#define NCOEF_MAX (CONV_MAX_SIZE * CONV_MAX_SIZE)
#define FLOOR_COPIES 20

typedef struct
{
  gchar *element;               /* element description; NULL: clconvolve from the options */
  gchar *format;
  gchar *device;
  gchar **res, **sizes, **methods, **kernels;
  gdouble seconds;              /* measuring time per run */
  gint min_frames, runs;
  gboolean transfer, naive, quick;
  gboolean system_memory;       /* upstream ignores the proposed pool */
  gboolean hand_over;           /* each frame a pool buffer of its own, no reference kept */
  gchar **streams;              /* pipelines run at once in this process, one count per entry */
  gint max_inflight;            /* clconvolve's max-inflight; 0: the element's default */
  gboolean interlaced;          /* caps interlace-mode=interleaved (each field filtered alone) */
  gchar *transfer_together;     /* devices whose transfer limit is measured all at once */
  gint stagger_ms;              /* > 0: streams start one after another, this long apart, while
                                 * the earlier ones push (gaps counted from each first frame) */
  gint regions;                 /* region of interest metas on every frame */
  gint region_side;             /* > 0: every region this side (else the mixed sides) */
  gdouble region_band;          /* (0, 1): the regions in this fraction of the rows, centred */
} Options;

static Options opt;

GST_DEBUG_CATEGORY_STATIC (bench_debug);
#define GST_CAT_DEFAULT bench_debug

/* a gap this long is also written to the debug log (category clconvolve-bench, level INFO),
 * where it sits in time beside what the element logged */
#define LOGGED_GAP_US (10 * G_TIME_SPAN_MILLISECOND)

/* ------------------------------------------------------------------ statistics helpers */

static gint
dcmp (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return x < y ? -1 : x > y;
}

/* {"median":m,"min":a,"max":b} of n values */
static gchar *
summary_json (gdouble * v, gint n)
{
  gdouble med;

  if (n == 0)
    return g_strdup ("null");
  qsort (v, n, sizeof (gdouble), dcmp);
  med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  return g_strdup_printf ("{\"median\":%.6g,\"min\":%.6g,\"max\":%.6g}", med, v[0], v[n - 1]);
}

static gdouble
median_of (gdouble * v, gint n)
{
  if (n == 0)
    return NAN;
  qsort (v, n, sizeof (gdouble), dcmp);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static gdouble
cpu_seconds (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
      1e-6 * (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

/* ------------------------------------------------------------------ pipeline runs */

typedef struct
{
  GMutex lock;
  GCond cond;
  guint64 received;
  gint64 last_us;               /* arrival of the last buffer */
  gint64 worst_gap_us;          /* longest wait between two buffers since gaps were reset */
  gint index;                   /* the stream's, for the debug log */
} Counter;

typedef struct
{
  guint frames;                 /* measured frames, all streams */
  gdouble wall_s, cpu_s;        /* for the measured frames */
  gdouble first_ms;             /* first push to first output (includes program builds) */
  gboolean pooled;              /* frames came from the element's proposed pool */
  GstStructure *stats;          /* clconvolve stats over the measured frames, or NULL */
  gchar *devices;               /* each stream's clconvolve device-index, comma-separated, or
                                 * NULL (another element) */
  /* with several streams: the slowest and fastest stream's frames/s, and the longest gap
   * between two output buffers of one stream while measuring */
  gdouble stream_min_fps, stream_max_fps, worst_gap_ms;
  gdouble *stream_gap_ms;       /* each stream's longest gap (n_streams; free it) */
} RunResult;

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, Counter * c)
{
  gint64 now = g_get_monotonic_time ();

  g_mutex_lock (&c->lock);
  c->received++;
  if (c->last_us && now - c->last_us > c->worst_gap_us)
    c->worst_gap_us = now - c->last_us;
  if (c->last_us && now - c->last_us >= LOGGED_GAP_US)
    GST_INFO ("stream %d: %.1f ms since its last frame", c->index,
        (now - c->last_us) / 1000.0);
  c->last_us = now;
  g_cond_signal (&c->cond);
  g_mutex_unlock (&c->lock);
}

/* Waits until n buffers reached the sink; FALSE on a bus error or after timeout_s. */
static gboolean
wait_for (Counter * c, guint64 n, GstBus * bus, gdouble timeout_s)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (timeout_s * G_USEC_PER_SEC);
  gboolean ok = TRUE;

  g_mutex_lock (&c->lock);
  while (c->received < n && ok) {
    gint64 step = g_get_monotonic_time () + G_USEC_PER_SEC / 10;
    GstMessage *m;

    g_cond_wait_until (&c->cond, &c->lock, MIN (step, deadline));
    m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    if (m) {
      GError *err = NULL;
      gst_message_parse_error (m, &err, NULL);
      g_printerr ("bench: pipeline error: %s\n", err->message);
      g_clear_error (&err);
      gst_message_unref (m);
      ok = FALSE;
    } else if (g_get_monotonic_time () >= deadline) {
      g_printerr ("bench: timed out waiting for frames\n");
      ok = FALSE;
    }
  }
  g_mutex_unlock (&c->lock);
  return ok;
}

static GstStructure *
get_stats (GstElement * f)
{
  GstStructure *st = NULL;

  if (f && g_object_class_find_property (G_OBJECT_GET_CLASS (f), "stats"))
    g_object_get (f, "stats", &st, NULL);
  return st;
}

static guint64
stat_u64 (const GstStructure * st, const gchar * field)
{
  guint64 v = 0;

  if (st)
    gst_structure_get_uint64 (st, field, &v);
  return v;
}

/* opt.regions region of interest metas on b (a frame of w x h), as a face detector gives
 * them: squares of mixed sides (24 to 200 pixels, faces near and far) spread over the frame,
 * some overlapping, the same on every frame. */
static void
add_regions (GstBuffer * b, gint w, gint h)
{
  static const gint sides[] = { 24, 40, 64, 96, 128, 200 };
  guint32 r = 12345;

  for (gint k = 0; k < opt.regions; k++) {
    gint side = MIN (opt.region_side > 0 ? opt.region_side : sides[k % G_N_ELEMENTS (sides)],
        MIN (w, h));

    r = r * 1664525u + 1013904223u;
    gint x = (gint) ((r >> 8) % (guint) (w - side + 1));
    /* the rows the squares may cover: the frame's, or a band across its middle */
    gint band = opt.region_band > 0 && opt.region_band < 1 ?
        MAX ((gint) (h * opt.region_band), side) : h;

    r = r * 1664525u + 1013904223u;
    gint y = (h - band) / 2 + (gint) ((r >> 8) % (guint) (band - side + 1));

    gst_buffer_add_video_region_of_interest_meta (b, k % 3 ? "face" : "plate", x, y, side,
        side);
  }
}

/* One "appsrc ! element ! video/x-raw ! fakesink" pipeline (or "appsrc ! fakesink" when element is NULL)
 * of a run, pushed by a thread of its own while measuring. */
typedef struct
{
  GstElement *pipe, *src, *sink, *f;
  GstBus *bus;
  GstCaps *caps;
  GstBufferPool *pool;
  GstBuffer *bufs[N_POOL_BUFFERS];
  Counter c;
  guint64 pushed;
  gint64 t0;                    /* when every stream starts measuring */
  gint64 end_us;                /* when its last measured frame arrived */
  guint frames;
  gboolean pooled, ok;
  gdouble first_ms;
  /* --stagger: what its own thread starts it with; started: 1 once it streams, -1 failed */
  const gchar *element, *format;
  gint w, h;
  gint started;
  guint64 received_at_t0;
} Stream;

static gboolean
stream_start (Stream * s, const gchar * element, const gchar * format, gint w, gint h)
{
  gchar *desc = element ?
      /* system memory out: fakesink would take memory:CLBuffer and never download it */
      g_strdup_printf ("appsrc name=src ! %s name=f ! video/x-raw ! fakesink name=sink "
      "sync=false signal-handoffs=true", element) :
      g_strdup ("appsrc name=src ! fakesink name=sink sync=false signal-handoffs=true");
  GError *err = NULL;
  GstVideoInfo info;
  gint64 t0;

  g_mutex_init (&s->c.lock);
  g_cond_init (&s->c.cond);
  s->w = w;
  s->h = h;
  s->pipe = gst_parse_launch (desc, &err);
  if (!s->pipe) {
    g_printerr ("bench: cannot build '%s': %s\n", desc, err ? err->message : "?");
    g_clear_error (&err);
    g_free (desc);
    return FALSE;
  }
  g_free (desc);
  s->src = gst_bin_get_by_name (GST_BIN (s->pipe), "src");
  s->sink = gst_bin_get_by_name (GST_BIN (s->pipe), "sink");
  s->f = gst_bin_get_by_name (GST_BIN (s->pipe), "f");
  s->caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, format,
      "width", G_TYPE_INT, w, "height", G_TYPE_INT, h, "framerate", GST_TYPE_FRACTION, 30, 1,
      NULL);
  if (opt.interlaced)
    gst_caps_set_simple (s->caps, "interlace-mode", G_TYPE_STRING, "interleaved", NULL);
  gst_video_info_from_caps (&info, s->caps);
  g_object_set (s->src, "caps", s->caps, "format", GST_FORMAT_TIME, "block", TRUE,
      "max-buffers", (guint64) 2, NULL);
  g_signal_connect (s->sink, "handoff", G_CALLBACK (on_handoff), &s->c);
  s->bus = gst_element_get_bus (s->pipe);
  gst_element_set_state (s->pipe, GST_STATE_PLAYING);

  /* the first frame, in plain memory, negotiates caps and builds the programs */
  s->bufs[0] = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  bench_fill_random (s->bufs[0], 1);
  add_regions (s->bufs[0], w, h);
  t0 = g_get_monotonic_time ();
  /* frames in flight leave once done: one frame comes out alone */
  gst_app_src_push_buffer (GST_APP_SRC (s->src), gst_buffer_ref (s->bufs[0]));
  s->pushed++;
  if (!wait_for (&s->c, s->pushed, s->bus, 600.0))
    return FALSE;
  s->first_ms = (g_get_monotonic_time () - t0) / 1000.0;

  /* then frames from the pool the element proposes, as a decoder would use */
  if (element && !opt.system_memory) {
    GstPad *srcpad = gst_element_get_static_pad (s->src, "src");
    GstPad *peer = gst_pad_get_peer (srcpad);
    GstQuery *q = gst_query_new_allocation (s->caps, TRUE);

    if (gst_pad_query (peer, q) && gst_query_get_n_allocation_pools (q) > 0)
      gst_query_parse_nth_allocation_pool (q, 0, &s->pool, NULL, NULL, NULL);
    if (s->pool && !gst_buffer_pool_set_active (s->pool, TRUE))
      gst_clear_object (&s->pool);
    gst_query_unref (q);
    gst_object_unref (peer);
    gst_object_unref (srcpad);
  } else if (element && opt.hand_over) {
    /* handed over from a pool of plain memory, as a decoder with a pool of its own */
    GstStructure *config;

    s->pool = gst_video_buffer_pool_new ();
    config = gst_buffer_pool_get_config (s->pool);
    gst_buffer_pool_config_set_params (config, s->caps, GST_VIDEO_INFO_SIZE (&info), 0, 0);
    if (!gst_buffer_pool_set_config (s->pool, config)
        || !gst_buffer_pool_set_active (s->pool, TRUE))
      gst_clear_object (&s->pool);
  }
  for (gint i = 0; i < N_POOL_BUFFERS; i++) {
    GstBuffer *b = NULL;

    if (!s->pool || gst_buffer_pool_acquire_buffer (s->pool, &b, NULL) != GST_FLOW_OK)
      b = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
    else
      s->pooled = !opt.system_memory;   /* the element's pool, not the harness's own */
    bench_fill_random (b, 2 + i);
    add_regions (b, w, h);
    gst_clear_buffer (&s->bufs[i]);
    s->bufs[i] = b;
  }

  /* a stream's gaps count from its next frame: the wait since the first one was this
   * harness's own (allocating and filling its frames) */
  g_mutex_lock (&s->c.lock);
  s->c.last_us = s->c.worst_gap_us = 0;
  g_mutex_unlock (&s->c.lock);
  for (gint i = 0; i < WARMUP_FRAMES; i++, s->pushed++)
    gst_app_src_push_buffer (GST_APP_SRC (s->src), gst_buffer_ref (s->bufs[i %
                N_POOL_BUFFERS]));
  return wait_for (&s->c, s->pushed, s->bus, 600.0);
}

/* A stream's pushing thread: frames for opt.seconds (at least opt.min_frames) from s->t0,
 * then waits for all of them. */
static gpointer
stream_push (gpointer data)
{
  Stream *s = data;

  g_mutex_lock (&s->c.lock);
  s->c.worst_gap_us = 0;
  s->c.last_us = s->t0;
  g_mutex_unlock (&s->c.lock);
  /* handed over: the filled frames go back to the pool, which hands them out again */
  for (gint i = 0; opt.hand_over && s->pool && i < N_POOL_BUFFERS; i++)
    gst_clear_buffer (&s->bufs[i]);
  for (guint n = 0;; n++) {
    GstBuffer *b = NULL;

    if (opt.hand_over && s->pool && gst_buffer_pool_acquire_buffer (s->pool, &b, NULL) ==
        GST_FLOW_OK) {
      /* a pool takes a buffer's metas away when it comes back */
      add_regions (b, s->w, s->h);
      gst_app_src_push_buffer (GST_APP_SRC (s->src), b);
    }
    else
      gst_app_src_push_buffer (GST_APP_SRC (s->src), gst_buffer_ref (s->bufs[n %
                  N_POOL_BUFFERS]));
    s->pushed++;
    s->frames++;
    if (s->frames >= (guint) opt.min_frames &&
        g_get_monotonic_time () - s->t0 >= opt.seconds * G_USEC_PER_SEC)
      break;
  }
  s->ok = wait_for (&s->c, s->pushed, s->bus, 600.0);
  s->end_us = g_get_monotonic_time ();
  return NULL;
}

/* --stagger: when every started stream stops pushing (0: not known yet) */
static gint64 stagger_end_us;
static GMutex stagger_lock;

static gint64
stagger_end (void)
{
  gint64 end;

  g_mutex_lock (&stagger_lock);
  end = stagger_end_us;
  g_mutex_unlock (&stagger_lock);
  return end;
}

/* --stagger: a stream's thread starts its pipeline (the others already push), then pushes
 * until stagger_end () and waits for its frames. */
static gpointer
stream_staggered (gpointer data)
{
  Stream *s = data;
  gint64 end;

  if (!stream_start (s, s->element, s->format, s->w, s->h)) {
    g_atomic_int_set (&s->started, -1);
    return NULL;
  }
  g_atomic_int_set (&s->started, 1);
  for (guint n = 0;; n++) {
    gst_app_src_push_buffer (GST_APP_SRC (s->src), gst_buffer_ref (s->bufs[n %
                N_POOL_BUFFERS]));
    s->pushed++;
    end = stagger_end ();
    if (end && g_get_monotonic_time () >= end)
      break;
  }
  s->ok = wait_for (&s->c, s->pushed, s->bus, 600.0);
  s->end_us = g_get_monotonic_time ();
  return NULL;
}

/* --stagger: starts the streams opt.stagger_ms apart, each once the one before streams; then
 * measures opt.seconds from opt.stagger_ms after the last one started. */
static gboolean
run_staggered (Stream * st, GThread ** threads, const gchar * element, const gchar * format,
    gint w, gint h, gint n_streams, gint64 * t0)
{
  gboolean ok = TRUE;

  g_mutex_lock (&stagger_lock);
  stagger_end_us = 0;
  g_mutex_unlock (&stagger_lock);
  for (gint i = 0; i < n_streams; i++) {
    st[i] = (Stream) {.element = element,.format = format,.w = w,.h = h };
    st[i].c.index = i;
  }
  for (gint i = 0; i < n_streams; i++) {
    GST_INFO ("starting stream %d", i);
    threads[i] = g_thread_new ("bench-stagger", stream_staggered, &st[i]);
    while (!g_atomic_int_get (&st[i].started))
      g_usleep (1000);
    if (st[i].started < 0) {
      ok = FALSE;
      break;
    }
    GST_INFO ("stream %d streams", i);
    g_usleep (opt.stagger_ms * G_TIME_SPAN_MILLISECOND);
  }
  *t0 = g_get_monotonic_time ();
  for (gint i = 0; i < n_streams && ok; i++) {
    g_mutex_lock (&st[i].c.lock);
    st[i].received_at_t0 = st[i].c.received;
    g_mutex_unlock (&st[i].c.lock);
  }
  g_mutex_lock (&stagger_lock);
  stagger_end_us = *t0 + (gint64) (opt.seconds * G_USEC_PER_SEC);
  g_mutex_unlock (&stagger_lock);
  return ok;
}

static void
stream_stop (Stream * s)
{
  if (s->src) {
    gst_app_src_end_of_stream (GST_APP_SRC (s->src));
    gst_bus_timed_pop_filtered (s->bus, 10 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  }
  if (s->pipe)
    gst_element_set_state (s->pipe, GST_STATE_NULL);
  for (gint i = 0; i < N_POOL_BUFFERS; i++)
    gst_clear_buffer (&s->bufs[i]);
  if (s->pool) {
    gst_buffer_pool_set_active (s->pool, FALSE);
    gst_object_unref (s->pool);
  }
  gst_clear_caps (&s->caps);
  gst_clear_object (&s->bus);
  gst_clear_object (&s->src);
  gst_clear_object (&s->sink);
  gst_clear_object (&s->f);
  gst_clear_object (&s->pipe);
  g_mutex_clear (&s->c.lock);
  g_cond_clear (&s->c.cond);
}

/* Where each stream's clconvolve went (device-index, comma-separated; device=auto spreads
 * them), or NULL for another element. */
static gchar *
where_streams (Stream * st, gint n_streams)
{
  GString *where;

  if (!st[0].f || !g_object_class_find_property (G_OBJECT_GET_CLASS (st[0].f), "device-index"))
    return NULL;
  where = g_string_new (NULL);
  for (gint i = 0; i < n_streams; i++) {
    gchar *index = NULL;

    g_object_get (st[i].f, "device-index", &index, NULL);
    g_string_append_printf (where, "%s%s", i ? "," : "", index ? index : "?");
    g_free (index);
  }
  return g_string_free (where, FALSE);
}

/* Runs n_streams pipelines (see Stream) at w x h in this process at once, each pushed by its
 * own thread; r gets their total and the first stream's element stats. */
static gboolean
run_once (const gchar * element, const gchar * format, gint w, gint h, gint n_streams,
    RunResult * r)
{
  Stream *st = g_new0 (Stream, n_streams);
  GThread **threads = g_new0 (GThread *, n_streams);
  GstStructure *st0 = NULL, *st1 = NULL;
  gint64 t0 = 0, t1 = 0;
  gdouble cpu0;
  gboolean ok = TRUE;

  memset (r, 0, sizeof (*r));
  r->stream_gap_ms = g_new0 (gdouble, n_streams);
  if (opt.stagger_ms > 0)
    ok = run_staggered (st, threads, element, format, w, h, n_streams, &t0);
  else
    for (gint i = 0; i < n_streams && ok; i++) {
      st[i].c.index = i;
      ok = stream_start (&st[i], element, format, w, h);
    }
  if (ok) {
    r->first_ms = st[0].first_ms;
    r->pooled = st[0].pooled;
    r->devices = where_streams (st, n_streams);
    st0 = get_stats (st[0].f);
  }
  cpu0 = cpu_seconds ();
  if (ok && opt.stagger_ms <= 0) {
    t0 = g_get_monotonic_time ();
    for (gint i = 0; i < n_streams; i++) {
      st[i].t0 = t0;
      threads[i] = g_thread_new ("bench-push", stream_push, &st[i]);
    }
  }

  r->stream_min_fps = G_MAXDOUBLE;
  for (gint i = 0; i < n_streams; i++) {
    gdouble fps;

    if (!threads[i])
      continue;
    g_thread_join (threads[i]);
    ok = ok && st[i].ok;
    if (!ok)
      continue;
    if (opt.stagger_ms > 0)
      /* the frames that came out in the measured window (gaps: since the first frame) */
      st[i].frames = st[i].c.received - st[i].received_at_t0;
    t1 = MAX (t1, st[i].end_us);
    r->frames += st[i].frames;
    fps = st[i].frames / MAX ((st[i].end_us - t0) / 1e6, 1e-9);
    r->stream_min_fps = MIN (r->stream_min_fps, fps);
    r->stream_max_fps = MAX (r->stream_max_fps, fps);
    r->stream_gap_ms[i] = st[i].c.worst_gap_us / 1000.0;
    r->worst_gap_ms = MAX (r->worst_gap_ms, r->stream_gap_ms[i]);
  }
  if (!ok)
    goto done;
  r->cpu_s = cpu_seconds () - cpu0;
  r->wall_s = (t1 - t0) / 1e6;
  st1 = get_stats (st[0].f);
  if (st0 && st1) {
    const gchar *fields[] = { "frames", "upload-ns", "kernel-ns",
      "download-ns", "busy-ns", "overlap-ns", "host-copies"
    };
    const gchar *paths[] = { "input-path", "output-path", "variant" };
    r->stats = gst_structure_new_empty ("delta");
    for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
      gst_structure_set (r->stats, fields[i], G_TYPE_UINT64,
          stat_u64 (st1, fields[i]) - stat_u64 (st0, fields[i]), NULL);
    for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
      if (gst_structure_get_string (st1, paths[i]))
        gst_structure_set (r->stats, paths[i], G_TYPE_STRING,
            gst_structure_get_string (st1, paths[i]), NULL);
  }

done:
  for (gint i = 0; i < n_streams; i++)
    stream_stop (&st[i]);
  if (st0)
    gst_structure_free (st0);
  if (st1)
    gst_structure_free (st1);
  g_free (st);
  g_free (threads);
  return ok;
}

/* ------------------------------------------------------------------ element measurement */

static gchar *
json_escape (const gchar * s)
{
  GString *o = g_string_new (NULL);

  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      g_string_append_c (o, '\\');
    g_string_append_c (o, *s);
  }
  return g_string_free (o, FALSE);
}

static gchar *device_name;      /* of the last clconvolve run */

static gdouble floor_copy_us (gint w, gint h);

/* Per-frame stage figures and host copies from the stats of one run (NULL stats: none). */
static gboolean
stage_figures (RunResult * r, gdouble * up, gdouble * kern, gdouble * down, gdouble * ovl)
{
  guint64 nf;

  if (!r->stats)
    return FALSE;
  nf = MAX (stat_u64 (r->stats, "frames"), 1);
  *up = stat_u64 (r->stats, "upload-ns") / 1e6 / nf;
  *kern = stat_u64 (r->stats, "kernel-ns") / 1e6 / nf;
  *down = stat_u64 (r->stats, "download-ns") / 1e6 / nf;
  *ovl = stat_u64 (r->stats, "overlap-ns") / 1e9 / r->wall_s;
  return TRUE;
}

/* Measures element (or clconvolve with method/kernel/size) opt.runs times at w x h. profiled:
 * the same element with profiling on, run once more for the per-stage figures (profiling events
 * cost the host time, so the timed runs go without them); NULL: the timed runs give them. */
static void
measure_element (const gchar * element, const gchar * profiled, const gchar * label,
    const gchar * method, const gchar * kernel, gint size, gint w, gint h, gint n_streams)
{
  gint runs = opt.runs, n = 0;
  gdouble *smin = g_new0 (gdouble, runs), *smax = g_new0 (gdouble, runs);
  gdouble *gap = g_new0 (gdouble, runs), *run_gap = g_new0 (gdouble, runs);
  gdouble *stream_gap = g_new0 (gdouble, n_streams);
  gdouble *fps = g_new0 (gdouble, runs), *cpu = g_new0 (gdouble, runs);
  gdouble *first = g_new0 (gdouble, runs), *base = g_new0 (gdouble, runs);
  gdouble *up = g_new0 (gdouble, runs), *kern = g_new0 (gdouble, runs);
  gdouble *down = g_new0 (gdouble, runs), *ovl = g_new0 (gdouble, runs);
  gdouble *copies = g_new0 (gdouble, runs);
  gchar *path_in = NULL, *path_out = NULL, *variant = NULL, *devices = NULL;
  gint nstage = 0, ncopies = 0;
  gdouble floor_us = NAN;
  gboolean pooled = FALSE;
  guint frames = 0;
  gchar *s_fps, *s_cpu, *s_first, *s_base, *esc = json_escape (element);

  for (gint i = 0; i < runs; i++) {
    RunResult with, without;
    gdouble per_with, per_without;

    /* the pipeline without the element, in the same run, just before */
    if (!run_once (NULL, opt.format, w, h, n_streams, &without)) {
      g_free (without.stream_gap_ms);
      continue;
    }
    g_free (without.stream_gap_ms);
    if (!run_once (element, opt.format, w, h, n_streams, &with)) {
      g_free (with.devices);
      g_free (with.stream_gap_ms);
      continue;
    }
    per_with = with.wall_s / with.frames;
    per_without = without.wall_s / without.frames;
    fps[n] = 1.0 / MAX (per_with - per_without, 1e-9);
    base[n] = 1.0 / per_without;
    cpu[n] = 1000.0 * (with.cpu_s / with.frames - without.cpu_s / without.frames);
    first[n] = with.first_ms;
    smin[n] = with.stream_min_fps;
    smax[n] = with.stream_max_fps;
    gap[n] = run_gap[n] = with.worst_gap_ms;
    for (gint k = 0; k < n_streams; k++)
      stream_gap[k] = MAX (stream_gap[k], with.stream_gap_ms[k]);
    g_free (with.stream_gap_ms);
    pooled = with.pooled;
    frames += with.frames;
    if (with.stats) {
      guint64 nf = MAX (stat_u64 (with.stats, "frames"), 1);

      if (!profiled && stage_figures (&with, &up[nstage], &kern[nstage], &down[nstage],
              &ovl[nstage]))
        nstage++;
      copies[ncopies++] = (gdouble) stat_u64 (with.stats, "host-copies") / nf;
      if (gst_structure_get_string (with.stats, "variant")) {
        g_free (variant);
        variant = g_strdup (gst_structure_get_string (with.stats, "variant"));
      }
      if (gst_structure_get_string (with.stats, "input-path")) {
        g_free (path_in);
        g_free (path_out);
        path_in = g_strdup (gst_structure_get_string (with.stats, "input-path"));
        path_out = g_strdup (gst_structure_get_string (with.stats, "output-path"));
      }
      gst_structure_free (with.stats);
    }
    if (with.devices) {
      g_free (devices);
      devices = with.devices;
    }
    n++;
  }

  if (profiled && ncopies) {
    RunResult pr;

    nstage = 0;
    if (run_once (profiled, opt.format, w, h, n_streams, &pr) &&
        stage_figures (&pr, &up[0], &kern[0], &down[0], &ovl[0]))
      nstage = 1;
    if (pr.stats)
      gst_structure_free (pr.stats);
    g_free (pr.devices);
    g_free (pr.stream_gap_ms);
  }

  /* the floor of the same frame size, its record before this one */
  if (nstage && median_of (kern, nstage) > 0.0)
    floor_us = floor_copy_us (w, h);

  if (n == 0) {
    g_print ("{\"kind\":\"element\",\"element\":\"%s\",\"label\":\"%s\",\"width\":%d,"
        "\"height\":%d,\"error\":\"no run completed\"}\n", esc, label, w, h);
    goto out;
  }
  s_fps = summary_json (fps, n);
  s_cpu = summary_json (cpu, n);
  s_first = summary_json (first, n);
  s_base = summary_json (base, n);
  g_print ("{\"kind\":\"element\",\"element\":\"%s\",\"label\":\"%s\",\"device\":\"%s\","
      "\"method\":\"%s\",\"kernel\":\"%s\",\"size\":%d,\"width\":%d,\"height\":%d,"
      "\"format\":\"%s\",\"runs\":%d,\"frames\":%u,\"pooled\":%s,\"fps\":%s,"
      "\"fps_without_element\":%s,\"cpu_ms_per_frame\":%s,\"first_frame_ms\":%s",
      esc, label, device_name ? device_name : "", method ? method : "", kernel ? kernel : "",
      size, w, h, opt.format, n, frames, pooled ? "true" : "false", s_fps, s_base, s_cpu,
      s_first);
  if (n_streams > 1) {
    gchar *s_min = summary_json (smin, n), *s_max = summary_json (smax, n);

    /* fps is the total of all streams, each stream's own rate without the baseline removed */
    g_print (",\"streams\":%d,\"stream_fps_min\":%s,\"stream_fps_max\":%s", n_streams, s_min,
        s_max);
    g_free (s_min);
    g_free (s_max);
  }
  if (devices)
    g_print (",\"devices\":\"%s\"", devices);
  g_print (",\"worst_gap_ms\":%.4g", median_of (gap, n));
  if (n_streams > 1 || opt.stagger_ms > 0) {
    /* each run's worst (a process's first run starts its devices), each stream's over runs */
    g_print (",\"run_worst_gap_ms\":[");
    for (gint i = 0; i < n; i++)
      g_print ("%s%.4g", i ? "," : "", run_gap[i]);
    g_print ("],\"stream_worst_gap_ms\":[");
    for (gint i = 0; i < n_streams; i++)
      g_print ("%s%.4g", i ? "," : "", stream_gap[i]);
    g_print ("]");
  }
  if (opt.stagger_ms > 0)
    g_print (",\"stagger_ms\":%d", opt.stagger_ms);
  if (opt.max_inflight > 0)
    g_print (",\"max_inflight\":%d", opt.max_inflight);
  if (opt.interlaced)
    g_print (",\"interlaced\":true");
  if (opt.regions)
    g_print (",\"regions\":%d", opt.regions);
  if (opt.regions && opt.region_band > 0 && opt.region_band < 1)
    g_print (",\"region_band\":%.3g", opt.region_band);
  if (nstage) {
    g_print (",\"upload_ms\":%.6g,\"kernel_ms\":%.6g,\"download_ms\":%.6g,"
        "\"overlap_fraction\":%.4g", median_of (up, nstage), median_of (kern, nstage),
        median_of (down, nstage), median_of (ovl, nstage));
    if (!isnan (floor_us))
      g_print (",\"kernel_floor_ratio\":%.4g", 1000.0 * median_of (kern, nstage) / floor_us);
  }
  if (ncopies)
    g_print (",\"host_copies_per_frame\":%.4g", median_of (copies, ncopies));
  if (path_in)
    g_print (",\"input_path\":\"%s\",\"output_path\":\"%s\"", path_in, path_out);
  if (variant)
    g_print (",\"variant\":\"%s\"", variant);
  g_print ("}\n");
  g_printerr ("%-10s %-10s %-6s %-10s %2d %4dx%-4d %9.2f fps (median of %d, %d stream%s)%s%s",
      label, method ? method : "", opt.format, kernel ? kernel : "", size, w, h,
      median_of (fps, n), n, n_streams, n_streams > 1 ? "s" : "", variant ? ", ran " : "",
      variant ? variant : "");
  if (nstage && !isnan (floor_us))
    g_printerr (", kernel %.4g ms = %.3g x floor", median_of (kern, nstage),
        1000.0 * median_of (kern, nstage) / floor_us);
  g_printerr ("\n");
  g_free (s_fps);
  g_free (s_cpu);
  g_free (s_first);
  g_free (s_base);

out:
  g_free (esc);
  g_free (fps);
  g_free (cpu);
  g_free (first);
  g_free (base);
  g_free (up);
  g_free (kern);
  g_free (down);
  g_free (ovl);
  g_free (copies);
  g_free (smin);
  g_free (smax);
  g_free (gap);
  g_free (run_gap);
  g_free (stream_gap);
  g_free (path_in);
  g_free (variant);
  g_free (devices);
  g_free (path_out);
}

static void
remember_device (void)
{
  GstElementFactory *factory = gst_element_factory_find ("clconvolve");
  GstElement *pipe, *e;
  gchar *desc;

  if (!factory)
    return;
  gst_object_unref (factory);
  desc = g_strdup_printf ("videotestsrc num-buffers=1 ! video/x-raw,width=16,height=16 ! "
      "clconvolve name=f device=\"%s\" ! fakesink", opt.device ? opt.device : "");
  pipe = gst_parse_launch (desc, NULL);
  g_free (desc);
  if (!pipe)
    return;
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  gst_message_unref (gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe), 120 * GST_SECOND,
          GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  e = gst_bin_get_by_name (GST_BIN (pipe), "f");
  g_object_get (e, "device-name", &device_name, NULL);
  gst_object_unref (e);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
}

/* ------------------------------------------------------------------ transfer limit */

#define CHECK(expr) G_STMT_START { cl_int _e = (expr); if (_e != CL_SUCCESS) { \
  g_printerr ("bench: %s: %s\n", #expr, gst_cl_error_to_string (_e)); goto fail; } } G_STMT_END

static gdouble
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* Bandwidth in GB/s of reps copies of a frame of --format at w x h (its own bytes: NV12 is 1.5
 * a pixel), each direction alone and both at once, and the frames/s that allows. */
static void
measure_transfer (GstClContext * ctx, gint w, gint h)
{
  GstVideoInfo info;
  gsize bytes;
  gint reps;
  cl_int err;
  cl_command_queue q1 = NULL, q2 = NULL;
  cl_mem pin_a = NULL, pin_b = NULL, dev_a = NULL, dev_b = NULL;
  gpointer ha = NULL, hb = NULL, page;
  gdouble up, down, both, pup, pdown, t;

  if (!gst_video_info_set_format (&info, gst_video_format_from_string (opt.format), w, h)) {
    g_printerr ("bench: no transfer limit for format %s\n", opt.format);
    return;
  }
  bytes = GST_VIDEO_INFO_SIZE (&info);
  reps = MAX (4, (gint) (2e9 / bytes));
  page = g_malloc (bytes);
  if (opt.quick)
    reps = MAX (4, reps / 4);
  q1 = clCreateCommandQueue (ctx->context, ctx->device, 0, &err);
  q2 = clCreateCommandQueue (ctx->context, ctx->device, 0, &err);
  pin_a = clCreateBuffer (ctx->context, CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
  pin_b = clCreateBuffer (ctx->context, CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
  dev_a = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
  dev_b = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
  if (!q1 || !q2 || !pin_a || !pin_b || !dev_a || !dev_b) {
    g_printerr ("bench: cannot allocate transfer buffers: %s\n", gst_cl_error_to_string (err));
    goto fail;
  }
  ha = clEnqueueMapBuffer (q1, pin_a, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL,
      NULL, &err);
  hb = clEnqueueMapBuffer (q1, pin_b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL,
      NULL, &err);
  if (!ha || !hb)
    goto fail;
  memset (ha, 1, bytes);
  memset (hb, 2, bytes);
  memset (page, 3, bytes);

  /* warm-up */
  CHECK (clEnqueueWriteBuffer (q1, dev_a, CL_TRUE, 0, bytes, ha, 0, NULL, NULL));
  CHECK (clEnqueueReadBuffer (q1, dev_b, CL_TRUE, 0, bytes, hb, 0, NULL, NULL));

  t = now_s ();
  for (gint i = 0; i < reps; i++)
    CHECK (clEnqueueWriteBuffer (q1, dev_a, CL_FALSE, 0, bytes, ha, 0, NULL, NULL));
  CHECK (clFinish (q1));
  up = bytes * (gdouble) reps / (now_s () - t) / 1e9;

  t = now_s ();
  for (gint i = 0; i < reps; i++)
    CHECK (clEnqueueReadBuffer (q1, dev_b, CL_FALSE, 0, bytes, hb, 0, NULL, NULL));
  CHECK (clFinish (q1));
  down = bytes * (gdouble) reps / (now_s () - t) / 1e9;

  t = now_s ();
  for (gint i = 0; i < reps; i++) {
    CHECK (clEnqueueWriteBuffer (q1, dev_a, CL_FALSE, 0, bytes, ha, 0, NULL, NULL));
    CHECK (clEnqueueReadBuffer (q2, dev_b, CL_FALSE, 0, bytes, hb, 0, NULL, NULL));
  }
  CHECK (clFinish (q1));
  CHECK (clFinish (q2));
  both = 2.0 * bytes * reps / (now_s () - t) / 1e9;

  /* pageable memory, as the element uses today for frames from a non-OpenCL pool */
  t = now_s ();
  for (gint i = 0; i < reps; i++)
    CHECK (clEnqueueWriteBuffer (q1, dev_a, CL_TRUE, 0, bytes, page, 0, NULL, NULL));
  pup = bytes * (gdouble) reps / (now_s () - t) / 1e9;
  t = now_s ();
  for (gint i = 0; i < reps; i++)
    CHECK (clEnqueueReadBuffer (q1, dev_b, CL_TRUE, 0, bytes, page, 0, NULL, NULL));
  pdown = bytes * (gdouble) reps / (now_s () - t) / 1e9;

  g_print ("{\"kind\":\"transfer\",\"device\":\"%s\",\"format\":\"%s\",\"width\":%d,"
      "\"height\":%d,\"bytes\":%" G_GSIZE_FORMAT ",\"reps\":%d,\"pinned_h2d_gbs\":%.4g,\"pinned_d2h_gbs\":%.4g,"
      "\"pinned_both_gbs\":%.4g,\"pageable_h2d_gbs\":%.4g,\"pageable_d2h_gbs\":%.4g,"
      "\"fps_limit_serial\":%.5g,\"fps_limit_overlapped\":%.5g}\n", ctx->device_name, opt.format,
      w, h, bytes, reps, up, down, both, pup, pdown, 1.0 / (bytes / (up * 1e9) + bytes / (down * 1e9)),
      both * 1e9 / (2.0 * bytes));
  g_printerr ("transfer %4dx%-4d %s pinned up %.2f down %.2f both %.2f GB/s, pageable up %.2f "
      "down %.2f GB/s, limit %.5g frames/s\n", w, h, opt.format, up, down, both, pup, pdown,
      both * 1e9 / (2.0 * bytes));

fail:
  if (ha)
    clEnqueueUnmapMemObject (q1, pin_a, ha, 0, NULL, NULL);
  if (hb)
    clEnqueueUnmapMemObject (q1, pin_b, hb, 0, NULL, NULL);
  if (q1)
    clFinish (q1);
  g_clear_pointer (&pin_a, clReleaseMemObject);
  g_clear_pointer (&pin_b, clReleaseMemObject);
  g_clear_pointer (&dev_a, clReleaseMemObject);
  g_clear_pointer (&dev_b, clReleaseMemObject);
  g_clear_pointer (&q1, clReleaseCommandQueue);
  g_clear_pointer (&q2, clReleaseCommandQueue);
  g_free (page);
}

static GstClContext *plugin_context_for (const gchar * device);

/* --transfer-together: one device's part, run by a thread of its own */
#define TOGETHER_DEPTH 3        /* frames in flight each way, as the element's max-inflight */
typedef struct
{
  GMutex lock;
  GCond cond;
  guint waiting, n;
} Barrier;

typedef struct
{
  GstClContext *ctx;
  gsize bytes;
  gdouble seconds;
  Barrier *start;               /* every device's thread ready: all start at once */
  gdouble up_gbs, down_gbs;
  gboolean ok;
} Together;

static void
barrier_wait (Barrier * b)
{
  g_mutex_lock (&b->lock);
  if (++b->waiting == b->n)
    g_cond_broadcast (&b->cond);
  while (b->waiting < b->n)
    g_cond_wait (&b->cond, &b->lock);
  g_mutex_unlock (&b->lock);
}

/* Pinned frames uploaded on one queue and downloaded on another, TOGETHER_DEPTH in flight each
 * way, for t->seconds after every device's thread is ready. */
static gpointer
together_main (gpointer data)
{
  Together *t = data;
  GstClContext *ctx = t->ctx;
  cl_command_queue qu = NULL, qd = NULL;
  cl_mem pin[2 * TOGETHER_DEPTH] = { NULL }, dev[2 * TOGETHER_DEPTH] = { NULL };
  gpointer host[2 * TOGETHER_DEPTH] = { NULL };
  cl_event eu[TOGETHER_DEPTH] = { NULL }, ed[TOGETHER_DEPTH] = { NULL };
  guint64 nu = 0, nd = 0;
  gdouble t0, el;
  cl_int err = CL_SUCCESS;

  qu = clCreateCommandQueue (ctx->context, ctx->device, 0, &err);
  qd = clCreateCommandQueue (ctx->context, ctx->device, 0, &err);
  for (gint i = 0; i < 2 * TOGETHER_DEPTH && err == CL_SUCCESS; i++) {
    pin[i] = clCreateBuffer (ctx->context, CL_MEM_ALLOC_HOST_PTR, t->bytes, NULL, &err);
    if (err == CL_SUCCESS)
      dev[i] = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE, t->bytes, NULL, &err);
    if (err == CL_SUCCESS)
      host[i] = clEnqueueMapBuffer (qu, pin[i], CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
          t->bytes, 0, NULL, NULL, &err);
    if (err == CL_SUCCESS) {
      memset (host[i], i, t->bytes);
      /* warm-up: each buffer moved once */
      err = clEnqueueWriteBuffer (qu, dev[i], CL_TRUE, 0, t->bytes, host[i], 0, NULL, NULL);
    }
  }
  barrier_wait (t->start);
  if (err != CL_SUCCESS) {
    g_printerr ("bench: transfer-together on %s: %s\n", ctx->device_name,
        gst_cl_error_to_string (err));
    goto fail;
  }
  t0 = now_s ();
  while (now_s () - t0 < t->seconds) {
    gint k = nu % TOGETHER_DEPTH;

    if (eu[k]) {
      CHECK (clWaitForEvents (1, &eu[k]));
      g_clear_pointer (&eu[k], clReleaseEvent);
    }
    CHECK (clEnqueueWriteBuffer (qu, dev[k], CL_FALSE, 0, t->bytes, host[k], 0, NULL, &eu[k]));
    CHECK (clFlush (qu));
    nu++;
    if (ed[k]) {
      CHECK (clWaitForEvents (1, &ed[k]));
      g_clear_pointer (&ed[k], clReleaseEvent);
    }
    CHECK (clEnqueueReadBuffer (qd, dev[TOGETHER_DEPTH + k], CL_FALSE, 0, t->bytes,
            host[TOGETHER_DEPTH + k], 0, NULL, &ed[k]));
    CHECK (clFlush (qd));
    nd++;
  }
  CHECK (clFinish (qu));
  CHECK (clFinish (qd));
  el = now_s () - t0;
  t->up_gbs = nu * (gdouble) t->bytes / el / 1e9;
  t->down_gbs = nd * (gdouble) t->bytes / el / 1e9;
  t->ok = TRUE;

fail:
  for (gint i = 0; i < TOGETHER_DEPTH; i++) {
    g_clear_pointer (&eu[i], clReleaseEvent);
    g_clear_pointer (&ed[i], clReleaseEvent);
  }
  for (gint i = 0; i < 2 * TOGETHER_DEPTH; i++) {
    if (host[i])
      clEnqueueUnmapMemObject (qu, pin[i], host[i], 0, NULL, NULL);
    g_clear_pointer (&pin[i], clReleaseMemObject);
    g_clear_pointer (&dev[i], clReleaseMemObject);
  }
  if (qu)
    clFinish (qu);
  g_clear_pointer (&qu, clReleaseCommandQueue);
  g_clear_pointer (&qd, clReleaseCommandQueue);
  return NULL;
}

/* The transfer limit of several devices at once (frames moved up and down through each, all
 * from this process): what a host's memory and buses allow streams spread over its GPUs; each
 * device alone first, then all together. */
static void
measure_transfer_together (gchar ** specs, gint w, gint h)
{
  GstVideoInfo info;
  gint n = g_strv_length (specs);
  GstClContext **ctx = g_new0 (GstClContext *, n);
  Together *t = g_new0 (Together, n);
  GThread **th = g_new0 (GThread *, n);
  gdouble *alone = g_new0 (gdouble, n);
  gdouble total = 0.0, sum_alone = 0.0;
  GString *each = g_string_new (NULL), *each_alone = g_string_new (NULL);

  if (!gst_video_info_set_format (&info, gst_video_format_from_string (opt.format), w, h))
    goto out;
  for (gint i = 0; i < n; i++)
    if (!(ctx[i] = plugin_context_for (specs[i])))
      goto out;
  /* k < n: device k alone; k == n: all at once */
  for (gint k = 0; k <= n; k++) {
    Barrier b = { 0 };
    gint first = k < n ? k : 0, last = k < n ? k : n - 1;

    g_mutex_init (&b.lock);
    g_cond_init (&b.cond);
    b.n = last - first + 1;
    for (gint i = first; i <= last; i++) {
      t[i] = (Together) { ctx[i], GST_VIDEO_INFO_SIZE (&info), MAX (opt.seconds, 0.5), &b };
      th[i] = g_thread_new ("bench-together", together_main, &t[i]);
    }
    for (gint i = first; i <= last; i++)
      g_thread_join (th[i]);
    g_mutex_clear (&b.lock);
    g_cond_clear (&b.cond);
    for (gint i = first; i <= last; i++) {
      /* frames/s: the slower way limits */
      gdouble fps = t[i].ok ? MIN (t[i].up_gbs, t[i].down_gbs) * 1e9 / t[i].bytes : 0.0;

      if (k < n) {
        alone[i] = fps;
        sum_alone += fps;
        g_string_append_printf (each_alone, "%s%.5g", i ? "," : "", fps);
      } else {
        total += fps;
        g_string_append_printf (each, "%s%.5g", i ? "," : "", fps);
      }
    }
  }
  g_print ("{\"kind\":\"transfer-together\",\"devices\":\"%s\",\"format\":\"%s\","
      "\"width\":%d,\"height\":%d,\"fps_limit_alone\":[%s],\"fps_limit_together\":[%s],"
      "\"fps_limit_total\":%.5g,\"total_vs_sum_alone\":%.4g}\n", opt.transfer_together,
      opt.format, w, h, each_alone->str, each->str, total, total / MAX (sum_alone, 1e-9));
  g_printerr ("transfer  %4dx%-4d %s on %s at once: %.5g frames/s in all, %.3g x the sum of "
      "each alone (%s)\n", w, h, opt.format, opt.transfer_together, total,
      total / MAX (sum_alone, 1e-9), each_alone->str);

out:
  g_string_free (each, TRUE);
  g_string_free (each_alone, TRUE);
  for (gint i = 0; i < n; i++)
    if (ctx[i])
      gst_object_unref (ctx[i]);
  g_free (ctx);
  g_free (t);
  g_free (th);
  g_free (alone);
}

/* ------------------------------------------------------------------ naive C loop */

/* The preset of a kernel= name; motionblur for any other. */
static ConvPreset
preset_by_name (const gchar * kernel)
{
  static const struct
  {
    const gchar *name;
    ConvPreset preset;
  } presets[] = {
    {"box", CONV_PRESET_BOX}, {"gaussian", CONV_PRESET_GAUSSIAN},
    {"sharpen", CONV_PRESET_SHARPEN}, {"emboss", CONV_PRESET_EMBOSS},
    {"edge", CONV_PRESET_EDGE}, {"unsharp", CONV_PRESET_UNSHARP},
  };

  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    if (!strcmp (kernel, presets[i].name))
      return presets[i].preset;
  return CONV_PRESET_MOTIONBLUR;
}

/* The obvious loops: RGBA, clamp border, float sums, alpha copied. */
static void
naive_rgba (const guint8 * src, guint8 * dst, gint w, gint h, const gfloat * k, gint n)
{
  gint r = n / 2;

  for (gint y = 0; y < h; y++) {
    for (gint x = 0; x < w; x++) {
      gfloat acc[3] = { 0, 0, 0 };
      for (gint j = 0; j < n; j++) {
        gint yy = CLAMP (y + j - r, 0, h - 1);
        for (gint i = 0; i < n; i++) {
          const guint8 *p = src + ((gsize) yy * w + CLAMP (x + i - r, 0, w - 1)) * 4;
          for (gint c = 0; c < 3; c++)
            acc[c] += k[j * n + i] * p[c];
        }
      }
      for (gint c = 0; c < 3; c++)
        dst[((gsize) y * w + x) * 4 + c] = (guint8) CLAMP (lrintf (acc[c]), 0, 255);
      dst[((gsize) y * w + x) * 4 + 3] = src[((gsize) y * w + x) * 4 + 3];
    }
  }
}

static void
measure_naive (const gchar * kernel, gint size, gint w, gint h)
{
  gsize bytes = (gsize) w * h * 4;
  guint8 *src = g_malloc (bytes), *dst = g_malloc (bytes);
  gdouble k[NCOEF_MAX], macs = (gdouble) w * h * 3 * size * size;
  gfloat kf[NCOEF_MAX];
  gint frames = 0;
  gdouble t0, t;

  if (macs > (opt.quick ? 2e9 : 2e10)) {
    g_print ("{\"kind\":\"naive\",\"kernel\":\"%s\",\"size\":%d,\"width\":%d,\"height\":%d,"
        "\"skipped\":\"%.3g multiply-adds per frame: too slow to time here\"}\n", kernel,
        size, w, h, macs);
    goto out;
  }
  conv_preset_generate (preset_by_name (kernel), size, 0.0, 45.0, k);
  for (gint i = 0; i < size * size; i++)
    kf[i] = (gfloat) k[i];
  memset (src, 7, bytes);
  t0 = now_s ();
  do {
    naive_rgba (src, dst, w, h, kf, size);
    frames++;
    t = now_s () - t0;
  } while (t < opt.seconds && frames < 1000);
  g_print ("{\"kind\":\"naive\",\"kernel\":\"%s\",\"size\":%d,\"width\":%d,\"height\":%d,"
      "\"frames\":%d,\"fps\":{\"median\":%.6g,\"min\":%.6g,\"max\":%.6g}}\n", kernel, size,
      w, h, frames, frames / t, frames / t, frames / t);
  g_printerr ("naive      %-10s %2d %4dx%-4d %9.2f fps\n", kernel, size, w, h, frames / t);
out:
  g_free (src);
  g_free (dst);
}

/* ------------------------------------------------------------------ main */

static gchar **
split (const gchar * list)
{
  return g_strsplit_set (list, ",", -1);
}

/* element with every "{size}" replaced */
static gchar *
expand (const gchar * desc, gint size)
{
  gchar **parts = g_strsplit (desc, "{size}", -1);
  gchar *num = g_strdup_printf ("%d", size), *out = g_strjoinv (num, parts);

  g_strfreev (parts);
  g_free (num);
  return out;
}

/* The device context of a clconvolve element on opt.device: the plugin's object, not one of
 * our own (the plugin registers the GstClContext type; a second registration from the copy
 * linked here would fail). NULL, with a message, when there is no device. */
static GstClContext *
plugin_context_for (const gchar * device)
{
  GstElement *e = gst_element_factory_make ("clconvolve", NULL);
  GstClContext *ctx = NULL;

  if (!e) {
    g_printerr ("bench: no clconvolve element (GST_PLUGIN_PATH)\n");
    return NULL;
  }
  if (device)
    g_object_set (e, "device", device, NULL);
  /* the element acquires its context when it starts */
  if (gst_element_set_state (e, GST_STATE_PAUSED) != GST_STATE_CHANGE_FAILURE)
    g_object_get (e, "context", &ctx, NULL);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (e);
  if (!ctx)
    g_printerr ("bench: clconvolve found no OpenCL device%s%s\n", device ? " for " : "",
        device ? device : "");
  return ctx;
}

static GstClContext *
plugin_context (void)
{
  return plugin_context_for (opt.device);
}

/* ------------------------------------------------------------------ floor */

typedef struct
{
  gint w, h;
  gdouble us;
} Floor;

static GArray *floors;          /* Floor: the frame sizes measured, NAN where it failed */

/* Device time in us of FLOOR_COPIES copies of one frame of --format at w x h between two
 * buffers on the device (profiling events, after a warm-up), printed as a "floor" record; the
 * median, or NAN. */
static gdouble
measure_floor (GstClContext * ctx, gint w, gint h)
{
  GstVideoInfo info;
  gsize bytes;
  cl_int err;
  cl_command_queue q = NULL;
  cl_mem a = NULL, b = NULL;
  cl_event ev[FLOOR_COPIES] = { NULL };
  gdouble us[FLOOR_COPIES], med = NAN;
  guint8 zero = 0;
  gchar *s_us;

  if (!gst_video_info_set_format (&info, gst_video_format_from_string (opt.format), w, h)) {
    g_printerr ("bench: no floor for format %s\n", opt.format);
    return NAN;
  }
  bytes = GST_VIDEO_INFO_SIZE (&info);
  q = clCreateCommandQueue (ctx->context, ctx->device, CL_QUEUE_PROFILING_ENABLE, &err);
  a = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
  b = clCreateBuffer (ctx->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
  if (!q || !a || !b) {
    g_printerr ("bench: cannot allocate floor buffers: %s\n", gst_cl_error_to_string (err));
    goto fail;
  }
  /* warm-up: both buffers resident */
  CHECK (clEnqueueFillBuffer (q, a, &zero, 1, 0, bytes, 0, NULL, NULL));
  for (gint i = 0; i < 3; i++)
    CHECK (clEnqueueCopyBuffer (q, a, b, 0, 0, bytes, 0, NULL, NULL));
  CHECK (clFinish (q));
  for (gint i = 0; i < FLOOR_COPIES; i++)
    CHECK (clEnqueueCopyBuffer (q, a, b, 0, 0, bytes, 0, NULL, &ev[i]));
  CHECK (clFinish (q));
  for (gint i = 0; i < FLOOR_COPIES; i++) {
    cl_ulong t0, t1;

    CHECK (clGetEventProfilingInfo (ev[i], CL_PROFILING_COMMAND_START, sizeof (t0), &t0, NULL));
    CHECK (clGetEventProfilingInfo (ev[i], CL_PROFILING_COMMAND_END, sizeof (t1), &t1, NULL));
    us[i] = (t1 - t0) / 1e3;
  }
  s_us = summary_json (us, FLOOR_COPIES);
  med = median_of (us, FLOOR_COPIES);
  /* gbs: bytes read and written */
  g_print ("{\"kind\":\"floor\",\"device\":\"%s\",\"format\":\"%s\",\"width\":%d,"
      "\"height\":%d,\"bytes\":%" G_GSIZE_FORMAT ",\"copies\":%d,\"copy_us\":%s,"
      "\"copy_gbs\":%.4g}\n", ctx->device_name, opt.format, w, h, bytes, FLOOR_COPIES, s_us,
      2e-3 * bytes / med);
  g_printerr ("floor    %4dx%-4d %s device copy %.4g us (median of %d), %.2f GB/s read+write\n",
      w, h, opt.format, med, FLOOR_COPIES, 2e-3 * bytes / med);
  g_free (s_us);

fail:
  for (gint i = 0; i < FLOOR_COPIES; i++)
    g_clear_pointer (&ev[i], clReleaseEvent);
  g_clear_pointer (&a, clReleaseMemObject);
  g_clear_pointer (&b, clReleaseMemObject);
  g_clear_pointer (&q, clReleaseCommandQueue);
  return med;
}

/* The floor of w x h on opt.device, measured on first use. */
static gdouble
floor_copy_us (gint w, gint h)
{
  GstClContext *ctx;
  Floor f = { w, h, NAN };

  if (!floors)
    floors = g_array_new (FALSE, FALSE, sizeof (Floor));
  for (guint i = 0; i < floors->len; i++)
    if (g_array_index (floors, Floor, i).w == w && g_array_index (floors, Floor, i).h == h)
      return g_array_index (floors, Floor, i).us;
  ctx = plugin_context ();
  if (ctx) {
    f.us = measure_floor (ctx, w, h);
    gst_object_unref (ctx);
  }
  g_array_append_val (floors, f);
  return f.us;
}

int
main (int argc, char **argv)
{
  gchar *res = NULL, *sizes = NULL, *methods = NULL, *kernels = NULL, *what = NULL;
  gchar *label = NULL, *print_kernel = NULL, *streams = NULL;
  GError *err = NULL;
  GOptionEntry entries[] = {
    {"quick", 'q', 0, G_OPTION_ARG_NONE, &opt.quick,
        "Small matrix (1920x1080; sizes 3,7) and short runs", NULL},
    {"what", 'w', 0, G_OPTION_ARG_STRING, &what,
        "Comma list of: element, transfer, floor, naive (default: element; the floor "
        "comes with every element record that has a kernel time)", "LIST"},
    {"element", 'e', 0, G_OPTION_ARG_STRING, &opt.element,
        "Measure this element (gst-launch syntax, {size} is replaced) instead of clconvolve",
        "DESC"},
    {"label", 'l', 0, G_OPTION_ARG_STRING, &label, "Name of the element in the output", "NAME"},
    {"format", 'f', 0, G_OPTION_ARG_STRING, &opt.format, "Video format (default RGBA)", "F"},
    {"device", 'd', 0, G_OPTION_ARG_STRING, &opt.device, "clconvolve's device property",
        "SPEC"},
    {"res", 'r', 0, G_OPTION_ARG_STRING, &res,
        "Resolutions (default 640x480,1920x1080,3840x2160)", "WxH,..."},
    {"sizes", 's', 0, G_OPTION_ARG_STRING, &sizes, "Kernel sizes (default 3,5,7,15,31)",
        "N,..."},
    {"methods", 'm', 0, G_OPTION_ARG_STRING, &methods,
        "clconvolve methods (default tiled,float4,auto)", "M,..."},
    {"kernels", 'k', 0, G_OPTION_ARG_STRING, &kernels,
        "Presets (kernel=): e.g. motionblur (dense), gaussian, box, unsharp (split) "
        "(default motionblur,gaussian)", "K,..."},
    {"seconds", 't', 0, G_OPTION_ARG_DOUBLE, &opt.seconds,
        "Measuring time per run (default 1)", "S"},
    {"min-frames", 0, 0, G_OPTION_ARG_INT, &opt.min_frames,
        "At least this many measured frames per run (default 10)", "N"},
    {"runs", 0, 0, G_OPTION_ARG_INT, &opt.runs, "Runs per configuration (default 3)", "N"},
    {"streams", 0, 0, G_OPTION_ARG_STRING, &streams,
        "Run this many pipelines at once in this process, each pushed by its own thread; "
        "fps is their total (default 1)", "N,..."},
    {"max-inflight", 0, 0, G_OPTION_ARG_INT, &opt.max_inflight,
        "clconvolve's max-inflight (frames in flight; default: the element's)", "N"},
    {"transfer-together", 0, 0, G_OPTION_ARG_STRING, &opt.transfer_together,
        "Measure the transfer limit of these devices (comma list of device specs) each alone, "
          "then all at once, pinned frames up and down from one thread each", "LIST"},
    {"stagger", 0, 0, G_OPTION_ARG_INT, &opt.stagger_ms,
        "Start the streams one after another, MS apart, each while the earlier ones push, "
          "with builds off the streaming thread as in an application; worst gaps are counted "
          "from each stream's first frame and fps after the last one started", "MS"},
    {"interlaced", 0, 0, G_OPTION_ARG_NONE, &opt.interlaced,
        "Interlaced frames (interlace-mode=interleaved: each field filtered alone)", NULL},
    {"system-memory", 0, 0, G_OPTION_ARG_NONE, &opt.system_memory,
        "Push frames in plain system memory instead of the element's proposed pool (with "
          "--hand-over, from a pool of the harness's own)", NULL},
    {"hand-over", 0, 0, G_OPTION_ARG_NONE, &opt.hand_over,
        "Hand each frame over as a decoder or camera does (a pool buffer acquired for each "
          "push, no reference kept): an element working in place (regions) then copies "
          "nothing", NULL},
    {"regions", 0, 0, G_OPTION_ARG_INT, &opt.regions,
        "Put N region of interest metas on every frame: squares of 24 to 200 pixels over the "
          "frame, the same on every frame (for clconvolve roi-meta=true)", "N"},
    {"region-side", 0, 0, G_OPTION_ARG_INT, &opt.region_side,
        "With --regions: every region a square of this side instead of the mixed sides", "S"},
    {"region-band", 0, 0, G_OPTION_ARG_DOUBLE, &opt.region_band,
        "With --regions: the regions in this fraction of the frame's rows across its middle "
          "(a crowd, a road), instead of all over it", "F"},
    {"print-kernel", 0, 0, G_OPTION_ARG_STRING, &print_kernel,
        "Print the preset's coefficients at --sizes (45 degrees, default sigma) as JSON and "
        "exit; the peers use the same matrices", "KERNEL"},
    {NULL}
  };
  GOptionContext *octx = g_option_context_new ("- clconvolve benchmark (JSON lines on stdout)");
  struct rusage ru;

  opt.format = g_strdup ("RGBA");
  opt.seconds = 1.0;
  opt.min_frames = 10;
  opt.runs = 3;
  g_option_context_add_main_entries (octx, entries, NULL);
  /* steady state: the element's first frame waits for its builds and tuning, so that the
   * timed frames run the specialised kernels (never the generic one of a pending job) */
  g_option_context_add_group (octx, gst_init_get_option_group ());
  if (!g_option_context_parse (octx, &argc, &argv, &err)) {
    g_printerr ("%s\n", err->message);
    return 2;
  }
  g_option_context_free (octx);
  if (opt.stagger_ms <= 0)
    g_setenv ("GST_CLCONVOLVE_SYNC_BUILDS", "1", FALSE);
  GST_DEBUG_CATEGORY_INIT (bench_debug, "clconvolve-bench", 0, "clconvolve-bench");
  if (opt.quick) {
    if (opt.seconds == 1.0)
      opt.seconds = 0.25;
    if (opt.min_frames == 10)
      opt.min_frames = 3;
  }
  opt.res = split (res ? res : opt.quick ? "1920x1080" : "640x480,1920x1080,3840x2160");
  opt.sizes = split (sizes ? sizes : opt.quick ? "3,7" : "3,5,7,15,31");
  opt.methods = split (methods ? methods : "tiled,float4,auto");
  opt.kernels = split (kernels ? kernels : "motionblur,gaussian");
  opt.streams = split (streams ? streams : "1");
  for (gint i = 0; opt.streams[i]; i++)
    if (atoi (opt.streams[i]) < 1 || atoi (opt.streams[i]) > 64) {
      g_printerr ("bench: --streams takes counts from 1 to 64\n");
      return 2;
    }
  if (!what)
    what = g_strdup ("element");

  if (print_kernel) {
    gdouble k[NCOEF_MAX];
    gint n = atoi (opt.sizes[0]);

    if (n < 1 || n > CONV_MAX_SIZE || n % 2 == 0) {
      g_printerr ("bench: --print-kernel needs one odd size in --sizes\n");
      return 2;
    }
    conv_preset_generate (preset_by_name (print_kernel), n, 0.0, 45.0, k);
    g_print ("[");
    for (gint i = 0; i < n * n; i++)
      g_print ("%s%.17g", i ? "," : "", k[i]);
    g_print ("]\n");
    return 0;
  }

  if (strstr (what, "element") && !opt.element)
    remember_device ();

  for (gint ri = 0; opt.res[ri]; ri++) {
    gint w, h;

    if (sscanf (opt.res[ri], "%dx%d", &w, &h) != 2 || w < 1 || h < 1) {
      g_printerr ("bench: bad resolution '%s'\n", opt.res[ri]);
      return 2;
    }
    if (strstr (what, "transfer")) {
      GstClContext *ctx = plugin_context ();

      if (!ctx)
        return 1;
      measure_transfer (ctx, w, h);
      gst_object_unref (ctx);
    }
    if (opt.transfer_together) {
      gchar **specs = g_strsplit (opt.transfer_together, ",", -1);

      measure_transfer_together (specs, w, h);
      g_strfreev (specs);
    }
    if (strstr (what, "floor"))
      floor_copy_us (w, h);
    for (gint si = 0; opt.sizes[si]; si++) {
      gint size = atoi (opt.sizes[si]);

      if (strstr (what, "element") && opt.element) {
        gchar *desc = expand (opt.element, size);

        for (gint ni = 0; opt.streams[ni]; ni++)
          measure_element (desc, NULL, label ? label : opt.element, NULL, NULL, size, w, h,
              atoi (opt.streams[ni]));
        g_free (desc);
        continue;
      }
      for (gint ki = 0; opt.kernels[ki]; ki++) {
        if (strstr (what, "naive"))
          measure_naive (opt.kernels[ki], size, w, h);
        if (!strstr (what, "element"))
          continue;
        for (gint mi = 0; opt.methods[mi]; mi++) {
          gchar *inflight = opt.max_inflight > 0 ?
              g_strdup_printf (" max-inflight=%d", opt.max_inflight) : g_strdup ("");
          gchar *desc = g_strdup_printf ("clconvolve device=\"%s\" method=%s kernel=%s "
              "size=%d%s", opt.device ? opt.device : "", opt.methods[mi],
              opt.kernels[ki], size, inflight);
          gchar *profiled = g_strconcat (desc, " profiling=true", NULL);

          for (gint ni = 0; opt.streams[ni]; ni++)
            measure_element (desc, profiled, label ? label : "clconvolve", opt.methods[mi],
                opt.kernels[ki], size, w, h, atoi (opt.streams[ni]));
          g_free (profiled);
          g_free (desc);
          g_free (inflight);
        }
      }
    }
  }

  getrusage (RUSAGE_SELF, &ru);
  g_print ("{\"kind\":\"process\",\"what\":\"%s\",\"label\":\"%s\",\"peak_rss_kb\":%ld}\n",
      what, label ? label : (opt.element ? "element" : "clconvolve"), ru.ru_maxrss);
  return 0;
}
