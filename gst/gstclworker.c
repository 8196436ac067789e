/* clconvolve: kernels built and tuned off the streaming thread
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

#include "gstclworker.h"
#include "convkernel.h"

#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

GST_DEBUG_CATEGORY_STATIC (gst_cl_worker_debug);
#define GST_CAT_DEFAULT gst_cl_worker_debug

typedef enum
{
  JOB_QUEUED, JOB_RUNNING, JOB_ENDED
} JobState;

struct _ClJob
{
  gint refs;                    /* atomic */
  GstClContext *ctx;            /* not a reference: every holder of a job holds the context */
  gchar *key;                   /* what identical jobs share */
  ClJobSpec spec;               /* with its own copies of the strings */
  gchar *source[CL_N_SOURCES];
  gchar *digest, *tune_dir;

  /* under the worker's lock */
  JobState state;
  guint wanted;                 /* holders that still want the result */
  gint64 queued_at;
  ClJobResult result;
  gchar *log;
};

typedef struct _ClWorker
{
  GMutex lock;
  GCond changed;                /* a job queued, dropped or ended; quit */
  GThread *thread;
  GQueue queue;                 /* ClJob, a reference each */
  GHashTable *jobs;             /* key -> ClJob queued or running (no reference) */
  gboolean quit;
  gint64 delay_us;              /* GST_CLCONVOLVE_WORKER_DELAY_MS */

  /* the worker thread's */
  cl_command_queue queue_cl;
  cl_mem coef, sep;             /* zeros: timing does not depend on the values */
} ClWorker;

static void
job_unref (ClJob * job)
{
  if (!g_atomic_int_dec_and_test (&job->refs))
    return;
  for (gint i = 0; i < CL_N_SOURCES; i++)
    g_free (job->source[i]);
  g_free (job->digest);
  g_free (job->tune_dir);
  g_free (job->key);
  g_free (job->log);
  g_free (job);
}

/* Identical jobs: the kind, the request, the variant and the sources. The request and the
 * variant are plain integers (no padding), so their bytes are their identity. */
static gchar *
job_key (const ClJobSpec * spec)
{
  GString *key = g_string_new (NULL);
  const guint8 *r = (const guint8 *) &spec->request, *v = (const guint8 *) &spec->variant;

  g_string_append_printf (key, "%d %s ", spec->kind, spec->digest);
  for (gsize i = 0; i < sizeof (spec->request); i++)
    g_string_append_printf (key, "%02x", r[i]);
  g_string_append_c (key, ' ');
  for (gsize i = 0; spec->kind == CL_JOB_BUILD && i < sizeof (spec->variant); i++)
    g_string_append_printf (key, "%02x", v[i]);
  return g_string_free (key, FALSE);
}

ClJobKind
gst_cl_job_kind (const ClJob * job)
{
  return job->spec.kind;
}

const gchar *
gst_cl_job_kind_name (const ClJob * job)
{
  return job->spec.kind == CL_JOB_TUNE ? "tune" : "build";
}

gchar *
gst_cl_job_describe (const ClJob * job)
{
  const ClKernelRequest *r = &job->spec.request;
  gchar text[64];

  if (job->spec.kind == CL_JOB_TUNE)
    g_snprintf (text, sizeof (text), "method=auto");
  else
    cl_variant_text (&job->spec.variant, text, sizeof (text));
  return g_strdup_printf ("%s, %dx%d, %d sample%s of %d bits, border %d, %dx%d view", text,
      r->size, r->size, r->channels, r->channels > 1 ? "s" : "", r->depth, r->border, r->width,
      r->height);
}

/* The worker's own queue and zeroed coefficients, made on its first job. */
static cl_int
worker_resources (ClWorker * w, GstClContext * ctx)
{
  static const gfloat zeros[2 * CL_MAX_RANK * CONV_MAX_SIZE + CONV_MAX_SIZE * CONV_MAX_SIZE];
  cl_int err = CL_SUCCESS;

  if (w->queue_cl)
    return CL_SUCCESS;
  w->queue_cl = clCreateCommandQueue (ctx->context, ctx->device, 0, &err);
  if (w->queue_cl)
    w->coef = clCreateBuffer (ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
        sizeof (gfloat) * CONV_MAX_SIZE * CONV_MAX_SIZE, (gpointer) zeros, &err);
  if (w->coef)
    w->sep = clCreateBuffer (ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
        sizeof (gfloat) * 2 * CL_MAX_RANK * CONV_MAX_SIZE, (gpointer) zeros, &err);
  if (err != CL_SUCCESS) {
    g_clear_pointer (&w->coef, clReleaseMemObject);
    g_clear_pointer (&w->queue_cl, clReleaseCommandQueue);
  }
  return err;
}

/* Builds (or tunes, then builds) the job's variant and runs it once; fills job->result. */
static void
job_run (ClWorker * w, ClJob * job)
{
  ClJobSpec *spec = &job->spec;
  ClKernelRequest *r = &spec->request;
  ClJobResult *res = &job->result;
  ClTuner t;
  ClBuilt b;
  ClVariant v = spec->variant;
  gchar *log = NULL;

  res->what = "the worker's queue";
  res->err = worker_resources (w, job->ctx);
  if (res->err != CL_SUCCESS)
    return;
  t = (ClTuner) { job->ctx, &spec->facts, w->queue_cl, spec->source, spec->digest,
    spec->tune_dir, { w->coef, w->sep, MAX (r->rank, 1), 0.0f, r->size, r->border },
    GST_OBJECT (job->ctx), TRUE
  };
  if (spec->kind == CL_JOB_TUNE)
    v = gst_cl_tuner_choose (&t, r, &res->how);
  res->err = gst_cl_built_make (job->ctx, &spec->facts, spec->source, r, &v, TRUE, &b, &log,
      &res->what);
  if (res->err == CL_INVALID_WORK_GROUP_SIZE && v.method == GST_CL_CONVOLVE_METHOD_TILED) {
    GST_WARNING_OBJECT (job->ctx, "the tiled kernel compiled for fewer work-items than its "
        "work-group; using float4");
    v = (ClVariant) { GST_CL_CONVOLVE_METHOD_FLOAT4, cl_variant_direct_block (&spec->facts, r),
      1, 0, FALSE
    };
    g_clear_pointer (&log, g_free);
    res->err = gst_cl_built_make (job->ctx, &spec->facts, spec->source, r, &v, TRUE, &b, &log,
        &res->what);
  }
  if (res->err == CL_SUCCESS) {
    res->err = gst_cl_tuner_warm (&t, r, &b, &res->what);
    /* kept in the context as its most recently used program, for the element */
    gst_cl_built_clear (job->ctx, &b, FALSE);
  }
  res->variant = v;
  job->log = log;
  res->log = log;
}

/* Waits w->delay_us before a job (the developer override), unless the job is dropped or the
 * worker stops first. Called with the lock held. */
static void
worker_delay (ClWorker * w, ClJob * job)
{
  gint64 end = g_get_monotonic_time () + w->delay_us;

  while (w->delay_us > 0 && job->wanted > 0 && !w->quit &&
      g_cond_wait_until (&w->changed, &w->lock, end));
}

static gpointer
worker_main (gpointer data)
{
  GstClContext *ctx = data;
  ClWorker *w = ctx->worker;

#ifdef __linux__
  /* a build competes with the streaming threads for the CPU: let them go first */
  if (setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), 10) != 0)
    GST_DEBUG_OBJECT (ctx, "could not lower the worker's priority");
#endif
  g_mutex_lock (&w->lock);
  while (!w->quit) {
    ClJob *job = g_queue_pop_head (&w->queue);
    gint64 start;
    gchar *what;

    if (!job) {
      g_cond_wait (&w->changed, &w->lock);
      continue;
    }
    job->state = JOB_RUNNING;
    worker_delay (w, job);
    if (job->wanted == 0 || w->quit) {
      /* nobody wants it any more (or the context goes): not run */
      job->result.err = CL_INVALID_OPERATION;
      job->result.what = "dropped";
    } else {
      g_mutex_unlock (&w->lock);
      what = gst_cl_job_describe (job);
      GST_INFO_OBJECT (ctx, "%s job started: %s", gst_cl_job_kind_name (job), what);
      start = g_get_monotonic_time ();
      job_run (w, job);
      g_mutex_lock (&w->lock);
      job->result.queued_us = start - job->queued_at;
      job->result.run_us = g_get_monotonic_time () - start;
      GST_INFO_OBJECT (ctx, "%s job ended after %.1f ms: %s (%s)", gst_cl_job_kind_name (job),
          job->result.run_us / 1000.0, what, gst_cl_error_to_string (job->result.err));
      g_free (what);
    }
    job->state = JOB_ENDED;
    g_hash_table_remove (w->jobs, job->key);
    g_cond_broadcast (&w->changed);
    job_unref (job);
  }
  g_mutex_unlock (&w->lock);
  return NULL;
}

static ClWorker *
worker_get (GstClContext * ctx)
{
  ClWorker *w;

  static gsize debug_done = 0;

  if (g_once_init_enter (&debug_done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_worker_debug, "clworker", 0,
        "clconvolve's build and tuning worker");
    g_once_init_leave (&debug_done, 1);
  }
  GST_OBJECT_LOCK (ctx);
  if (!ctx->worker) {
    const gchar *delay = g_getenv (GST_CL_WORKER_DELAY_ENV);

    w = g_new0 (ClWorker, 1);
    g_mutex_init (&w->lock);
    g_cond_init (&w->changed);
    g_queue_init (&w->queue);
    w->jobs = g_hash_table_new (g_str_hash, g_str_equal);
    w->delay_us = delay ? (gint64) MAX (atoi (delay), 0) * 1000 : 0;
    ctx->worker = w;
    ctx->worker_free = gst_cl_worker_free;
    w->thread = g_thread_new ("clconvolve-worker", worker_main, ctx);
  }
  w = ctx->worker;
  GST_OBJECT_UNLOCK (ctx);
  return w;
}

ClJob *
gst_cl_worker_submit (GstClContext * ctx, const ClJobSpec * spec)
{
  ClWorker *w = worker_get (ctx);
  gchar *key = job_key (spec);
  ClJob *job;

  g_mutex_lock (&w->lock);
  job = g_hash_table_lookup (w->jobs, key);
  if (job) {
    g_free (key);
  } else {
    job = g_new0 (ClJob, 1);
    job->refs = 1;              /* the queue's */
    job->ctx = ctx;
    job->key = key;
    job->spec = *spec;
    for (gint i = 0; i < CL_N_SOURCES; i++)
      job->source[i] = g_strdup (spec->source[i]);
    job->spec.source = (const gchar * const *) job->source;
    job->digest = g_strdup (spec->digest);
    job->spec.digest = job->digest;
    job->tune_dir = g_strdup (spec->tune_dir);
    job->spec.tune_dir = job->tune_dir;
    job->queued_at = g_get_monotonic_time ();
    job->state = JOB_QUEUED;
    g_hash_table_insert (w->jobs, job->key, job);
    g_queue_push_tail (&w->queue, job);
    g_cond_broadcast (&w->changed);
  }
  job->wanted++;
  g_atomic_int_inc (&job->refs);
  g_mutex_unlock (&w->lock);
  return job;
}

gboolean
gst_cl_job_poll (ClJob * job, ClJobResult * result)
{
  ClWorker *w = job->ctx->worker;
  gboolean ended;

  g_mutex_lock (&w->lock);
  ended = job->state == JOB_ENDED;
  if (ended)
    *result = job->result;
  g_mutex_unlock (&w->lock);
  return ended;
}

void
gst_cl_job_wait (ClJob * job)
{
  ClWorker *w = job->ctx->worker;

  g_mutex_lock (&w->lock);
  while (job->state != JOB_ENDED)
    g_cond_wait (&w->changed, &w->lock);
  g_mutex_unlock (&w->lock);
}

void
gst_cl_job_drop (ClJob * job)
{
  ClWorker *w;

  if (!job)
    return;
  w = job->ctx->worker;
  g_mutex_lock (&w->lock);
  if (job->wanted > 0 && --job->wanted == 0 && job->state == JOB_QUEUED) {
    g_queue_remove (&w->queue, job);
    g_hash_table_remove (w->jobs, job->key);
    job->state = JOB_ENDED;
    job->result.err = CL_INVALID_OPERATION;
    job->result.what = "dropped";
    job_unref (job);            /* the queue's */
  }
  /* a delayed job stops waiting */
  g_cond_broadcast (&w->changed);
  g_mutex_unlock (&w->lock);
  job_unref (job);
}

guint
gst_cl_worker_pending (GstClContext * ctx)
{
  ClWorker *w = ctx->worker;
  guint n;

  if (!w)
    return 0;
  g_mutex_lock (&w->lock);
  n = g_hash_table_size (w->jobs);
  g_mutex_unlock (&w->lock);
  return n;
}

void
gst_cl_worker_free (GstClContext * ctx)
{
  ClWorker *w = ctx->worker;
  ClJob *job;

  if (!w)
    return;
  g_mutex_lock (&w->lock);
  w->quit = TRUE;
  while ((job = g_queue_pop_head (&w->queue))) {
    g_hash_table_remove (w->jobs, job->key);
    job->state = JOB_ENDED;
    job->result.err = CL_INVALID_OPERATION;
    job->result.what = "dropped";
    job_unref (job);
  }
  g_cond_broadcast (&w->changed);
  g_mutex_unlock (&w->lock);
  g_thread_join (w->thread);
  g_clear_pointer (&w->sep, clReleaseMemObject);
  g_clear_pointer (&w->coef, clReleaseMemObject);
  g_clear_pointer (&w->queue_cl, clReleaseCommandQueue);
  g_hash_table_destroy (w->jobs);
  g_cond_clear (&w->changed);
  g_mutex_clear (&w->lock);
  g_free (w);
  ctx->worker = NULL;
}
