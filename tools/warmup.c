/* clconvolve-warmup: lists the OpenCL devices, and compiles and tunes clconvolve's kernels
 * ahead of time into the disk caches
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Three modes:
 *   clconvolve-warmup --list
 *     each device: its "P:D" indices, name, platform, type, the device= strings that select
 *     it and the device=auto values that may place an element on it;
 *   clconvolve-warmup [--device S] [--format F,..] [--resolution WxH,..] [--kernel K,..]
 *       [--size N,..] [--method M,..] [--set "PROP=V ..."]
 *     runs clconvolve on two frames of every combination, waiting for its builds and tuning
 *     (GST_CLCONVOLVE_SYNC_BUILDS=1), so that the program, tuning and PoCL caches hold them: a
 *     progress line per job (from the element's clconvolve-job messages). An "auto" device
 *     warms every device it may place elements on, "all" every device;
 *   clconvolve-warmup --job ...   and   clconvolve-warmup --serve
 *     the worker's helper: one job (tune or build, then a launch) in this process, its result
 *     on stdout (gst/gstclworker.h says why); --serve takes one job per line of stdin until
 *     its end. Not for people. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclworker.h"
#include "gstclsources.h"

#include <gst/gst.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>
#endif

/* One job of the worker (its --job arguments): its result line on stdout, its errors on
 * stderr. *ctx keeps the device context from one job to the next. Returns the exit status of
 * --job: 0 done, 1 failed, 2 bad arguments, 3 not this program's sources or device. */
static gint
run_job (gchar ** argv, GstClContext ** ctx)
{
  ClJobSpec spec;
  ClJobResult res;
  GError *error = NULL;
  gchar *device, *identity, *why = NULL, *log = NULL;

  if (!gst_cl_job_spec_from_args (argv, &spec, &device, &identity, &why)) {
    g_printerr ("clconvolve-warmup --job: %s\n", why);
    g_free (why);
    return 2;
  }
  if (strcmp (spec.digest, gst_cl_embedded_digest ())) {
    g_printerr ("clconvolve-warmup --job: the job's kernel sources are not this program's "
        "(a different clconvolve version)\n");
    return 3;
  }
  spec.source = gst_cl_embedded_sources ();
  if (*ctx && (strcmp ((*ctx)->index_spec, device) || strcmp ((*ctx)->identity, identity)))
    gst_clear_object (ctx);
  if (!*ctx && !(*ctx = gst_cl_context_acquire (device, &error))) {
    g_printerr ("clconvolve-warmup --job: %s\n", error->message);
    g_clear_error (&error);
    return 3;
  }
  if (strcmp ((*ctx)->identity, identity)) {
    g_printerr ("clconvolve-warmup --job: device %s is %s, not %s\n", device,
        (*ctx)->identity, identity);
    gst_clear_object (ctx);
    return 3;
  }
  gst_cl_job_run_here (*ctx, &spec, &res, &log);
  g_print ("clconvolve-job %d,%d,%d,%d,%d,%d,%d\n", res.err, res.variant.method,
      res.variant.bx, res.variant.by, res.variant.split, res.variant.generic, res.how);
  if (res.err != CL_SUCCESS)
    g_printerr ("%s failed: %s\n%s", res.what, gst_cl_error_to_string (res.err),
        log ? log : "");
  g_free (log);
  return res.err == CL_SUCCESS ? 0 : 1;
}

/* --job: one job, its result line (if it ran) then the exit status */
static gint
job_once (gchar ** argv)
{
  GstClContext *ctx = NULL;
  gint rc = run_job (argv, &ctx);

  gst_clear_object (&ctx);
  return rc;
}

/* --serve: the worker's jobs, one per line of stdin (tab-separated --job arguments), each
 * answered with one line on stdout; ends at the end of stdin, and on Linux with the thread
 * that started it (the worker's, GST_CL_WORKER_HELPER_PARENT_ENV naming its process): a job
 * is not finished for an application that is gone. */
static gint
serve (void)
{
  GstClContext *ctx = NULL;
  gchar line[8192];

#ifdef __linux__
  {
    const gchar *parent = g_getenv (GST_CL_WORKER_HELPER_PARENT_ENV);

    prctl (PR_SET_PDEATHSIG, SIGKILL);
    /* (the parent may have gone before the line above) */
    if (parent && g_ascii_strtoll (parent, NULL, 10) != (gint64) getppid ())
      return 0;
  }
#endif

  while (fgets (line, sizeof (line), stdin)) {
    gchar **args;
    gint rc;

    g_strchomp (line);
    args = g_strsplit (line, "\t", -1);
    rc = run_job (args, &ctx);
    if (rc > 1)
      g_print ("clconvolve-job-refused %d\n", rc);
    fflush (stdout);
    g_strfreev (args);
  }
  gst_clear_object (&ctx);
  return 0;
}

static gint
list_devices (void)
{
  GPtrArray *devs = gst_cl_device_list ();

  gint rc = devs->len ? 0 : 1;

  if (devs->len == 0)
    g_printerr ("clconvolve-warmup: no OpenCL device. Install an OpenCL driver (on a machine "
        "without a GPU, PoCL: apt-get install pocl-opencl-icd) and check that clinfo lists "
        "it.\n");
  for (guint i = 0; i < devs->len; i++) {
    const GstClDeviceInfo *d = g_ptr_array_index (devs, i);
    GString *sel = g_string_new (NULL);

    for (gint s = 0; d->selected_by[s]; s++)
      g_string_append_printf (sel, "%sdevice=\"%s\"", s ? ", " : "", d->selected_by[s]);
    g_print ("%s  %s\n      platform: %s\n      type: %s\n      selected by: %s\n",
        d->index_spec, d->name, d->platform, d->type, sel->str);
    g_string_truncate (sel, 0);
    for (gint s = 0; d->placed_by[s]; s++)
      g_string_append_printf (sel, "%sdevice=\"%s\"", s ? ", " : "", d->placed_by[s]);
    if (sel->len)
      g_print ("      placed by: %s\n", sel->str);
    g_string_free (sel, TRUE);
  }
  g_ptr_array_unref (devs);
  return rc;
}

typedef struct
{
  gint done, failed;
  gint64 start;
} Progress;

/* The progress line of a clconvolve-job message; FALSE at an error or the end of the stream. */
static gboolean
watch (GstBus * bus, const gchar * label, Progress * p)
{
  for (;;) {
    GstMessage *m = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
        GST_MESSAGE_ELEMENT | GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
    const GstStructure *st = gst_message_get_structure (m);
    gboolean go_on = TRUE;

    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      GError *e = NULL;

      gchar *debug = NULL;

      gst_message_parse_error (m, &e, &debug);
      g_printerr ("  %s: error: %s\n", label, e->message);
      if (debug)
        g_printerr ("    (%s)\n", debug);
      g_clear_error (&e);
      g_free (debug);
      p->failed++;
      go_on = FALSE;
    } else if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS) {
      go_on = FALSE;
    } else if (gst_structure_has_name (st, "clconvolve-job")) {
      const gchar *phase = gst_structure_get_string (st, "phase");
      const gchar *job = gst_structure_get_string (st, "job");
      const gchar *what = gst_structure_get_string (st, "what");
      const gchar *variant = gst_structure_get_string (st, "variant");
      guint64 duration = 0;

      gst_structure_get_uint64 (st, "duration", &duration);
      if (!g_strcmp0 (phase, "started")) {
        g_print ("  %s: %s %s ...\n", label, job, what);
      } else {
        g_print ("  %s: %s %s: %s, %s in %.0f ms (%.1f s so far)\n", label, job, what,
            phase, variant ? variant : "-", duration / 1e6,
            (g_get_monotonic_time () - p->start) / 1e6);
        if (!g_strcmp0 (phase, "done"))
          p->done++;
        else
          p->failed++;
      }
    }
    gst_message_unref (m);
    if (!go_on)
      return TRUE;
  }
}

static gchar **
split_list (const gchar * s, const gchar * fallback)
{
  return g_strsplit (s ? s : fallback, ",", -1);
}

/* The devices of --device auto... (those it may place elements on) or --device all (every
 * one), as "P:D". */
static gchar **
devices_of (const gchar * device)
{
  GPtrArray *all;
  gchar **out;

  if (gst_cl_device_spec_is_auto (device))
    return gst_cl_device_auto_candidates (device);
  all = gst_cl_device_list ();
  out = g_new0 (gchar *, all->len + 1);
  for (guint i = 0; i < all->len; i++)
    out[i] = g_strdup (((GstClDeviceInfo *) g_ptr_array_index (all, i))->index_spec);
  g_ptr_array_unref (all);
  return out;
}

/* The element's warnings while a value is set (its refusals: an even size, a bad matrix). */
static GString *refusals;

static void
catch_refusal (const gchar * domain, GLogLevelFlags level, const gchar * message, gpointer data)
{
  g_string_append_printf (refusals, "%s%s", refusals->len ? "; " : "", message);
}

/* The values of an enum property, for an error message (free it). */
static gchar *
enum_values (GParamSpec * pspec)
{
  GString *out = g_string_new (NULL);

  if (G_IS_PARAM_SPEC_ENUM (pspec)) {
    GEnumClass *klass = G_PARAM_SPEC_ENUM (pspec)->enum_class;

    for (guint i = 0; i < klass->n_values; i++)
      g_string_append_printf (out, "%s%s", i ? ", " : " (one of ", klass->values[i].value_nick);
    g_string_append (out, ")");
  }
  return g_string_free (out, FALSE);
}

/* Sets property name of e from text as gst-launch would, but says what is wrong: an unknown
 * property, a value that is not of its type (with the values an enum takes), or one the element
 * refuses (its warning). FALSE with *why set (free it). */
static gboolean
set_checked (GstElement * e, const gchar * name, const gchar * text, gchar ** why)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e), name);
  GValue v = G_VALUE_INIT;
  guint handler;

  if (!pspec || !(pspec->flags & G_PARAM_WRITABLE)) {
    *why = g_strdup_printf ("clconvolve has no property '%s' to set (gst-inspect-1.0 "
        "clconvolve lists them)", name);
    return FALSE;
  }
  g_value_init (&v, G_PARAM_SPEC_VALUE_TYPE (pspec));
  if (!gst_value_deserialize (&v, text)) {
    gchar *values = enum_values (pspec);

    *why = g_strdup_printf ("'%s' is not a value of %s%s", text, name, values);
    g_free (values);
    g_value_unset (&v);
    return FALSE;
  }
  refusals = g_string_new (NULL);
  handler = g_log_set_handler ("clconvolve", G_LOG_LEVEL_WARNING, catch_refusal, NULL);
  g_object_set_property (G_OBJECT (e), name, &v);
  g_log_remove_handler ("clconvolve", handler);
  g_value_unset (&v);
  *why = refusals->len ? g_strdup (refusals->str) : NULL;
  g_string_free (refusals, TRUE);
  refusals = NULL;
  return *why == NULL;
}

/* "PROP=VALUE" into the element; FALSE with *why set. */
static gboolean
set_assignment (GstElement * e, const gchar * assignment, gchar ** why)
{
  const gchar *eq = strchr (assignment, '=');
  gchar *name;
  gboolean ok;

  if (!eq || eq == assignment) {
    *why = g_strdup_printf ("--set '%s' is not PROPERTY=VALUE", assignment);
    return FALSE;
  }
  name = g_strndup (assignment, eq - assignment);
  ok = set_checked (e, g_strstrip (name), eq + 1, why);
  g_free (name);
  return ok;
}

/* The pipeline of one combination: videotestsrc, its caps, clconvolve with every value
 * checked, fakesink. NULL with *why set. */
static GstElement *
make_pipeline (const gchar * device, const gchar * format, gint w, gint h,
    const gchar * kernel, const gchar * size, const gchar * method, gchar ** extra,
    gchar ** why)
{
  GstElement *pipe = gst_pipeline_new (NULL), *src = gst_element_factory_make ("videotestsrc",
      NULL), *caps = gst_element_factory_make ("capsfilter", NULL),
      *conv = gst_element_factory_make ("clconvolve", NULL), *sink =
      gst_element_factory_make ("fakesink", NULL);
  GstCaps *c;
  gboolean ok;

  if (!src || !caps || !conv || !sink) {
    *why = g_strdup ("GStreamer lacks videotestsrc, capsfilter or fakesink (install "
        "gstreamer1.0-plugins-base)");
    gst_clear_object (&src);
    gst_clear_object (&caps);
    gst_clear_object (&conv);
    gst_clear_object (&sink);
    gst_object_unref (pipe);
    return NULL;
  }
  gst_bin_add_many (GST_BIN (pipe), src, caps, conv, sink, NULL);
  g_object_set (src, "num-buffers", 2, NULL);
  c = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, format, "width", G_TYPE_INT,
      w, "height", G_TYPE_INT, h, "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
  g_object_set (caps, "caps", c, NULL);
  gst_caps_unref (c);
  ok = gst_element_link_many (src, caps, conv, sink, NULL);
  if (!ok)
    *why = g_strdup_printf ("clconvolve does not take %s frames of %dx%d (gst-inspect-1.0 "
        "clconvolve lists its formats)", format, w, h);
  ok = ok && (!device || set_checked (conv, "device", device, why));
  ok = ok && set_checked (conv, "kernel", kernel, why);
  ok = ok && set_checked (conv, "size", size, why);
  ok = ok && set_checked (conv, "method", method, why);
  for (gint i = 0; ok && extra && extra[i]; i++)
    ok = set_assignment (conv, extra[i], why);
  if (!ok)
    gst_clear_object (&pipe);
  return pipe;
}

/* Every combination on device (NULL: the element's default), counted in *runs and p; 2 at
 * a value that is not right (what is wrong printed), else 0. */
static gint
warm_device (const gchar * device, gchar ** formats, gchar ** resolutions, gchar ** kernels,
    gchar ** sizes, gchar ** methods, gchar ** extra, gint * runs, Progress * p)
{
  gchar *extras = extra ? g_strjoinv (" ", extra) : g_strdup ("");

  for (gint f = 0; formats[f]; f++)
    for (gint r = 0; resolutions[r]; r++)
      for (gint k = 0; kernels[k]; k++)
        for (gint s = 0; sizes[s]; s++)
          for (gint m = 0; methods[m]; m++) {
            gint w = 0, h = 0;
            gchar *label, *why = NULL;
            GstElement *pipe;

            if (sscanf (resolutions[r], "%dx%d", &w, &h) != 2 || w <= 0 || h <= 0) {
              g_printerr ("clconvolve-warmup: --resolution %s is not WIDTHxHEIGHT\n",
                  resolutions[r]);
              g_free (extras);
              return 2;
            }
            label = g_strdup_printf ("%s %dx%d kernel=%s size=%s method=%s%s%s", formats[f],
                w, h, kernels[k], sizes[s], methods[m], *extras ? " " : "", extras);
            pipe = make_pipeline (device, formats[f], w, h, kernels[k], sizes[s], methods[m],
                extra, &why);
            if (!pipe) {
              g_printerr ("clconvolve-warmup: %s: %s\n", label, why);
              g_free (why);
              g_free (label);
              g_free (extras);
              return 2;
            }
            g_print ("[%d] %s\n", ++*runs, label);
            {
              GstBus *bus = gst_element_get_bus (pipe);

              gst_element_set_state (pipe, GST_STATE_PLAYING);
              watch (bus, label, p);
              gst_element_set_state (pipe, GST_STATE_NULL);
              gst_object_unref (bus);
              gst_object_unref (pipe);
            }
            g_free (label);
          }
  g_free (extras);
  return 0;
}

static gint
warm_up (const gchar * device, gchar ** formats, gchar ** resolutions, gchar ** kernels,
    gchar ** sizes, gchar ** methods, gchar ** extra)
{
  Progress p = { 0, 0, g_get_monotonic_time () };
  gint runs = 0, rc = 0;
  gchar **devices = NULL;

  if (!g_strcmp0 (g_getenv ("GST_CLCONVOLVE_CACHE_DIR"), ""))
    g_print ("note: GST_CLCONVOLVE_CACHE_DIR is empty: programs are not kept on disk\n");
  if (gst_cl_device_spec_is_auto (device) || !g_strcmp0 (device, "all")) {
    devices = devices_of (device);
    if (!devices[0]) {
      g_printerr ("clconvolve-warmup: no OpenCL device for --device %s (--list shows "
          "them)\n", device);
      rc = 1;
    }
    for (gint d = 0; devices[d] && !rc; d++) {
      g_print ("device=\"%s\" (of --device %s)\n", devices[d], device);
      rc = warm_device (devices[d], formats, resolutions, kernels, sizes, methods, extra,
          &runs, &p);
    }
    g_strfreev (devices);
  } else {
    rc = warm_device (device, formats, resolutions, kernels, sizes, methods, extra, &runs, &p);
  }
  if (rc)
    return rc;
  g_print ("%d setting%s: %d job%s done, %d failed, %.1f s\n", runs, runs == 1 ? "" : "s",
      p.done, p.done == 1 ? "" : "s", p.failed, (g_get_monotonic_time () - p.start) / 1e6);
  return p.failed ? 1 : 0;
}

gint
main (gint argc, gchar ** argv)
{
  gboolean list = FALSE, version = FALSE;
  gchar *device = NULL, *formats = NULL, *resolutions = NULL, *kernels = NULL, *sizes = NULL;
  gchar *methods = NULL, **extra = NULL;
  GOptionEntry entries[] = {
    {"list", 'l', 0, G_OPTION_ARG_NONE, &list, "List the OpenCL devices and exit", NULL},
    {"version", 0, 0, G_OPTION_ARG_NONE, &version, "Print the version and exit", NULL},
    {"device", 'd', 0, G_OPTION_ARG_STRING, &device, "clconvolve's device= (default: the "
          "element's default); 'auto...': every device it may place elements on; 'all': every "
          "device", "S"},
    {"format", 'f', 0, G_OPTION_ARG_STRING, &formats, "Video formats (default RGBA)", "F,..."},
    {"resolution", 'r', 0, G_OPTION_ARG_STRING, &resolutions, "Frame sizes (default "
          "1280x720)", "WxH,..."},
    {"kernel", 'k', 0, G_OPTION_ARG_STRING, &kernels, "kernel= presets (default gaussian)",
        "K,..."},
    {"size", 's', 0, G_OPTION_ARG_STRING, &sizes, "size= values (default 7)", "N,..."},
    {"method", 'm', 0, G_OPTION_ARG_STRING, &methods, "method= values (default auto)", "M,..."},
    {"set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &extra, "More clconvolve properties for every "
          "run (e.g. \"border=mirror\")", "P=V"},
    {NULL}
  };
  GOptionContext *oc;
  GError *error = NULL;
  gint rc;

  if (argc >= 2 && !strcmp (argv[1], "--job")) {
    gst_init (NULL, NULL);
    return job_once (argv + 2);
  }
  if (argc == 2 && !strcmp (argv[1], "--serve")) {
    gst_init (NULL, NULL);
    return serve ();
  }
  /* the element waits for its jobs: the first frame of each run fills the caches */
  g_setenv ("GST_CLCONVOLVE_SYNC_BUILDS", "1", TRUE);
  oc = g_option_context_new ("- compile and tune clconvolve's kernels ahead of time");
  g_option_context_set_summary (oc, "Runs clconvolve on two frames of each combination of the "
      "lists given, so that its programs and tuning choices are in the disk caches before a "
      "pipeline needs them.\nExample: clconvolve-warmup --format RGBA,NV12 --resolution "
      "1920x1080 --kernel gaussian,box --size 5,9");
  g_option_context_set_description (oc, "Programs are kept in $XDG_CACHE_HOME/clconvolve "
      "(GST_CLCONVOLVE_CACHE_DIR moves them; empty: not kept), tuning choices in "
      "$XDG_CACHE_HOME/clconvolve/tuning (GST_CLCONVOLVE_TUNE_DIR), PoCL's code in its own "
      "cache (POCL_CACHE_DIR).\nExit status: 0 every job done; 1 a job failed, or no OpenCL "
      "device; 2 a bad option or value, or no clconvolve plugin.\nSee clconvolve-warmup(1).");
  g_option_context_add_main_entries (oc, entries, NULL);
  g_option_context_add_group (oc, gst_init_get_option_group ());
  if (!g_option_context_parse (oc, &argc, &argv, &error)) {
    g_printerr ("clconvolve-warmup: %s\n", error->message);
    g_clear_error (&error);
    g_option_context_free (oc);
    return 2;
  }
  g_option_context_free (oc);
  if (version) {
    g_print ("clconvolve-warmup %s\n", VERSION);
    rc = 0;
  } else if (list) {
    rc = list_devices ();
  } else {
    gchar **f = split_list (formats, "RGBA"), **r = split_list (resolutions, "1280x720");
    gchar **k = split_list (kernels, "gaussian"), **s = split_list (sizes, "7");
    gchar **m = split_list (methods, "auto");

    GstPluginFeature *element = gst_registry_find_feature (gst_registry_get (), "clconvolve",
        GST_TYPE_ELEMENT_FACTORY);

    if (!element) {
      g_printerr ("clconvolve-warmup: GStreamer has no clconvolve element: is the plugin "
          "installed, or GST_PLUGIN_PATH set to its directory?\n");
      rc = 2;
    } else {
      gst_object_unref (element);
      rc = warm_up (device, f, r, k, s, m, extra);
    }
    g_strfreev (f);
    g_strfreev (r);
    g_strfreev (k);
    g_strfreev (s);
    g_strfreev (m);
  }
  g_free (device);
  g_free (formats);
  g_free (resolutions);
  g_free (kernels);
  g_free (sizes);
  g_free (methods);
  g_strfreev (extra);
  return rc;
}
