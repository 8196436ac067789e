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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_context_debug);
#define GST_CAT_DEFAULT gst_cl_context_debug

#define HOW_TO_GET_A_DEVICE \
  "Install an OpenCL driver: 'apt-get install pocl-opencl-icd' for the CPU, or your GPU's " \
  "OpenCL ICD (e.g. nvidia-opencl-icd, mesa-opencl-icd, intel-opencl-icd); 'clinfo -l' lists " \
  "what is installed"

#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif

static GMutex registry_lock;
static GList *registry;         /* GstClContext*, one per device in use */

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

gboolean
gst_cl_device_spec_check (const gchar * spec, gchar ** why)
{
  guint pi, di;

  if (!spec || strspn (spec, "0123456789:") != strlen (spec) || parse_indices (spec, &pi, &di))
    return TRUE;
  *why = g_strdup_printf ("device=\"%s\" is made of indices but is not \"P:D\" (one "
      "platform and one device index, as 'clinfo -l' lists them, e.g. \"0:1\")", spec);
  return FALSE;
}

static const DeviceEntry *
match_device (GArray * devs, const gchar * spec)
{
  guint pi, di;
  gchar *needle;
  const DeviceEntry *found = NULL;

  if (spec == NULL || *spec == '\0') {
    found = first_of_type (devs, CL_DEVICE_TYPE_GPU);
    if (!found)
      found = first_of_type (devs, CL_DEVICE_TYPE_CPU);
    return found ? found : (devs->len ? &g_array_index (devs, DeviceEntry, 0) : NULL);
  }
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

static GstClContext *
context_new (const DeviceEntry * e, GError ** error)
{
  GstClContext *ctx = g_new0 (GstClContext, 1);
  cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties) e->platform,
    0
  };
  cl_device_local_mem_type lmt = CL_GLOBAL;
  cl_ulong lms = 0;
  gsize wgs = 1;
  cl_uint fwidth = 0;
  cl_bool unified = CL_FALSE;
  cl_int err;

  ctx->context = clCreateContext (props, 1, &e->device, NULL, NULL, &err);
  if (!ctx->context) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "Could not create an OpenCL context on %s: %s. " HOW_TO_GET_A_DEVICE, e->label,
        gst_cl_error_to_string (err));
    g_free (ctx);
    return NULL;
  }
  clGetDeviceInfo (e->device, CL_DEVICE_LOCAL_MEM_TYPE, sizeof (lmt), &lmt, NULL);
  clGetDeviceInfo (e->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof (lms), &lms, NULL);
  clGetDeviceInfo (e->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof (wgs), &wgs, NULL);
  clGetDeviceInfo (e->device, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof (fwidth), &fwidth,
      NULL);
  /* deprecated in OpenCL 2.0 but answered by every 1.2 driver we target (PoCL CPU: true) */
  clGetDeviceInfo (e->device, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof (unified), &unified, NULL);

  ctx->refcount = 1;
  g_mutex_init (&ctx->lock);
  g_cond_init (&ctx->built);
  ctx->programs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      (GDestroyNotify) program_entry_free);
  ctx->max_idle = max_idle_programs ();
  ctx->platform = e->platform;
  ctx->device = e->device;
  ctx->type = e->type;
  ctx->device_name = g_strdup (e->label);
  ctx->local_mem_size = lms;
  ctx->local_mem_dedicated = (lmt == CL_LOCAL);
  ctx->max_work_group_size = wgs;
  ctx->native_float_width = fwidth;
  ctx->host_unified = unified == CL_TRUE;
  ctx->cache_dir = gst_cl_program_cache_dir ();
  ctx->identity = device_identity (e);
  GST_INFO ("created context on %s: local memory %" G_GSIZE_FORMAT " bytes (%s), "
      "max work-group %" G_GSIZE_FORMAT ", host-unified memory %s, native float vector %u",
      ctx->device_name, ctx->local_mem_size, ctx->local_mem_dedicated ? "dedicated" : "global",
      wgs, ctx->host_unified ? "yes" : "no", fwidth);
  return ctx;
}

GstClContext *
gst_cl_context_acquire (const gchar * spec, GError ** error)
{
  GArray *devs;
  const DeviceEntry *e;
  GstClContext *ctx = NULL;
  gchar *why = NULL;
  cl_int err;

  static gsize debug_once = 0;

  if (g_once_init_enter (&debug_once)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_context_debug, "clcontext", 0, "OpenCL context");
    g_once_init_leave (&debug_once, 1);
  }

  g_mutex_lock (&registry_lock);
  devs = list_devices (&err);
  if (devs->len == 0) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "No OpenCL device found (device=\"%s\"; clGetPlatformIDs: %s). " HOW_TO_GET_A_DEVICE,
        spec ? spec : "", gst_cl_error_to_string (err));
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

  for (GList * l = registry; l; l = l->next) {
    GstClContext *c = l->data;
    if (c->device == e->device) {
      ctx = c;
      g_atomic_int_inc (&ctx->refcount);
      goto done;
    }
  }
  ctx = context_new (e, error);
  if (ctx)
    registry = g_list_prepend (registry, ctx);

done:
  free_devices (devs);
  g_mutex_unlock (&registry_lock);
  return ctx;
}

GstClContext *
gst_cl_context_ref (GstClContext * ctx)
{
  g_atomic_int_inc (&ctx->refcount);
  return ctx;
}

void
gst_cl_context_release (GstClContext * ctx)
{
  if (!ctx)
    return;
  g_mutex_lock (&registry_lock);
  if (!g_atomic_int_dec_and_test (&ctx->refcount)) {
    g_mutex_unlock (&registry_lock);
    return;
  }
  registry = g_list_remove (registry, ctx);
  g_mutex_unlock (&registry_lock);

  GST_DEBUG ("destroying the context on %s", ctx->device_name);
  g_hash_table_destroy (ctx->programs);
  g_cond_clear (&ctx->built);
  clReleaseContext (ctx->context);
  g_free (ctx->cache_dir);
  g_free (ctx->identity);
  g_mutex_clear (&ctx->lock);
  g_free (ctx->device_name);
  g_free (ctx);
}

/* The program of key from the disk cache, built for the device; NULL when there is none or
 * the driver refuses it (then the caller builds from source and the file is replaced). */
static cl_program
load_cached (GstClContext * ctx, const gchar * key, const gchar * options)
{
  const gchar *why = NULL;
  gsize size = 0;
  guint8 *binary = gst_cl_program_cache_load (ctx->cache_dir, key, &size, &why);
  const unsigned char *bins[1] = { binary };
  cl_int status = CL_SUCCESS, err;
  cl_program prog;

  if (!binary) {
    GST_DEBUG ("program cache %s/%s: %s", ctx->cache_dir, key, why);
    return NULL;
  }
  prog = clCreateProgramWithBinary (ctx->context, 1, &ctx->device, &size, bins, &status, &err);
  g_free (binary);
  if (prog && status == CL_SUCCESS && err == CL_SUCCESS &&
      clBuildProgram (prog, 1, &ctx->device, options, NULL, NULL) == CL_SUCCESS)
    return prog;
  GST_WARNING ("the driver refused the cached binary %s/%s.bin (%s); building from source",
      ctx->cache_dir, key, gst_cl_error_to_string (err != CL_SUCCESS ? err : status));
  if (prog)
    clReleaseProgram (prog);
  return NULL;
}

/* Keeps the binary of a freshly built program on disk; failing to is not an error. */
static void
store_cached (GstClContext * ctx, const gchar * key, cl_program prog)
{
  size_t size = 0;
  guint8 *binary;
  GError *error = NULL;

  if (clGetProgramInfo (prog, CL_PROGRAM_BINARY_SIZES, sizeof (size), &size, NULL) !=
      CL_SUCCESS || size == 0)
    return;
  binary = g_malloc (size);
  if (clGetProgramInfo (prog, CL_PROGRAM_BINARIES, sizeof (binary), &binary, NULL) ==
      CL_SUCCESS && !gst_cl_program_cache_store (ctx->cache_dir, key, binary, size, &error)) {
    GST_WARNING ("could not write the program cache in %s: %s", ctx->cache_dir,
        error->message);
    g_clear_error (&error);
  }
  g_free (binary);
}

/* Releases the least recently used idle programs beyond the bound (under ctx->lock). */
static void
evict_idle (GstClContext * ctx)
{
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
      return;
    GST_DEBUG ("releasing the idle program '%s' on %s", (const gchar *) oldest_key,
        ctx->device_name);
    g_hash_table_remove (ctx->programs, oldest_key);
  }
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
    store_cached (ctx, disk_key, prog);

done:
  g_free (disk_key);
  return prog;
}

cl_program
gst_cl_context_get_program (GstClContext * ctx, const gchar * source, const gchar * options,
    cl_int * err, gchar ** build_log)
{
  gchar *key = g_strdup_printf ("%08x %s", g_str_hash (source), options);
  ProgramEntry *e;
  cl_program prog;
  gboolean loaded;

  *err = CL_SUCCESS;
  g_mutex_lock (&ctx->lock);
  /* another thread building the same program: wait for it rather than build it twice */
  while ((e = g_hash_table_lookup (ctx->programs, key)) && !e->program)
    g_cond_wait (&ctx->built, &ctx->lock);
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

  prog = make_program (ctx, source, options, err, build_log, &loaded);

  g_mutex_lock (&ctx->lock);
  if (prog) {
    e->program = prog;
    e->users = 1;
    e->last_use = ++ctx->clock;
    if (loaded)
      ctx->programs_loaded++;
    else
      ctx->programs_built++;
    evict_idle (ctx);
  } else {
    g_hash_table_remove (ctx->programs, key);
  }
  g_cond_broadcast (&ctx->built);
  g_mutex_unlock (&ctx->lock);
  g_free (key);
  return prog;
}

void
gst_cl_context_unuse_program (GstClContext * ctx, cl_program prog, gboolean discard)
{
  GHashTableIter it;
  gpointer key, value;

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
    if (discard && !e->users)
      g_hash_table_iter_remove (&it);
    break;
  }
  evict_idle (ctx);
  g_mutex_unlock (&ctx->lock);
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
