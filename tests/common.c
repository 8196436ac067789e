/* clconvolve tests: shared helpers
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "common.h"
#include "cloverrides.h"

#include <gst/app/gstappsink.h>
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

/* The OpenCL device labelled "device (platform)" (the element's device-name), asked of OpenCL
 * itself, not of the element; FALSE when no device has that label. */
static gboolean
find_device (const gchar * label, cl_device_id * out)
{
  cl_platform_id platforms[16];
  cl_uint np = 0;
  gboolean found = FALSE;

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

      clGetDeviceInfo (devs[d], CL_DEVICE_NAME, sizeof (dname) - 1, dname, NULL);
      l = g_strdup_printf ("%s (%s)", dname, pname);
      if (!g_strcmp0 (l, label)) {
        found = TRUE;
        *out = devs[d];
      }
      g_free (l);
    }
  }
  return found;
}

/* Whether the device labelled label shares memory with the host. */
static gboolean
device_host_unified (const gchar * label)
{
  cl_device_id dev;
  cl_bool u = CL_FALSE;

  if (!find_device (label, &dev)) {
    g_printerr ("note: no OpenCL device is labelled '%s'; taking it as discrete\n", label);
    return FALSE;
  }
  clGetDeviceInfo (dev, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof (u), &u, NULL);
  return u == CL_TRUE;
}

/* the device require_device () found, by its label */
static gchar *suite_device;

gboolean
suite_device_facts (DeviceFacts * facts)
{
  cl_device_id dev;
  cl_device_local_mem_type type = CL_GLOBAL;
  cl_ulong local = 0;
  size_t wg = 0;
  cl_uint fwidth = 0;

  memset (facts, 0, sizeof (*facts));
  if (!suite_device || !find_device (suite_device, &dev))
    return FALSE;
  clGetDeviceInfo (dev, CL_DEVICE_LOCAL_MEM_TYPE, sizeof (type), &type, NULL);
  clGetDeviceInfo (dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof (local), &local, NULL);
  clGetDeviceInfo (dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof (wg), &wg, NULL);
  clGetDeviceInfo (dev, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof (fwidth), &fwidth, NULL);
  /* the element's developer override: a CPU taken as a GPU */
  if (g_strcmp0 (g_getenv (CL_AS_GPU_ENV), "1") == 0 && type != CL_LOCAL) {
    type = CL_LOCAL;
    local = MIN (local, CL_AS_GPU_LOCAL_MEM);
  }
  facts->local_mem_dedicated = type == CL_LOCAL;
  facts->local_mem_size = local;
  facts->max_work_group_size = wg;
  facts->native_float_width = fwidth;
  return TRUE;
}

gboolean
suite_tiled_everywhere (void)
{
  DeviceFacts d;

  return suite_device_facts (&d) && d.local_mem_dedicated;
}

gboolean
require_device (gboolean * host_unified)
{
  GError *err = NULL;
  gchar *device = NULL;

  /* the variant rules, not a tuning: every suite process starts here, the first ones at the
   * same time on a cold PoCL cache, where timing the candidates cost each of them seconds of
   * compiling; the default element (method=auto, tuned) is the device_available tests' */
  if (!run_one_frame ("clconvolve autotune=false", &err, NULL, &device)) {
    g_printerr ("FAIL: %s.\nThe element said: %s\n", NO_DEVICE_HINT,
        err ? err->message : "nothing");
    g_clear_error (&err);
    return FALSE;
  }
  if (host_unified)
    *host_unified = device && device_host_unified (device);
  g_printerr ("device: %s\n", device ? device : "?");
  g_free (suite_device);
  suite_device = device;
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
  /* presets the element tests cover in cases of their own, not through preset_table */
  static const TestPreset others[] = {
    {"scharr-x", CONV_PRESET_SCHARR_X}, {"scharr-y", CONV_PRESET_SCHARR_Y},
    {"prewitt-x", CONV_PRESET_PREWITT_X}, {"prewitt-y", CONV_PRESET_PREWITT_Y},
  };

  for (guint i = 0; i < TEST_N_PRESETS; i++)
    if (!strcmp (preset_table[i].nick, nick))
      return preset_table[i].preset;
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    if (!strcmp (others[i].nick, nick))
      return others[i].preset;
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

gchar *
matrix_string_rect (const gdouble * k, gint w, gint h, const gchar * row_end)
{
  GString *s = g_string_new (NULL);
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  for (gint i = 0; i < w * h; i++) {
    g_string_append (s, g_ascii_dtostr (buf, sizeof (buf), k[i]));
    g_string_append (s, (i + 1) % w ? " " : row_end);
  }
  return g_string_free (s, FALSE);
}

gchar *
matrix_string (const gdouble * k, gint n, const gchar * row_end)
{
  return matrix_string_rect (k, n, n, row_end);
}

gboolean
off_away_from_ties_allowed (guint off, gsize n)
{
  return off <= 2 + MAX_OFF_BY_ONE_FRACTION * n;
}

static void
set_discrete_env (gboolean discrete)
{
  if (discrete)
    g_setenv (DISCRETE_ENV, "1", TRUE);
  else
    g_unsetenv (DISCRETE_ENV);
}

cl_context
app_context_where (cl_device_id * device, gboolean (*accept) (cl_context cl,
        cl_device_id device))
{
  const cl_device_type types[] = { CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ALL };
  cl_platform_id platforms[8];
  cl_device_id devices[8];
  cl_uint np = 0, nd = 0;
  cl_int err;

  fail_unless (clGetPlatformIDs (8, platforms, &np) == CL_SUCCESS && np > 0);
  for (guint t = 0; t < G_N_ELEMENTS (types); t++)
    for (cl_uint p = 0; p < MIN (np, 8); p++) {
      if (clGetDeviceIDs (platforms[p], types[t], 8, devices, &nd) != CL_SUCCESS)
        continue;
      for (cl_uint d = 0; d < MIN (nd, 8); d++) {
        cl_context cl = clCreateContext (NULL, 1, &devices[d], NULL, NULL, &err);

        if (cl && (!accept || accept (cl, devices[d]))) {
          *device = devices[d];
          return cl;
        }
        if (cl)
          clReleaseContext (cl);
      }
    }
  return NULL;
}

cl_context
app_context (cl_device_id * device)
{
  cl_context cl = app_context_where (device, NULL);

  fail_unless (cl != NULL, "could not create an OpenCL context");
  return cl;
}

GstContext *
app_gst_context (cl_context cl, cl_device_id device)
{
  GstContext *c = gst_context_new ("gst.cl.context", TRUE);

  gst_structure_set (gst_context_writable_structure (c), "cl-context", G_TYPE_POINTER, cl,
      "cl-device", G_TYPE_POINTER, device, NULL);
  return c;
}

static GstContext *given_context;

void
use_app_context (GstContext * context)
{
  given_context = context;
}

GstHarness *
harness_on_path (GstElement * e, gboolean discrete)
{
  GstHarness *h;

  if (given_context)
    gst_element_set_context (e, given_context);
  /* the element reads the variable when it starts, which gst_harness_new_with_element does */
  set_discrete_env (discrete);
  h = gst_harness_new_with_element (e, "sink", "src");
  g_unsetenv (DISCRETE_ENV);
  return h;
}

void
fill_garbage (GstBuffer * buf)
{
  GstMapInfo map;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (gsize i = 0; i < map.size; i++)
    map.data[i] = (guint8) (i * 37 + 11);
  gst_buffer_unmap (buf, &map);
}

/* pipelines started and not yet stopped */
static GList *live_pipelines;

GstElement *
parse_pipeline (const gchar * desc)
{
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (desc, &err);

  fail_unless (pipe != NULL && err == NULL, "%s: %s", desc, err ? err->message : "?");
  return pipe;
}

GstElement *
start_pipeline (const gchar * desc, gboolean discrete)
{
  return start_parsed (parse_pipeline (desc), desc, discrete);
}

GstElement *
start_parsed (GstElement * pipe, const gchar * desc, gboolean discrete)
{
  /* tracked before it starts: a failed start leaves it to stop_leftover_pipelines () */
  track_pipeline (pipe);
  if (given_context)
    gst_element_set_context (pipe, given_context);
  set_discrete_env (discrete);
  /* NULL -> READY -> PAUSED runs every element's start () in this thread */
  fail_if (gst_element_set_state (pipe, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE,
      "%s does not start", desc);
  g_unsetenv (DISCRETE_ENV);
  return pipe;
}

void
track_pipeline (GstElement * pipe)
{
  if (!g_list_find (live_pipelines, pipe))
    live_pipelines = g_list_prepend (live_pipelines, pipe);
}

void
stop_pipeline (GstElement * pipe)
{
  live_pipelines = g_list_remove (live_pipelines, pipe);
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pipe);
}

void
stop_leftover_pipelines (void)
{
  for (GList * l = live_pipelines; l; l = l->next) {
    gst_element_set_state (l->data, GST_STATE_NULL);
    gst_object_unref (l->data);
  }
  g_clear_pointer (&live_pipelines, g_list_free);
  g_unsetenv (DISCRETE_ENV);
}

void
check_no_error (GstElement * pipe, const gchar * what)
{
  GstMessage *msg = gst_bus_pop_filtered (GST_ELEMENT_BUS (pipe), GST_MESSAGE_ERROR);

  if (msg) {
    GError *err = NULL;
    gchar *debug = NULL;

    gst_message_parse_error (msg, &err, &debug);
    fail ("%s: %s (%s)", what, err->message, debug);
  }
}

GstBuffer *
pull_within (GstHarness * h, gdouble seconds)
{
  gint64 until = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  GstBuffer *out;

  while (!(out = gst_harness_try_pull (h)) && g_get_monotonic_time () < until)
    g_usleep (500);
  return out;
}

guint
pull_samples (GstElement * pipe, guint max, const gchar * what, SampleFunc func,
    gpointer user_data)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstSample *sample;
  guint n = 0;

  fail_unless (sink != NULL, "%s: no element named sink", what);
  while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 60 * GST_SECOND))) {
    fail_unless (n < max, "%s: more than %u frames", what, max);
    func (sample, n++, user_data);
    gst_sample_unref (sample);
  }
  check_no_error (pipe, what);
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (sink)), "%s: no EOS after %u frames", what,
      n);
  gst_object_unref (sink);
  return n;
}

GstElement *
element_by_name (GstElement * pipe, const gchar * name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipe), name);

  fail_unless (e != NULL, "no element named %s", name);
  gst_object_unref (e);         /* the pipeline keeps it alive */
  return e;
}

int
run_device_suite (int argc, char **argv, Suite * (*make_suite) (void), const gchar * name,
    const gchar * file, gboolean * host_unified)
{
  g_setenv ("CK_FORK", "no", TRUE);
  gst_check_init (&argc, &argv);

  if (!require_device (host_unified))
    return 1;
  return gst_check_run_suite (make_suite (), name, file);
}
