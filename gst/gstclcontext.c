/* clconvolve: OpenCL device, context and program cache
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclcontext.h"
#include "gstclprogramcache.h"
#include "cloverrides.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_context_debug);
#define GST_CAT_DEFAULT gst_cl_context_debug

#define HOW_TO_GET_A_DEVICE \
  "Install an OpenCL driver: 'apt-get install pocl-opencl-icd' for the CPU, or your GPU's " \
  "OpenCL ICD (e.g. nvidia-opencl-icd, mesa-opencl-icd, intel-opencl-icd); 'clinfo -l' lists " \
  "what is installed"

/* The hint of a "no device" error: how to get one, or, where PoCL is registered with the ICD
 * loader already (its pocl.icd in OCL_ICD_VENDORS or /etc/OpenCL/vendors), how to see why it
 * gives none. */
static const gchar *
how_to_get_a_device (void)
{
  const gchar *vendors = g_getenv ("OCL_ICD_VENDORS");
  gchar *icd;
  gboolean pocl;

  if (!vendors || !*vendors)
    vendors = "/etc/OpenCL/vendors";
  icd = g_str_has_suffix (vendors, ".icd") ? g_strdup (vendors) :
      g_build_filename (vendors, "pocl.icd", NULL);
  pocl = g_str_has_suffix (icd, "pocl.icd") && g_file_test (icd, G_FILE_TEST_EXISTS);
  g_free (icd);
  return pocl ? "PoCL is registered with the OpenCL loader but gives no device: 'clinfo' "
      "says why (POCL_DEBUG=all gives details), or install your GPU's OpenCL ICD" :
      HOW_TO_GET_A_DEVICE;
}

#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif

/* The contexts made, one per device (and application context), found through weak
 * references: the last unref of a context finalizes it (and removes it here) while acquire may
 * be looking for it. The default contexts acquire makes are also held for the whole process
 * (unless GST_CLCONVOLVE_KEEP_CONTEXT=0), so that their programs and tuning choices outlive a
 * pipeline that stops and starts again. */
typedef struct
{
  cl_device_id device;
  cl_context wrapped;           /* the application's, NULL for acquire's own */
  gpointer object;              /* the context, only to find its entry when it goes */
  GWeakRef ref;
} RegistryEntry;

#define KEEP_ENV "GST_CLCONVOLVE_KEEP_CONTEXT"

static GMutex registry_lock;
static GList *registry;         /* RegistryEntry* */
/* cl_device_id -> the elements working on it (gst_cl_context_join), device=auto's load */
static GHashTable *device_load;

/* The live context of device (and wrapped), a new reference; NULL if none (under
 * registry_lock). */
static GstClContext *
registry_find (cl_device_id device, cl_context wrapped)
{
  GstClContext *ctx = NULL;

  for (GList * l = registry; l && !ctx; l = l->next) {
    RegistryEntry *r = l->data;

    /* NULL while the last reference to it goes: then a new one is made */
    if (r->device == device && r->wrapped == wrapped)
      ctx = g_weak_ref_get (&r->ref);
  }
  return ctx;
}

static void
registry_add (GstClContext * ctx, cl_context wrapped)
{
  RegistryEntry *r = g_new0 (RegistryEntry, 1);

  r->device = ctx->device;
  r->wrapped = wrapped;
  r->object = ctx;
  g_weak_ref_init (&r->ref, ctx);
  registry = g_list_prepend (registry, r);
}


G_DEFINE_TYPE (GstClContext, gst_cl_context, GST_TYPE_OBJECT);

void
gst_cl_context_init_debug (void)
{
  static gsize debug_once = 0;

  if (g_once_init_enter (&debug_once)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_context_debug, "clcontext", 0, "OpenCL context");
    g_once_init_leave (&debug_once, 1);
  }
}

static void
gst_cl_context_init (GstClContext * ctx)
{
  g_mutex_init (&ctx->lock);
  g_cond_init (&ctx->built);
}

const gchar *
gst_cl_error_to_string (cl_int err)
{
  switch (err) {
#define E(x) case x: return #x
      E (CL_SUCCESS);
      E (CL_DEVICE_NOT_FOUND);
      E (CL_DEVICE_NOT_AVAILABLE);
      E (CL_COMPILER_NOT_AVAILABLE);
      E (CL_MEM_OBJECT_ALLOCATION_FAILURE);
      E (CL_OUT_OF_RESOURCES);
      E (CL_OUT_OF_HOST_MEMORY);
      E (CL_PROFILING_INFO_NOT_AVAILABLE);
      E (CL_MEM_COPY_OVERLAP);
      E (CL_IMAGE_FORMAT_MISMATCH);
      E (CL_IMAGE_FORMAT_NOT_SUPPORTED);
      E (CL_BUILD_PROGRAM_FAILURE);
      E (CL_MAP_FAILURE);
      E (CL_MISALIGNED_SUB_BUFFER_OFFSET);
      E (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
      E (CL_COMPILE_PROGRAM_FAILURE);
      E (CL_LINKER_NOT_AVAILABLE);
      E (CL_LINK_PROGRAM_FAILURE);
      E (CL_DEVICE_PARTITION_FAILED);
      E (CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
      E (CL_INVALID_VALUE);
      E (CL_INVALID_DEVICE_TYPE);
      E (CL_INVALID_PLATFORM);
      E (CL_INVALID_DEVICE);
      E (CL_INVALID_CONTEXT);
      E (CL_INVALID_QUEUE_PROPERTIES);
      E (CL_INVALID_COMMAND_QUEUE);
      E (CL_INVALID_HOST_PTR);
      E (CL_INVALID_MEM_OBJECT);
      E (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
      E (CL_INVALID_IMAGE_SIZE);
      E (CL_INVALID_SAMPLER);
      E (CL_INVALID_BINARY);
      E (CL_INVALID_BUILD_OPTIONS);
      E (CL_INVALID_PROGRAM);
      E (CL_INVALID_PROGRAM_EXECUTABLE);
      E (CL_INVALID_KERNEL_NAME);
      E (CL_INVALID_KERNEL_DEFINITION);
      E (CL_INVALID_KERNEL);
      E (CL_INVALID_ARG_INDEX);
      E (CL_INVALID_ARG_VALUE);
      E (CL_INVALID_ARG_SIZE);
      E (CL_INVALID_KERNEL_ARGS);
      E (CL_INVALID_WORK_DIMENSION);
      E (CL_INVALID_WORK_GROUP_SIZE);
      E (CL_INVALID_WORK_ITEM_SIZE);
      E (CL_INVALID_GLOBAL_OFFSET);
      E (CL_INVALID_EVENT_WAIT_LIST);
      E (CL_INVALID_EVENT);
      E (CL_INVALID_OPERATION);
      E (CL_INVALID_GL_OBJECT);
      E (CL_INVALID_BUFFER_SIZE);
      E (CL_INVALID_MIP_LEVEL);
      E (CL_INVALID_GLOBAL_WORK_SIZE);
      E (CL_INVALID_PROPERTY);
      E (CL_INVALID_IMAGE_DESCRIPTOR);
      E (CL_INVALID_COMPILER_OPTIONS);
      E (CL_INVALID_LINKER_OPTIONS);
      E (CL_INVALID_DEVICE_PARTITION_COUNT);
      E (CL_PLATFORM_NOT_FOUND_KHR);
#undef E
    default:
      return "unknown OpenCL error";
  }
}

static gchar *
platform_string (cl_platform_id p, cl_platform_info what)
{
  gsize len = 0;
  gchar *s;

  if (clGetPlatformInfo (p, what, 0, NULL, &len) != CL_SUCCESS || len == 0)
    return g_strdup ("");
  s = g_malloc0 (len + 1);
  clGetPlatformInfo (p, what, len, s, NULL);
  return g_strstrip (s);
}

static gchar *
device_string (cl_device_id d, cl_device_info what)
{
  gsize len = 0;
  gchar *s;

  if (clGetDeviceInfo (d, what, 0, NULL, &len) != CL_SUCCESS || len == 0)
    return g_strdup ("");
  s = g_malloc0 (len + 1);
  clGetDeviceInfo (d, what, len, s, NULL);
  return g_strstrip (s);
}

typedef struct
{
  cl_platform_id platform;
  cl_device_id device;
  cl_device_type type;
  guint pi, di;
  gchar *label;                 /* "device name (platform name)" */
} DeviceEntry;

/* Every device of every platform, in platform order. */
static GArray *
list_devices (cl_int * err_out)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (DeviceEntry));
  cl_uint np = 0;
  cl_platform_id *platforms;
  cl_int err;

  err = clGetPlatformIDs (0, NULL, &np);
  *err_out = err;
  if (err != CL_SUCCESS || np == 0)
    return out;
  platforms = g_new0 (cl_platform_id, np);
  err = clGetPlatformIDs (np, platforms, NULL);
  *err_out = err;
  if (err != CL_SUCCESS) {
    g_free (platforms);
    return out;
  }

  for (guint p = 0; p < np; p++) {
    cl_uint nd = 0;
    cl_device_id *devices;
    gchar *pname;

    if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS || !nd)
      continue;
    devices = g_new0 (cl_device_id, nd);
    if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, nd, devices, NULL) != CL_SUCCESS)
      nd = 0;
    pname = platform_string (platforms[p], CL_PLATFORM_NAME);
    for (guint d = 0; d < nd; d++) {
      DeviceEntry e = { platforms[p], devices[d], 0, p, d, NULL };
      gchar *dname = device_string (devices[d], CL_DEVICE_NAME);

      clGetDeviceInfo (devices[d], CL_DEVICE_TYPE, sizeof (e.type), &e.type, NULL);
      e.label = g_strdup_printf ("%s (%s)", dname, pname);
      g_free (dname);
      g_array_append_val (out, e);
    }
    g_free (pname);
    g_free (devices);
  }
  g_free (platforms);
  return out;
}

static void
free_devices (GArray * devs)
{
  for (guint i = 0; i < devs->len; i++)
    g_free (g_array_index (devs, DeviceEntry, i).label);
  g_array_free (devs, TRUE);
}

static const DeviceEntry *
first_of_type (GArray * devs, cl_device_type type)
{
  for (guint i = 0; i < devs->len; i++) {
    const DeviceEntry *e = &g_array_index (devs, DeviceEntry, i);
    if (e->type & type)
      return e;
  }
  return NULL;
}

/* "P:D": two decimal indices and nothing else. */
static gboolean
parse_indices (const gchar * spec, guint * pi, guint * di)
{
  gchar *end;
  guint64 p, d;

  if (!g_ascii_isdigit (spec[0]))
    return FALSE;
  p = g_ascii_strtoull (spec, &end, 10);
  if (*end != ':' || !g_ascii_isdigit (end[1]))
    return FALSE;
  d = g_ascii_strtoull (end + 1, &end, 10);
  if (*end || p > G_MAXUINT || d > G_MAXUINT)
    return FALSE;
  *pi = p;
  *di = d;
  return TRUE;
}

/* What follows "auto" or "auto:" in an auto spec ("" for plain auto). */
static const gchar *
auto_filter (const gchar * spec)
{
  return spec[4] == ':' ? spec + 5 : spec + 4;
}

gboolean
gst_cl_device_spec_check (const gchar * spec, gchar ** why)
{
  guint pi, di;

  if (gst_cl_device_spec_is_auto (spec)) {
    const gchar *filter = auto_filter (spec);

    if (!*filter || strspn (filter, "0123456789:") != strlen (filter))
      return TRUE;
    *why = g_strdup_printf ("device=\"%s\": auto places among a kind of device "
        "(auto:gpu, auto:cpu, auto:accelerator) or the devices whose name contains a text "
        "(auto:NAME), not among indices", spec);
    return FALSE;
  }

  if (!spec || !*spec || strspn (spec, "0123456789:") != strlen (spec) ||
      parse_indices (spec, &pi, &di))
    return TRUE;
  *why = g_strdup_printf ("device=\"%s\" is made of indices but is not \"P:D\" (one "
      "platform and one device index, as 'clinfo -l' lists them, e.g. \"0:1\")", spec);
  return FALSE;
}

gboolean
gst_cl_device_spec_is_auto (const gchar * spec)
{
  return spec && !g_ascii_strncasecmp (spec, "auto", 4) && (spec[4] == '\0' || spec[4] == ':');
}

/* Whether e is one of the devices an "auto" spec places elements on: "auto" (or "auto:") the
 * kind the default device is of (the GPUs, else the CPUs, else every device), "auto:gpu",
 * "auto:cpu", "auto:accelerator" the devices of that type, "auto:TEXT" those whose device or
 * platform name contains TEXT (case-insensitive). */
static gboolean
auto_candidate (GArray * devs, const gchar * spec, const DeviceEntry * e)
{
  const gchar *filter = auto_filter (spec);
  gchar *needle, *hay;
  gboolean found;

  if (!*filter)
    return first_of_type (devs, CL_DEVICE_TYPE_GPU) ? (e->type & CL_DEVICE_TYPE_GPU) != 0 :
        first_of_type (devs, CL_DEVICE_TYPE_CPU) ? (e->type & CL_DEVICE_TYPE_CPU) != 0 : TRUE;
  if (!g_ascii_strcasecmp (filter, "gpu"))
    return (e->type & CL_DEVICE_TYPE_GPU) != 0;
  if (!g_ascii_strcasecmp (filter, "cpu"))
    return (e->type & CL_DEVICE_TYPE_CPU) != 0;
  if (!g_ascii_strcasecmp (filter, "accelerator"))
    return (e->type & CL_DEVICE_TYPE_ACCELERATOR) != 0;
  needle = g_ascii_strdown (filter, -1);
  hay = g_ascii_strdown (e->label, -1);
  found = strstr (hay, needle) != NULL;
  g_free (hay);
  g_free (needle);
  return found;
}

/* The elements working on device now (under registry_lock). */
static guint
load_of (cl_device_id device)
{
  return device_load ? GPOINTER_TO_UINT (g_hash_table_lookup (device_load, device)) : 0;
}

/* The candidate of an "auto" spec with the fewest elements on it, the first listed of those
 * that tie; NULL when no device is a candidate (under registry_lock). */
static const DeviceEntry *
least_loaded (GArray * devs, const gchar * spec)
{
  const DeviceEntry *best = NULL;
  guint best_load = G_MAXUINT;
  GString *loads;

  /* also reached from gst_cl_device_list (clconvolve-warmup --list), before any context */
  gst_cl_context_init_debug ();
  loads = gst_debug_category_get_threshold (gst_cl_context_debug) >= GST_LEVEL_INFO ?
      g_string_new (NULL) : NULL;

  for (guint i = 0; i < devs->len; i++) {
    const DeviceEntry *e = &g_array_index (devs, DeviceEntry, i);
    guint load;

    if (!auto_candidate (devs, spec, e))
      continue;
    load = load_of (e->device);
    if (loads)
      g_string_append_printf (loads, "%s%u:%u %u", loads->len ? ", " : "", e->pi, e->di,
          load);
    if (load < best_load) {
      best = e;
      best_load = load;
    }
  }
  if (best && loads)
    GST_INFO ("device=\"%s\": %u:%u %s has the fewest elements (%s)", spec, best->pi,
        best->di, best->label, loads->str);
  if (loads)
    g_string_free (loads, TRUE);
  return best;
}

static const DeviceEntry *
match_device (GArray * devs, const gchar * spec)
{
  guint pi, di;
  gchar *needle;
  const DeviceEntry *found = NULL;

  /* no device named: the least loaded of plain auto's (the GPUs, else the CPUs, else every
   * device; the first on a tie, so one GPU is always the first). Unlike device=auto, a
   * context the pipeline or the application gives still comes first (ensure_element). */
  if (spec == NULL || *spec == '\0')
    return least_loaded (devs, "auto");
  if (gst_cl_device_spec_is_auto (spec))
    return least_loaded (devs, spec);
  if (!g_ascii_strcasecmp (spec, "gpu"))
    return first_of_type (devs, CL_DEVICE_TYPE_GPU);
  if (!g_ascii_strcasecmp (spec, "cpu"))
    return first_of_type (devs, CL_DEVICE_TYPE_CPU);
  if (!g_ascii_strcasecmp (spec, "accelerator"))
    return first_of_type (devs, CL_DEVICE_TYPE_ACCELERATOR);
  if (strspn (spec, "0123456789:") == strlen (spec)) {
    if (!parse_indices (spec, &pi, &di))
      return NULL;
    for (guint i = 0; i < devs->len; i++) {
      const DeviceEntry *e = &g_array_index (devs, DeviceEntry, i);
      if (e->pi == pi && e->di == di)
        return e;
    }
    return NULL;
  }
  needle = g_ascii_strdown (spec, -1);
  for (guint i = 0; i < devs->len && !found; i++) {
    const DeviceEntry *e = &g_array_index (devs, DeviceEntry, i);
    gchar *hay = g_ascii_strdown (e->label, -1);
    if (strstr (hay, needle))
      found = e;
    g_free (hay);
  }
  g_free (needle);
  return found;
}

static gchar *
info_string (cl_int (*get) (void *, cl_uint, size_t, void *, size_t *), void *obj,
    cl_uint what)
{
  size_t len = 0;
  gchar *buf;

  if (get (obj, what, 0, NULL, &len) != CL_SUCCESS || len == 0)
    return g_strdup ("?");
  buf = g_malloc0 (len + 1);
  if (get (obj, what, len, buf, NULL) != CL_SUCCESS)
    buf[0] = '\0';
  return buf;
}

static void
device_info_free (GstClDeviceInfo * d)
{
  g_free (d->index_spec);
  g_free (d->name);
  g_free (d->platform);
  g_strfreev (d->selected_by);
  g_strfreev (d->placed_by);
  g_free (d);
}

GPtrArray *
gst_cl_device_list (void)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) device_info_free);
  cl_int err;
  GArray *devs = list_devices (&err);

  for (guint i = 0; i < devs->len; i++) {
    const DeviceEntry *e = &g_array_index (devs, DeviceEntry, i);
    GstClDeviceInfo *d = g_new0 (GstClDeviceInfo, 1);
    GPtrArray *sel = g_ptr_array_new ();
    const gchar *const kinds[] = { "", "gpu", "cpu", "accelerator" };
    const gchar *const autos[] = { "auto", "auto:gpu", "auto:cpu", "auto:accelerator" };

    d->index_spec = g_strdup_printf ("%u:%u", e->pi, e->di);
    d->name = device_string (e->device, CL_DEVICE_NAME);
    d->platform = platform_string (e->platform, CL_PLATFORM_NAME);
    d->type = e->type & CL_DEVICE_TYPE_GPU ? "GPU" : e->type & CL_DEVICE_TYPE_CPU ? "CPU" :
        e->type & CL_DEVICE_TYPE_ACCELERATOR ? "accelerator" : "other";
    g_ptr_array_add (sel, g_strdup (d->index_spec));
    for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
      if (match_device (devs, kinds[k]) == e)
        g_ptr_array_add (sel, g_strdup (kinds[k]));
    /* a name that reads as an auto spec selects nothing by itself */
    if (!gst_cl_device_spec_is_auto (d->name) && match_device (devs, d->name) == e)
      g_ptr_array_add (sel, g_strdup (d->name));
    g_ptr_array_add (sel, NULL);
    d->selected_by = (gchar **) g_ptr_array_free (sel, FALSE);
    sel = g_ptr_array_new ();
    for (guint k = 0; k < G_N_ELEMENTS (autos); k++)
      if (auto_candidate (devs, autos[k], e))
        g_ptr_array_add (sel, g_strdup (autos[k]));
    g_ptr_array_add (sel, NULL);
    d->placed_by = (gchar **) g_ptr_array_free (sel, FALSE);
    g_ptr_array_add (out, d);
  }
  free_devices (devs);
  return out;
}

gchar **
gst_cl_device_auto_candidates (const gchar * spec)
{
  GPtrArray *out = g_ptr_array_new ();
  cl_int err;
  GArray *devs = list_devices (&err);

  for (guint i = 0; i < devs->len && gst_cl_device_spec_is_auto (spec); i++) {
    const DeviceEntry *e = &g_array_index (devs, DeviceEntry, i);

    if (auto_candidate (devs, spec, e))
      g_ptr_array_add (out, g_strdup_printf ("%u:%u", e->pi, e->di));
  }
  free_devices (devs);
  g_ptr_array_add (out, NULL);
  return (gchar **) g_ptr_array_free (out, FALSE);
}

/* What a binary is valid for: the device and the versions of its driver and platform. */
static gchar *
device_identity (const DeviceEntry * e)
{
  typedef cl_int (*Get) (void *, cl_uint, size_t, void *, size_t *);
  gchar *dv = info_string ((Get) clGetDeviceInfo, e->device, CL_DEVICE_VERSION);
  gchar *drv = info_string ((Get) clGetDeviceInfo, e->device, CL_DRIVER_VERSION);
  gchar *pv = info_string ((Get) clGetPlatformInfo, e->platform, CL_PLATFORM_VERSION);
  gchar *id = g_strdup_printf ("%s|%s|%s|%s", e->label, dv, drv, pv);

  g_free (dv);
  g_free (drv);
  g_free (pv);
  return id;
}

/* A program of the context's table. */
typedef struct
{
  cl_program program;           /* NULL while its build is in progress */
  guint users;                  /* uses handed out and not given back */
  guint64 last_use;             /* ctx->clock at the last get or unuse */
} ProgramEntry;

static void
program_entry_free (ProgramEntry * e)
{
  if (e->program)
    clReleaseProgram (e->program);
  g_free (e);
}

static guint
max_idle_programs (void)
{
  const gchar *env = g_getenv (GST_CL_CONTEXT_IDLE_PROGRAMS_ENV);
  gchar *end = NULL;
  guint64 v;

  if (!env || !*env)
    return GST_CL_CONTEXT_MAX_IDLE_PROGRAMS;
  v = g_ascii_strtoull (env, &end, 10);
  if (*end || v > 1024) {
    GST_WARNING ("ignoring %s=%s: not a number of programs from 0 to 1024",
        GST_CL_CONTEXT_IDLE_PROGRAMS_ENV, env);
    return GST_CL_CONTEXT_MAX_IDLE_PROGRAMS;
  }
  return (guint) v;
}

/* cl_nv_device_attribute_query's CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV */
#define COMPUTE_CAPABILITY_MAJOR_NV 0x4000

/* Whether the device takes PTX mma.sync on f16 (m16n8k16) in inline assembly: an NVIDIA GPU
 * of compute capability 8.0 or later, whose OpenCL compiler passes inline PTX on. 1 there: the
 * tuner times convolve_tsep and the fixed rules take it from size 31 (docs/kernels.md).
 * GST_CLCONVOLVE_TENSOR=0 turns it off; 2 makes the fixed rules take it at every size it
 * applies to (how the GPU suites check it on every blur case). */
static gint
device_tensor_mma (cl_device_id device)
{
  const gchar *env = g_getenv ("GST_CLCONVOLVE_TENSOR");
  gchar ext[8192] = "";
  cl_uint major = 0;

  if (env && !strcmp (env, "0"))
    return 0;
  if (clGetDeviceInfo (device, CL_DEVICE_EXTENSIONS, sizeof (ext) - 1, ext, NULL) !=
      CL_SUCCESS || !strstr (ext, "cl_nv_device_attribute_query") ||
      clGetDeviceInfo (device, COMPUTE_CAPABILITY_MAJOR_NV, sizeof (major), &major, NULL) !=
      CL_SUCCESS || major < 8)
    return 0;
  return env && !strcmp (env, "2") ? 2 : 1;
}

/* GST_CLCONVOLVE_GBOX_ROWS (gst/cloverrides.h): 2, 4, 8 or 16, else 1 */
static gint
gbox_rows_override (void)
{
  const gchar *env = g_getenv (CL_GBOX_ROWS_ENV);
  gint n = env ? atoi (env) : 1;

  return n == 2 || n == 4 || n == 8 || n == 16 ? n : 1;
}

/* A context object on device e: over cl (retained) when it is not NULL, else on a new OpenCL
 * context. */
static GstClContext *
context_new (const DeviceEntry * e, cl_context cl, GError ** error)
{
  GstClContext *ctx;
  cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties) e->platform,
    0
  };
  cl_device_local_mem_type lmt = CL_GLOBAL;
  cl_ulong lms = 0;
  gsize wgs = 1;
  cl_uint fwidth = 0;
  cl_bool unified = CL_FALSE;
  gboolean as_gpu;
  cl_int err = CL_SUCCESS;
  gint64 start = g_get_monotonic_time ();

  if (cl)
    err = clRetainContext (cl);
  else
    cl = clCreateContext (props, 1, &e->device, NULL, NULL, &err);
  if (!cl || err != CL_SUCCESS) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "Could not %s an OpenCL context on %s: %s. %s", cl ? "use the given" : "create",
        e->label, gst_cl_error_to_string (err), how_to_get_a_device ());
    return NULL;
  }
  ctx = g_object_new (GST_TYPE_CL_CONTEXT, NULL);
  gst_object_ref_sink (ctx);
  ctx->context = cl;
  clGetDeviceInfo (e->device, CL_DEVICE_LOCAL_MEM_TYPE, sizeof (lmt), &lmt, NULL);
  clGetDeviceInfo (e->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof (lms), &lms, NULL);
  clGetDeviceInfo (e->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof (wgs), &wgs, NULL);
  clGetDeviceInfo (e->device, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof (fwidth), &fwidth,
      NULL);
  as_gpu = g_strcmp0 (g_getenv (CL_AS_GPU_ENV), "1") == 0 && lmt != CL_LOCAL;
  if (as_gpu) {
    lmt = CL_LOCAL;
    lms = MIN (lms, CL_AS_GPU_LOCAL_MEM);
  }
  /* deprecated in OpenCL 2.0 but answered by every 1.2 driver we target (PoCL CPU: true) */
  clGetDeviceInfo (e->device, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof (unified), &unified, NULL);

  ctx->programs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      (GDestroyNotify) program_entry_free);
  ctx->choices = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      (GDestroyNotify) g_bytes_unref);
  ctx->max_idle = max_idle_programs ();
  ctx->platform = e->platform;
  ctx->device = e->device;
  ctx->type = e->type;
  ctx->device_name = g_strdup (e->label);
  ctx->local_mem_size = lms;
  ctx->local_mem_dedicated = (lmt == CL_LOCAL);
  ctx->max_work_group_size = wgs;
  ctx->native_float_width = fwidth;
  ctx->tensor_mma = device_tensor_mma (e->device);
  ctx->gbox_rows = gbox_rows_override ();
  ctx->host_unified = unified == CL_TRUE;
  /* G_MAXUINT: a device no platform lists (an application's sub-device): "?" selects none */
  ctx->index_spec = e->pi == G_MAXUINT ? g_strdup ("?") : g_strdup_printf ("%u:%u", e->pi,
      e->di);
  ctx->cache_dir = gst_cl_program_cache_dir ();
  ctx->identity = device_identity (e);
  /* the device taken as a GPU keeps programs and tuning choices of its own */
  if (as_gpu) {
    gchar *id = ctx->identity;

    ctx->identity = g_strdup_printf ("%s|as-gpu", id);
    g_free (id);
  }
  GST_INFO ("created context on %s in %.1f ms: local memory %" G_GSIZE_FORMAT " bytes (%s), "
      "max work-group %" G_GSIZE_FORMAT ", host-unified memory %s, native float vector %u, "
      "tensor cores %s",
      ctx->device_name, (g_get_monotonic_time () - start) / 1000.0, ctx->local_mem_size,
      ctx->local_mem_dedicated ? "dedicated" : "global", wgs, ctx->host_unified ? "yes" : "no",
      fwidth, ctx->tensor_mma ? "yes" : "no");
  return ctx;
}

/* Counts one more element on ctx's device (under registry_lock). */
static void
join_locked (GstClContext * ctx)
{
  if (!device_load)
    device_load = g_hash_table_new (NULL, NULL);
  g_hash_table_insert (device_load, ctx->device, GUINT_TO_POINTER (load_of (ctx->device) + 1));
  ctx->elements++;
}

void
gst_cl_context_join (GstClContext * ctx)
{
  g_mutex_lock (&registry_lock);
  join_locked (ctx);
  g_mutex_unlock (&registry_lock);
}

guint
gst_cl_context_elements_running (void)
{
  GHashTableIter it;
  gpointer load;
  guint n = 0;

  g_mutex_lock (&registry_lock);
  if (device_load) {
    g_hash_table_iter_init (&it, device_load);
    while (g_hash_table_iter_next (&it, NULL, &load))
      n += GPOINTER_TO_UINT (load);
  }
  g_mutex_unlock (&registry_lock);
  return n;
}

void
gst_cl_context_leave (GstClContext * ctx)
{
  guint load;
  gboolean last;
  void (*unused) (GstClContext *);

  if (!ctx)
    return;
  g_mutex_lock (&registry_lock);
  load = load_of (ctx->device);
  if (load > 1)
    g_hash_table_insert (device_load, ctx->device, GUINT_TO_POINTER (load - 1));
  else if (device_load)
    g_hash_table_remove (device_load, ctx->device);
  if (ctx->elements > 0)
    ctx->elements--;
  last = ctx->elements == 0;
  g_mutex_unlock (&registry_lock);
  GST_OBJECT_LOCK (ctx);
  unused = ctx->unused;
  GST_OBJECT_UNLOCK (ctx);
  if (last && unused)
    unused (ctx);
}

gboolean
gst_cl_context_in_use (GstClContext * ctx)
{
  gboolean in_use;

  g_mutex_lock (&registry_lock);
  in_use = ctx->elements > 0;
  g_mutex_unlock (&registry_lock);
  return in_use;
}

/* gst_cl_context_acquire, and with join the element counted on the device in the same step
 * (so that elements placed at the same time by device=auto see each other). */
static GstClContext *
acquire (const gchar * spec, gboolean join, GError ** error)
{
  GArray *devs;
  const DeviceEntry *e;
  GstClContext *ctx = NULL;
  gchar *why = NULL;
  cl_int err;

  gst_cl_context_init_debug ();
  g_mutex_lock (&registry_lock);
  devs = list_devices (&err);
  if (devs->len == 0) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "No OpenCL device found (device=\"%s\"; clGetPlatformIDs: %s). %s",
        spec ? spec : "", gst_cl_error_to_string (err), how_to_get_a_device ());
    goto done;
  }

  e = match_device (devs, spec);
  if (!e && !gst_cl_device_spec_check (spec, &why)) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND, "%s", why);
    g_free (why);
    goto done;
  }
  if (!e) {
    GString *names = g_string_new (NULL);

    for (guint i = 0; i < devs->len; i++) {
      const DeviceEntry *d = &g_array_index (devs, DeviceEntry, i);
      g_string_append_printf (names, "%s%u:%u %s", i ? ", " : "", d->pi, d->di, d->label);
    }
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "No OpenCL device matches device=\"%s\" (available: %s). Set device to one of those, "
        "or: " HOW_TO_GET_A_DEVICE, spec, names->str);
    g_string_free (names, TRUE);
    goto done;
  }

  ctx = registry_find (e->device, NULL);
  if (!ctx) {
    ctx = context_new (e, NULL, error);
    if (ctx) {
      registry_add (ctx, NULL);
      /* the process's reference: never given back (a context lives until exit) */
      if (g_strcmp0 (g_getenv (KEEP_ENV), "0"))
        gst_object_ref (ctx);
    }
  }
  if (ctx && join)
    join_locked (ctx);

done:
  free_devices (devs);
  g_mutex_unlock (&registry_lock);
  return ctx;
}

GstClContext *
gst_cl_context_acquire (const gchar * spec, GError ** error)
{
  return acquire (spec, FALSE, error);
}

GstClContext *
gst_cl_context_ref (GstClContext * ctx)
{
  return gst_object_ref (ctx);
}

void
gst_cl_context_release (GstClContext * ctx)
{
  if (ctx)
    gst_object_unref (ctx);
}

cl_int
gst_cl_context_frame_queues (GstClContext * ctx, gboolean profiling, gint n,
    cl_command_queue * q)
{
  cl_command_queue *mine = ctx->frame_queues[profiling ? 1 : 0];
  cl_int err = CL_SUCCESS;

  g_return_val_if_fail (n >= 1 && n <= GST_CL_CONTEXT_N_QUEUES, CL_INVALID_VALUE);
  g_mutex_lock (&ctx->lock);
  for (gint i = 0; i < n && err == CL_SUCCESS; i++)
    if (!mine[i])
      mine[i] = clCreateCommandQueue (ctx->context, ctx->device,
          profiling ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
  if (err == CL_SUCCESS)
    for (gint i = 0; i < n; i++) {
      clRetainCommandQueue (mine[i]);
      q[i] = mine[i];
    }
  g_mutex_unlock (&ctx->lock);
  return err;
}

static void
gst_cl_context_finalize (GObject * object)
{
  GstClContext *ctx = GST_CL_CONTEXT (object);

  g_mutex_lock (&registry_lock);
  for (GList * l = registry; l; l = l->next) {
    RegistryEntry *r = l->data;

    if (r->object == ctx) {
      g_weak_ref_clear (&r->ref);
      g_free (r);
      registry = g_list_delete_link (registry, l);
      break;
    }
  }
  g_mutex_unlock (&registry_lock);

  GST_DEBUG ("destroying the context on %s", GST_STR_NULL (ctx->device_name));
  if (ctx->worker_free)
    ctx->worker_free (ctx);
  g_clear_pointer (&ctx->programs, g_hash_table_destroy);
  g_clear_pointer (&ctx->choices, g_hash_table_destroy);
  for (gint p = 0; p < 2; p++)
    for (gint i = 0; i < GST_CL_CONTEXT_N_QUEUES; i++)
      g_clear_pointer (&ctx->frame_queues[p][i], clReleaseCommandQueue);
  g_cond_clear (&ctx->built);
  g_clear_pointer (&ctx->context, clReleaseContext);
  g_free (ctx->cache_dir);
  g_free (ctx->identity);
  g_free (ctx->index_spec);
  g_mutex_clear (&ctx->lock);
  g_free (ctx->device_name);
  G_OBJECT_CLASS (gst_cl_context_parent_class)->finalize (object);
}

enum
{
  CTX_PROP_0,
  CTX_PROP_DEVICE_NAME,
  CTX_PROP_DEVICE_INDEX,
  CTX_PROP_CL_CONTEXT,
  CTX_PROP_CL_DEVICE
};

static void
gst_cl_context_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstClContext *ctx = GST_CL_CONTEXT (object);

  switch (prop_id) {
    case CTX_PROP_DEVICE_NAME:
      g_value_set_string (value, ctx->device_name);
      break;
    case CTX_PROP_DEVICE_INDEX:
      g_value_set_string (value, ctx->index_spec);
      break;
    case CTX_PROP_CL_CONTEXT:
      g_value_set_pointer (value, ctx->context);
      break;
    case CTX_PROP_CL_DEVICE:
      g_value_set_pointer (value, ctx->device);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cl_context_class_init (GstClContextClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  gobject_class->finalize = gst_cl_context_finalize;
  gobject_class->get_property = gst_cl_context_get_property;
  g_object_class_install_property (gobject_class, CTX_PROP_DEVICE_NAME,
      g_param_spec_string ("device-name", "Device name", "The OpenCL device, as 'device "
          "(platform)'", NULL, ro));
  g_object_class_install_property (gobject_class, CTX_PROP_DEVICE_INDEX,
      g_param_spec_string ("device-index", "Device index", "The device's platform and device "
          "indices, as 'P:D' (what device= selects it by)", NULL, ro));
  g_object_class_install_property (gobject_class, CTX_PROP_CL_CONTEXT,
      g_param_spec_pointer ("cl-context", "OpenCL context", "The cl_context", ro));
  g_object_class_install_property (gobject_class, CTX_PROP_CL_DEVICE,
      g_param_spec_pointer ("cl-device", "OpenCL device", "The cl_device_id", ro));
}

/* The device entry of device d (its platform, type and label) for a context over it. */
static gboolean
device_entry (cl_device_id d, DeviceEntry * e)
{
  cl_platform_id platform = NULL;
  gchar *dname, *pname;

  if (clGetDeviceInfo (d, CL_DEVICE_PLATFORM, sizeof (platform), &platform, NULL) !=
      CL_SUCCESS || !platform)
    return FALSE;
  memset (e, 0, sizeof (*e));
  e->platform = platform;
  e->device = d;
  clGetDeviceInfo (d, CL_DEVICE_TYPE, sizeof (e->type), &e->type, NULL);
  dname = device_string (d, CL_DEVICE_NAME);
  pname = platform_string (platform, CL_PLATFORM_NAME);
  e->label = g_strdup_printf ("%s (%s)", dname, pname);
  g_free (dname);
  g_free (pname);
  return TRUE;
}

GstClContext *
gst_cl_context_new_wrapped (cl_context context, cl_device_id device, GError ** error)
{
  DeviceEntry e;
  GstClContext *ctx;
  cl_uint n = 0;
  cl_device_id *devs;
  gboolean found = FALSE;

  gst_cl_context_init_debug ();
  /* the device must be one of the context's */
  if (!context || !device || clGetContextInfo (context, CL_CONTEXT_NUM_DEVICES, sizeof (n), &n,
          NULL) != CL_SUCCESS || n == 0 || !device_entry (device, &e)) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
        "The application's OpenCL context or device is not valid");
    return NULL;
  }
  devs = g_new0 (cl_device_id, n);
  if (clGetContextInfo (context, CL_CONTEXT_DEVICES, n * sizeof (cl_device_id), devs, NULL) ==
      CL_SUCCESS)
    for (cl_uint i = 0; i < n; i++)
      found |= devs[i] == device;
  g_free (devs);
  if (!found) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
        "The application's OpenCL device %s is not one of its context's", e.label);
    g_free (e.label);
    return NULL;
  }
  g_mutex_lock (&registry_lock);
  ctx = registry_find (device, context);
  if (!ctx) {
    cl_int err;
    GArray *all = list_devices (&err);

    /* its "P:D", as device= names it, if a platform lists it */
    e.pi = e.di = G_MAXUINT;
    for (guint i = 0; i < all->len; i++)
      if (g_array_index (all, DeviceEntry, i).device == device) {
        e.pi = g_array_index (all, DeviceEntry, i).pi;
        e.di = g_array_index (all, DeviceEntry, i).di;
      }
    free_devices (all);
    ctx = context_new (&e, context, error);
    if (ctx)
      registry_add (ctx, context);
  }
  g_mutex_unlock (&registry_lock);
  g_free (e.label);
  return ctx;
}

GBytes *
gst_cl_context_lookup_choice (GstClContext * ctx, const gchar * key)
{
  GBytes *b;

  g_mutex_lock (&ctx->lock);
  b = g_hash_table_lookup (ctx->choices, key);
  if (b)
    g_bytes_ref (b);
  g_mutex_unlock (&ctx->lock);
  return b;
}

void
gst_cl_context_keep_choice (GstClContext * ctx, const gchar * key, GBytes * choice)
{
  g_mutex_lock (&ctx->lock);
  g_hash_table_insert (ctx->choices, g_strdup (key), g_bytes_ref (choice));
  g_mutex_unlock (&ctx->lock);
}

GstContext *
gst_cl_context_to_gst (GstClContext * ctx)
{
  GstContext *c = gst_context_new (GST_CL_CONTEXT_TYPE, TRUE);

  gst_structure_set (gst_context_writable_structure (c), "context", GST_TYPE_CL_CONTEXT, ctx,
      NULL);
  return c;
}

GstClContext *
gst_cl_context_from_gst (GstContext * context, GError ** error)
{
  const GstStructure *st = gst_context_get_structure (context);
  GstClContext *ctx = NULL;
  gpointer cl = NULL, dev = NULL;

  if (gst_structure_get (st, "context", GST_TYPE_CL_CONTEXT, &ctx, NULL) && ctx)
    return ctx;
  if (gst_structure_get (st, "cl-context", G_TYPE_POINTER, &cl, "cl-device", G_TYPE_POINTER,
          &dev, NULL))
    return gst_cl_context_new_wrapped (cl, dev, error);
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
      "The " GST_CL_CONTEXT_TYPE " context holds neither \"context\" nor \"cl-context\" "
      "and \"cl-device\"");
  return NULL;
}

gboolean
gst_cl_context_matches (GstClContext * ctx, const gchar * spec)
{
  GArray *devs;
  const DeviceEntry *e;
  gboolean ok;
  cl_int err;

  if (!spec || !*spec)
    return TRUE;
  g_mutex_lock (&registry_lock);
  devs = list_devices (&err);
  if (gst_cl_device_spec_is_auto (spec)) {
    /* any of the devices auto places on, not only the one it would choose now */
    ok = FALSE;
    for (guint i = 0; i < devs->len && !ok; i++) {
      e = &g_array_index (devs, DeviceEntry, i);
      ok = e->device == ctx->device && auto_candidate (devs, spec, e);
    }
  } else {
    e = match_device (devs, spec);
    ok = e && e->device == ctx->device;
  }
  free_devices (devs);
  g_mutex_unlock (&registry_lock);
  return ok;
}

void
gst_cl_context_set_element_context (GstElement * element, GstContext * context,
    GstClContext ** offered)
{
  GError *error = NULL;
  GstClContext *ctx, *old;

  if (!gst_context_has_context_type (context, GST_CL_CONTEXT_TYPE))
    return;
  ctx = gst_cl_context_from_gst (context, &error);
  if (!ctx) {
    GST_ELEMENT_WARNING (element, RESOURCE, SETTINGS, ("Ignoring the OpenCL context given: "
            "%s.", error->message), (NULL));
    g_clear_error (&error);
    return;
  }
  GST_OBJECT_LOCK (element);
  old = *offered;
  *offered = ctx;
  GST_OBJECT_UNLOCK (element);
  /* outside the lock: the last reference releases OpenCL objects */
  gst_clear_object (&old);
}

gboolean
gst_cl_context_handle_query (GstElement * element, GstQuery * query, GstClContext ** offered)
{
  const gchar *type = NULL;
  GstClContext *ctx = NULL;
  GstContext *c;

  if (GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT ||
      !gst_query_parse_context_type (query, &type) || g_strcmp0 (type, GST_CL_CONTEXT_TYPE))
    return FALSE;
  GST_OBJECT_LOCK (element);
  if (*offered)
    ctx = gst_object_ref (*offered);
  GST_OBJECT_UNLOCK (element);
  if (!ctx)
    return FALSE;
  c = gst_cl_context_to_gst (ctx);
  gst_query_set_context (query, c);
  gst_context_unref (c);
  gst_object_unref (ctx);
  return TRUE;
}

/* Asks the peers of element's pads of one direction; TRUE when one answered. */
static gboolean
query_peers (GstElement * element, GstQuery * query, GstPadDirection direction)
{
  GstIterator *it = direction == GST_PAD_SRC ? gst_element_iterate_src_pads (element) :
      gst_element_iterate_sink_pads (element);
  GValue item = G_VALUE_INIT;
  gboolean done = FALSE, answered = FALSE;

  while (!done && !answered) {
    switch (gst_iterator_next (it, &item)) {
      case GST_ITERATOR_OK:
        answered = gst_pad_peer_query (g_value_get_object (&item), query);
        g_value_reset (&item);
        break;
      case GST_ITERATOR_RESYNC:
        gst_iterator_resync (it);
        break;
      default:
        done = TRUE;
        break;
    }
  }
  g_value_unset (&item);
  gst_iterator_free (it);
  return answered;
}

/* *offered's context if it is on spec's device (a new reference), else NULL. */
static GstClContext *
offered_matching (GstElement * element, GstClContext ** offered, const gchar * spec)
{
  GstClContext *ctx = NULL;

  GST_OBJECT_LOCK (element);
  if (*offered)
    ctx = gst_object_ref (*offered);
  GST_OBJECT_UNLOCK (element);
  if (ctx && !gst_cl_context_matches (ctx, spec)) {
    GST_INFO_OBJECT (element, "passing over the context on %s: device=\"%s\" selects another",
        ctx->device_name, spec);
    gst_clear_object (&ctx);
  }
  return ctx;
}

GstClContext *
gst_cl_context_ensure_element (GstElement * element, const gchar * spec,
    GstClContext ** offered, GError ** error)
{
  gboolean place = gst_cl_device_spec_is_auto (spec);
  GstClContext *ctx;
  GstQuery *query;

  /* device=auto chooses by load at every start: what the pipeline gave (another branch's
   * context, through the bin) or an earlier start chose does not count */
  if (place) {
    GstClContext *given;

    GST_OBJECT_LOCK (element);
    given = *offered;
    *offered = NULL;
    GST_OBJECT_UNLOCK (element);
    /* unreferenced outside the lock: the last reference releases OpenCL objects */
    gst_clear_object (&given);
  }
  ctx = offered_matching (element, offered, spec);
  if (ctx)
    goto joined;
  /* a neighbour's: a chain of elements stays on one device, its frames on it */
  query = gst_query_new_context (GST_CL_CONTEXT_TYPE);
  if (query_peers (element, query, GST_PAD_SRC) || query_peers (element, query, GST_PAD_SINK)) {
    GstContext *c = NULL;

    gst_query_parse_context (query, &c);
    if (c)
      gst_cl_context_set_element_context (element, c, offered);
  }
  gst_query_unref (query);
  ctx = offered_matching (element, offered, spec);
  if (ctx)
    goto joined;

  /* the application may answer by gst_element_set_context from a synchronous bus handler
   * (the bin answers with the context another element announced: not for auto) */
  if (!place) {
    gst_element_post_message (element, gst_message_new_need_context (GST_OBJECT (element),
            GST_CL_CONTEXT_TYPE));
    ctx = offered_matching (element, offered, spec);
    if (ctx)
      goto joined;
  }

  ctx = acquire (spec, TRUE, error);
  if (!ctx)
    return NULL;
  GST_OBJECT_LOCK (element);
  gst_object_replace ((GstObject **) offered, GST_OBJECT (ctx));
  GST_OBJECT_UNLOCK (element);
  gst_element_post_message (element, gst_message_new_have_context (GST_OBJECT (element),
          gst_cl_context_to_gst (ctx)));
  return ctx;

joined:
  gst_cl_context_join (ctx);
  return ctx;
}

/* A program built from binary (NULL when the driver refuses it). */
static cl_program
program_from_binary (GstClContext * ctx, const guint8 * binary, gsize size,
    const gchar * options, cl_int * err)
{
  const unsigned char *bins[1] = { binary };
  cl_int status = CL_SUCCESS;
  cl_program prog = clCreateProgramWithBinary (ctx->context, 1, &ctx->device, &size, bins,
      &status, err);

  if (prog && status == CL_SUCCESS && *err == CL_SUCCESS &&
      (*err = clBuildProgram (prog, 1, &ctx->device, options, NULL, NULL)) == CL_SUCCESS)
    return prog;
  if (*err == CL_SUCCESS)
    *err = status;
  if (prog)
    clReleaseProgram (prog);
  return NULL;
}

/* The program of key from the disk cache, built for the device; NULL when there is none or
 * the driver refuses it (then the caller builds from source and the file is replaced). */
static cl_program
load_cached (GstClContext * ctx, const gchar * key, const gchar * options)
{
  const gchar *why = NULL;
  gsize size = 0;
  guint8 *binary = gst_cl_program_cache_load (ctx->cache_dir, key, &size, &why);
  cl_int err = CL_SUCCESS;
  cl_program prog;

  if (!binary) {
    GST_DEBUG ("program cache %s/%s: %s", ctx->cache_dir, key, why);
    return NULL;
  }
  prog = program_from_binary (ctx, binary, size, options, &err);
  g_free (binary);
  if (!prog)
    GST_WARNING ("the driver refused the cached binary %s/%s.bin (%s); building from source",
        ctx->cache_dir, key, gst_cl_error_to_string (err));
  return prog;
}

/* The binary of a built program (free with g_free), NULL if the driver gives none. */
static guint8 *
program_binary (cl_program prog, gsize * size)
{
  guint8 *binary;

  *size = 0;
  if (clGetProgramInfo (prog, CL_PROGRAM_BINARY_SIZES, sizeof (*size), size, NULL) !=
      CL_SUCCESS || *size == 0)
    return NULL;
  binary = g_malloc (*size);
  if (clGetProgramInfo (prog, CL_PROGRAM_BINARIES, sizeof (binary), &binary, NULL) !=
      CL_SUCCESS)
    g_clear_pointer (&binary, g_free);
  return binary;
}

/* A freshly built program's binary kept on disk (failing to is not an error). */
static void
keep_binary (GstClContext * ctx, const gchar * key, cl_program prog)
{
  gsize size;
  guint8 *binary = program_binary (prog, &size);
  GError *error = NULL;

  if (binary && !gst_cl_program_cache_store (ctx->cache_dir, key, binary, size, &error)) {
    GST_WARNING ("could not write the program cache in %s: %s", ctx->cache_dir,
        error->message);
    g_clear_error (&error);
  }
  g_free (binary);
}

/* The stores this thread holds back (gst_cl_context_hold_stores): a binary to write for a
 * context's disk cache under a key. */
typedef struct
{
  GstClContext *ctx;
  gchar *key;
  cl_program prog;
} HeldStore;

typedef struct
{
  gboolean holding;
  GSList *stores;               /* HeldStore, the latest first */
} HeldStores;

static void
held_stores_free (gpointer data)
{
  HeldStores *h = data;

  g_warn_if_fail (h->stores == NULL);
  g_free (h);
}

static GPrivate held_stores = G_PRIVATE_INIT (held_stores_free);

static HeldStores *
this_thread_stores (void)
{
  HeldStores *h = g_private_get (&held_stores);

  if (!h) {
    h = g_new0 (HeldStores, 1);
    g_private_set (&held_stores, h);
  }
  return h;
}

void
gst_cl_context_hold_stores (void)
{
  this_thread_stores ()->holding = TRUE;
}

void
gst_cl_context_release_stores (void)
{
  HeldStores *h = this_thread_stores ();
  GSList *stores = g_slist_reverse (h->stores);

  h->holding = FALSE;
  h->stores = NULL;
  for (GSList * l = stores; l; l = l->next) {
    HeldStore *s = l->data;

    keep_binary (s->ctx, s->key, s->prog);
    clReleaseProgram (s->prog);
    gst_object_unref (s->ctx);
    g_free (s->key);
    g_free (s);
  }
  g_slist_free (stores);
}

/* A freshly built program's binary for the disk cache: written now, or at the release where
 * this thread holds stores back. */
static void
store_binary (GstClContext * ctx, const gchar * key, cl_program prog)
{
  HeldStores *h = this_thread_stores ();
  HeldStore *s;

  if (!h->holding) {
    keep_binary (ctx, key, prog);
    return;
  }
  s = g_new (HeldStore, 1);
  s->ctx = gst_object_ref (ctx);
  s->key = g_strdup (key);
  s->prog = prog;
  clRetainProgram (prog);
  h->stores = g_slist_prepend (h->stores, s);
}

/* Releases the least recently used idle programs beyond the bound (under ctx->lock); TRUE if
 * it released any. */
static gboolean
evict_idle (GstClContext * ctx)
{
  gboolean released = FALSE;

  for (;;) {
    GHashTableIter it;
    gpointer key, value, oldest_key = NULL;
    guint64 oldest = G_MAXUINT64;
    guint idle = 0;

    g_hash_table_iter_init (&it, ctx->programs);
    while (g_hash_table_iter_next (&it, &key, &value)) {
      ProgramEntry *e = value;

      if (e->users || !e->program)
        continue;
      idle++;
      if (e->last_use < oldest) {
        oldest = e->last_use;
        oldest_key = key;
      }
    }
    if (idle <= ctx->max_idle)
      return released;
    GST_DEBUG ("releasing the idle program '%s' on %s", (const gchar *) oldest_key,
        ctx->device_name);
    g_hash_table_remove (ctx->programs, oldest_key);
    released = TRUE;
  }
}

/* Tells the worker (if any) that programs were released (no lock held). */
static void
programs_released (GstClContext * ctx)
{
  void (*hook) (GstClContext *);

  GST_OBJECT_LOCK (ctx);
  hook = ctx->programs_released;
  GST_OBJECT_UNLOCK (ctx);
  if (hook)
    hook (ctx);
}

/* The program from the disk cache or built from source (no lock held: both take long). */
static cl_program
make_program (GstClContext * ctx, const gchar * source, const gchar * options, cl_int * err,
    gchar ** build_log, gboolean * loaded)
{
  gchar *disk_key = NULL;
  cl_program prog = NULL;
  gint64 t0 = g_get_monotonic_time ();

  *loaded = FALSE;
  if (ctx->cache_dir) {
    disk_key = gst_cl_program_cache_key (ctx->identity, options, source);
    prog = load_cached (ctx, disk_key, options);
    if (prog) {
      *loaded = TRUE;
      GST_INFO ("loaded program '%s' for %s from the cache in %.1f ms", options,
          ctx->device_name, (g_get_monotonic_time () - t0) / 1000.0);
      goto done;
    }
  }

  prog = clCreateProgramWithSource (ctx->context, 1, &source, NULL, err);
  if (!prog)
    goto done;
  *err = clBuildProgram (prog, 1, &ctx->device, options, NULL, NULL);
  if (*err != CL_SUCCESS) {
    gsize len = 0;

    if (build_log && clGetProgramBuildInfo (prog, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL,
            &len) == CL_SUCCESS && len > 1) {
      *build_log = g_malloc0 (len + 1);
      clGetProgramBuildInfo (prog, ctx->device, CL_PROGRAM_BUILD_LOG, len, *build_log, NULL);
    }
    g_clear_pointer (&prog, clReleaseProgram);
    goto done;
  }
  GST_INFO ("built program '%s' for %s in %.1f ms", options, ctx->device_name,
      (g_get_monotonic_time () - t0) / 1000.0);
  if (disk_key)
    store_binary (ctx, disk_key, prog);

done:
  g_free (disk_key);
  return prog;
}

cl_program
gst_cl_context_get_program (GstClContext * ctx, const gchar * source, const gchar * options,
    gboolean may_build, cl_int * err, gchar ** build_log)
{
  gchar *key = g_strdup_printf ("%08x %s", g_str_hash (source), options);
  ProgramEntry *e;
  cl_program prog;
  gboolean loaded, released = FALSE;

  *err = CL_SUCCESS;
  g_mutex_lock (&ctx->lock);
  /* another thread building the same program: wait for it rather than build it twice */
  while (may_build && (e = g_hash_table_lookup (ctx->programs, key)) && !e->program)
    g_cond_wait (&ctx->built, &ctx->lock);
  e = g_hash_table_lookup (ctx->programs, key);
  if (!may_build && (!e || !e->program) && (e || !ctx->cache_dir)) {
    g_mutex_unlock (&ctx->lock);
    g_free (key);
    return NULL;
  }
  if (e) {
    e->users++;
    e->last_use = ++ctx->clock;
    g_mutex_unlock (&ctx->lock);
    g_free (key);
    return e->program;
  }
  /* a placeholder while it builds, so that nobody else builds it meanwhile */
  e = g_new0 (ProgramEntry, 1);
  g_hash_table_insert (ctx->programs, g_strdup (key), e);
  g_mutex_unlock (&ctx->lock);

  if (may_build) {
    prog = make_program (ctx, source, options, err, build_log, &loaded);
  } else {
    /* only from the disk cache: loading a binary is not compiling */
    gchar *disk_key = gst_cl_program_cache_key (ctx->identity, options, source);

    prog = load_cached (ctx, disk_key, options);
    loaded = TRUE;
    g_free (disk_key);
  }

  g_mutex_lock (&ctx->lock);
  if (prog) {
    e->program = prog;
    e->users = 1;
    e->last_use = ++ctx->clock;
    if (loaded)
      ctx->programs_loaded++;
    else
      ctx->programs_built++;
    released = evict_idle (ctx);
  } else {
    g_hash_table_remove (ctx->programs, key);
  }
  g_cond_broadcast (&ctx->built);
  g_mutex_unlock (&ctx->lock);
  g_free (key);
  if (released)
    programs_released (ctx);
  return prog;
}

gboolean
gst_cl_context_holds_program (GstClContext * ctx, const gchar * source, const gchar * options)
{
  gchar *key = g_strdup_printf ("%08x %s", g_str_hash (source), options);
  ProgramEntry *e;
  gboolean held;

  g_mutex_lock (&ctx->lock);
  e = g_hash_table_lookup (ctx->programs, key);
  held = e && e->program;
  g_mutex_unlock (&ctx->lock);
  g_free (key);
  return held;
}

void
gst_cl_context_unuse_program (GstClContext * ctx, cl_program prog, gboolean discard)
{
  GHashTableIter it;
  gpointer key, value;
  gboolean released = FALSE;

  if (!prog)
    return;
  g_mutex_lock (&ctx->lock);
  g_hash_table_iter_init (&it, ctx->programs);
  while (g_hash_table_iter_next (&it, &key, &value)) {
    ProgramEntry *e = value;

    if (e->program != prog)
      continue;
    if (e->users == 0) {
      g_critical ("program given back more often than it was handed out");
      break;
    }
    e->users--;
    e->last_use = ++ctx->clock;
    if (discard && !e->users) {
      g_hash_table_iter_remove (&it);
      released = TRUE;
    }
    break;
  }
  released |= evict_idle (ctx);
  g_mutex_unlock (&ctx->lock);
  if (released)
    programs_released (ctx);
}

void
gst_cl_context_program_counts (GstClContext * ctx, guint * built, guint * loaded, guint * held)
{
  g_mutex_lock (&ctx->lock);
  *built = ctx->programs_built;
  *loaded = ctx->programs_loaded;
  *held = g_hash_table_size (ctx->programs);
  g_mutex_unlock (&ctx->lock);
}
