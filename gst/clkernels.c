/* clconvolve: settings to kernels (coefficients on the device, a kernel per pixel shape)
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

#include "clkernels.h"
#include "gstclenums.h"
#include "gstclmemory.h"
#include "gstcltuner.h"
#include "gstclworker.h"

#include <math.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (cl_kernels_debug);
#define GST_CAT_DEFAULT cl_kernels_debug

struct _ClKernels
{
  GstElement *owner;
  GstClContext *ctx;
  cl_command_queue queue, up_queue, down_queue;
  ClDeviceFacts facts;          /* the context's device, for the variant rules */
  ClOverrides o;
  gboolean discrete;            /* frames are copied to device memory and back */
  ClSources sources;
  gchar *tune_dir;              /* where tuning choices are kept; NULL: memory only */
  GstCaps *formats;
  const ClSettings *cur;        /* the element's snapshot in use */

  /* per matrix (ClView.matrix: one, or one per component with plane-matrices) */
  cl_mem coef_mem[CL_MAX_MATRICES];
  cl_mem sep_mem[CL_MAX_MATRICES];      /* method=separable: the vector pairs */
  cl_mem taps_mem[CL_MAX_MATRICES];     /* method=sparse: the non-zero coefficients */
  gint m_rank[CL_MAX_MATRICES], m_rank_a[CL_MAX_MATRICES], m_ntaps[CL_MAX_MATRICES];
  gboolean m_centre[CL_MAX_MATRICES];   /* a centre term after the pairs (RANK_CENTRE) */
  gint n_matrices;
  /* what the variant rules see of them all: pairs, -1 where one matrix has more than
   * CL_MAX_RANK (or none splits); the most taps, 0 where one has more than CL_MAX_TAPS */
  gint rank;
  gint rank_a;                  /* ... of them the first matrix's (combine: the second's follow) */
  gint ntaps;
  gboolean box;                 /* every matrix a box (ClKernelRequest.box) */
  gboolean unit;                /* every matrix a blur's pair (ClKernelRequest.unit) */
  gboolean warned_components;   /* the plane-matrices warning was posted (until they change) */
  gchar *fallback;              /* the last fallback of the fixed rules posted */
  cl_mem tmp_mem;               /* method=separable: the row pass's output */
  gsize tmp_bytes;

  ClBuilt built[CL_MAX_SHAPES]; /* specialised kernels, per pixel shape */
  ClBuilt generic[CL_MAX_SHAPES];       /* the generic kernels, kept once made */
  ClBuilt generic_sep[CL_MAX_SHAPES];   /* the generic separable ones (options alone: its
                                         * build failed) */
  ClBuilt run[CL_MAX_SHAPES];   /* what each shape runs: a view of built or generic(_sep) */
  /* the worker's jobs the element waits for: per shape its kernel's (JOB), its generic
   * separable program's (SEP_JOB) */
  ClJob *jobs[2 * CL_MAX_SHAPES];
  gint64 job_asked[2 * CL_MAX_SHAPES];
  gboolean tune_next[CL_MAX_SHAPES];    /* jobs[slot] builds the fixed rules' variant; a
                                         * tuning job follows */
  gboolean generics_prepared;   /* prepare_generics done */
  ClKernelRequest requests[CL_MAX_SHAPES];

  GMutex *lock;                 /* stats: written here, read by the element's stats getter */
  ClKernelStats *stats;
};

#define FLOW_FAILED(what, err) GST_CL_ELEMENT_FAILED (k->owner, k->ctx, what, err)

void
cl_kernels_init_debug (void)
{
  /* the element's category (docs/design.md, "Where new code goes") */
  GST_DEBUG_CATEGORY_INIT (cl_kernels_debug, "clconvolve", 0, "OpenCL convolution");
}

/* The fixed rules' variant for the request, their fallback warned about. */
static ClVariant
fixed_variant (ClKernels * k, const ClKernelRequest * r)
{
  gchar *why = NULL;
  ClVariant v = cl_variant_fixed (&k->facts, r, &why);

  if (k->o.sparse_tiles && v.method == GST_CL_CONVOLVE_METHOD_SPARSE)
    cl_variant_sparse_tiles (&k->facts, r, &v);
  /* on the bus once for each fallback (a method that cannot run these settings) */
  if (why && g_strcmp0 (why, k->fallback)) {
    GST_ELEMENT_WARNING (k->owner, LIBRARY, SETTINGS, ("%s", why), (NULL));
    g_free (k->fallback);
    k->fallback = why;
    why = NULL;
  }
  g_free (why);
  return v;
}

static void
built_clear (ClKernels * k, ClBuilt * b, gboolean discard)
{
  gst_cl_built_clear (k->ctx, b, discard);
}

/* The coefficients' kernel arguments, the bias scaled from 8-bit units to samples of bits
 * significant bits (× 1023 / 255 for 10 bits, × 65535 / 255 for 16). */
static ClCoefArgs
coef_args (ClKernels * k, gint bits, gint m)
{
  gint rank = k->m_rank[m], rank_a = k->m_rank_a[m];

  /* the separable kernels' rank: the first matrix's pairs + 16 x the second's, + 256 with a
   * centre term; every kernel's border: the border + 16 x combine (the generic kernels take
   * combine from it, kernels/common.cl) */
  return (ClCoefArgs) { k->coef_mem[m], k->sep_mem[m],
    rank < 0 ? rank : rank_a + 16 * (rank - rank_a) + (k->m_centre[m] ? 256 : 0),
    (gfloat) (k->cur->bias * (bits > 8 ? ((1 << bits) - 1) / 255.0 : 1.0)),
    cl_settings_matrix_size (k->cur),
    k->cur->border + 16 * k->cur->combine, k->taps_mem[m], k->m_ntaps[m]
  };
}

ClFrameRun
cl_kernels_frame_run (ClKernels * k, const ClLayout * L)
{
  ClFrameRun f = { k->queue, k->up_queue, k->down_queue, k->run,
    k->tmp_mem, {{0}}, cl_settings_matrix_size (k->cur) / 2,
    k->cur->border == GST_CL_CONVOLVE_BORDER_WRAP, k->o.copy_parts
  };

  for (gint m = 0; m < k->n_matrices; m++)
    f.coefs[m] = coef_args (k, L->bits, m);
  return f;
}

/* The tuner as the element's streaming thread sees it (lookups only; the worker times). */
static ClTuner
element_tuner (ClKernels * k, const ClKernelRequest * r)
{
  return (ClTuner) { k->ctx, &k->facts, k->queue, k->sources.text,
    k->sources.digest, k->tune_dir, coef_args (k, r->bits > 0 ? r->bits : r->depth, 0),
    GST_OBJECT (k->owner), FALSE
  };
}

/* Counts a tuning outcome in the stats. */
static void
count_tuning (ClKernels * k, ClTuneOutcome how)
{
  g_mutex_lock (k->lock);
  if (how == CL_TUNE_LOADED)
    k->stats->tunings_loaded++;
  else if (how == CL_TUNE_TIMED)
    k->stats->tunings++;
  g_mutex_unlock (k->lock);
}

/* Makes b what slot runs (run[slot] is a view of it), logged and shown in the stats. */
static void
run_built (ClKernels * k, gint slot, const ClBuilt * b)
{
  gchar text[64];

  k->run[slot] = *b;
  g_mutex_lock (k->lock);
  gst_cl_context_program_counts (k->ctx, &k->stats->programs_built,
      &k->stats->programs_loaded, &k->stats->programs_held);
  if (slot == 0)
    k->stats->variant = b->variant;
  g_mutex_unlock (k->lock);
  GST_INFO_OBJECT (k->owner, "method=%s: running %s (%s, work-group %" G_GSIZE_FORMAT "x%"
      G_GSIZE_FORMAT ") on %s", gst_cl_enum_nick (GST_TYPE_CL_CONVOLVE_METHOD, k->cur->method),
      cl_variant_text (&b->variant, text, sizeof (text)), b->options, b->local[0], b->local[1],
      k->ctx->device_name);
}

/* Posts the element message of a build or tuning job of slot ("clconvolve-job") and logs it:
 * phase "started" when the element asks for it, "done" or "failed" when it switches (res: how
 * the job ended, wait: since the element asked). */
static void
post_job (ClKernels * k, ClJob * job, const gchar * phase, const ClJobResult * res,
    gint64 wait_us)
{
  gchar *what = gst_cl_job_describe (job);
  GstStructure *st = gst_structure_new ("clconvolve-job",
      "job", G_TYPE_STRING, gst_cl_job_kind_name (job),
      "phase", G_TYPE_STRING, phase,
      "what", G_TYPE_STRING, what, NULL);

  if (res) {
    gchar text[64];

    gst_structure_set (st, "variant", G_TYPE_STRING, cl_variant_text (&res->variant, text,
            sizeof (text)), "queued", G_TYPE_UINT64, (guint64) res->queued_us * GST_USECOND,
        "duration", G_TYPE_UINT64, (guint64) res->run_us * GST_USECOND,
        "wait", G_TYPE_UINT64, (guint64) wait_us * GST_USECOND, "helper", G_TYPE_BOOLEAN,
        res->helped, NULL);
    GST_INFO_OBJECT (k->owner, "%s %s: %s, %s after %.1f ms (%.1f ms queued, %.1f ms since "
        "asked)", gst_cl_job_kind_name (job), phase, what, text, res->run_us / 1000.0,
        res->queued_us / 1000.0, wait_us / 1000.0);
  } else {
    GST_INFO_OBJECT (k->owner, "%s %s: %s", gst_cl_job_kind_name (job), phase, what);
  }
  gst_element_post_message (k->owner, gst_message_new_element (GST_OBJECT (k->owner),
          st));
  g_free (what);
}

static void
drop_job (ClKernels * k, gint slot)
{
  if (!k->jobs[slot])
    return;
  g_clear_pointer (&k->jobs[slot], gst_cl_job_drop);
  g_mutex_lock (k->lock);
  k->stats->jobs_pending--;
  g_mutex_unlock (k->lock);
}

#define SEP_JOB(slot) (CL_MAX_SHAPES + (slot))

/* Asks the worker for v (or, tune, method=auto's choice) of slot's request, as jobs[index]
 * (slot, or SEP_JOB (slot)). */
static ClJobSpec
job_spec (ClKernels * k, gint slot, ClJobKind kind, const ClVariant * v)
{
  return (ClJobSpec) { kind, k->requests[slot], *v, k->facts, k->sources.text,
    k->sources.digest, k->tune_dir, !k->o.sync_builds
  };
}

static void
submit_job (ClKernels * k, gint index, gint slot, ClJobKind kind, const ClVariant * v)
{
  const ClJobSpec spec = job_spec (k, slot, kind, v);

  k->jobs[index] = gst_cl_worker_submit (k->ctx, &spec);
  k->job_asked[index] = g_get_monotonic_time ();
  g_mutex_lock (k->lock);
  k->stats->jobs_pending++;
  g_mutex_unlock (k->lock);
  post_job (k, k->jobs[index], "started", NULL, 0);
}

/* r for the pixel shape sh */
static void
shape_request (ClKernelRequest * r, const ClShape * sh)
{
  r->channels = sh->channels;
  r->depth = sh->depth;
  r->skipmask = sh->skipmask;
  r->only = sh->only;
  r->passmask = sh->passmask;
  r->bits = sh->bits;
  r->shift = sh->shift;
  r->swap = sh->swap;
}

/* Queues the generic programs of format's pixel shapes (in L's sample depth) not in seen. */
static void
prepare_format (ClKernels * k, const ClKernelRequest * like, const ClLayout * L,
    GHashTable * seen, const gchar * format)
{
  GstVideoInfo info;
  ClLayout other;

  gst_video_info_set_format (&info, gst_video_format_from_string (format), like->width,
      like->height);
  cl_layout_plan (&info, k->cur->planes, FALSE, &other);
  if (other.bits != L->bits || other.shift != L->shift || other.swap != L->swap)
    return;
  for (gint i = 0; i < other.n_shapes; i++) {
    ClKernelRequest r = *like;
    gchar *options;
    ClJobSpec spec = { CL_JOB_BUILD, r, cl_variant_generic, k->facts, k->sources.text,
      k->sources.digest, k->tune_dir, TRUE
    };

    shape_request (&spec.request, &other.shapes[i]);
    options = cl_variant_options (&k->facts, &spec.request, &cl_variant_generic);
    if (!g_hash_table_add (seen, options))
      continue;
    GST_DEBUG_OBJECT (k->owner, "preparing the generic program %s", options);
    gst_cl_worker_prepare (k->ctx, &spec);
  }
}

/* Queues on the worker the generic programs of the pixel shapes of every format of L's sample
 * depth the element takes (with the current planes), those of L too unless own_made (the
 * stream made them already): a later renegotiation, or a change of size or kernel while the
 * specialised kernel builds, then finds its generic program in the caches (the helper's build)
 * instead of compiling it while its frame waits. A stream rarely changes its depth: the 10, 12
 * and 16-bit formats' programs are not built for an 8-bit stream, nor the other way round.
 * Once per element; behind every job a stream waits for (the worker's priorities). */
static void
prepare_generics (ClKernels * k, const ClKernelRequest * like, const ClLayout * L,
    gboolean own_made)
{
  GHashTable *seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  k->generics_prepared = TRUE;
  for (gint i = 0; i < L->n_shapes && own_made; i++) {
    ClKernelRequest r = *like;

    shape_request (&r, &L->shapes[i]);
    g_hash_table_add (seen, cl_variant_options (&k->facts, &r, &cl_variant_generic));
  }
  /* the formats of every structure (the template lists 8-bit and deeper ones apart) */
  for (guint c = 0; c < gst_caps_get_size (k->formats); c++) {
    const GValue *formats = gst_structure_get_value (gst_caps_get_structure (k->formats, c),
        "format");

    for (guint f = 0; formats && f < gst_value_list_get_size (formats); f++)
      prepare_format (k, like, L, seen, g_value_get_string (gst_value_list_get_value (formats,
                  f)));
  }
  g_hash_table_unref (seen);
}

/* Makes v slot's kernel from a program the context holds ready (never building); FALSE when
 * it holds none (or the kernel could not be made: the worker's build will say why). A program
 * only on disk is loaded here for a shape's first frame; while slot runs a kernel (a live
 * change) it is left to the worker, as a build: loading a binary stalls the stream
 * (docs/design.md, issue 43). */
static gboolean
use_ready (ClKernels * k, gint slot, const ClVariant * v)
{
  ClBuilt b;
  gchar *log = NULL;
  const gchar *what;

  if (k->run[slot].kernel) {
    gchar *options = cl_variant_options (&k->facts, &k->requests[slot], v);
    gboolean held = gst_cl_context_holds_program (k->ctx,
        k->sources.text[cl_variant_source (v)], options);

    g_free (options);
    if (!held)
      return FALSE;
  }
  if (gst_cl_built_make (k->ctx, &k->facts, k->sources.text, &k->requests[slot], v, FALSE, &b,
          &log, &what) != CL_SUCCESS) {
    g_free (log);
    return FALSE;
  }
  built_clear (k, &k->built[slot], FALSE);
  k->built[slot] = b;
  run_built (k, slot, &k->built[slot]);
  return TRUE;
}

/* Releases slot's generic kernel g, and forgets it as what slot runs (a kernel made later may
 * get the same address). */
static void
clear_generic (ClKernels * k, gint slot, ClBuilt * g)
{
  if (g->kernel && k->run[slot].kernel == g->kernel)
    memset (&k->run[slot], 0, sizeof (k->run[slot]));
  built_clear (k, g, FALSE);
}

/* Makes slot run b unless it does already (run_built logs). */
static void
run_if_new (ClKernels * k, gint slot, const ClBuilt * b)
{
  if (k->run[slot].kernel != b->kernel)
    run_built (k, slot, b);
}

/* Runs the generic separable kernel for slot if its program is ready and TRUE; else FALSE,
 * having asked the worker for it (GST_CLCONVOLVE_GENERIC=1: built here and now). */
static gboolean
use_generic_separable (ClKernels * k, gint slot)
{
  const ClKernelRequest *r = &k->requests[slot];
  gchar *options = cl_variant_options (&k->facts, r, &cl_variant_generic_separable);
  ClBuilt *g = &k->generic_sep[slot];
  ClJob *job = k->jobs[SEP_JOB (slot)];
  ClJobResult res;
  gchar *log = NULL;
  const gchar *what = NULL;
  cl_int err = CL_SUCCESS;

  /* g->options without a kernel: asked for (its job pending), or failed (no second try) */
  if (!g->options || strcmp (options, g->options)) {
    clear_generic (k, slot, g);
    drop_job (k, SEP_JOB (slot));
    /* from the caches (an earlier build), else built here only where the developer override
     * asks for it, else by the worker */
    err = gst_cl_built_make (k->ctx, &k->facts, k->sources.text, r,
        &cl_variant_generic_separable, k->o.generic_only, g, &log, &what);
    if (err == CL_INVALID_PROGRAM_EXECUTABLE && !k->o.generic_only) {
      submit_job (k, SEP_JOB (slot), slot, CL_JOB_BUILD, &cl_variant_generic_separable);
      err = CL_SUCCESS;
    }
  } else if (!g->kernel && job && gst_cl_job_poll (job, &res)) {
    g_clear_pointer (&g->options, g_free);
    err = gst_cl_built_make (k->ctx, &k->facts, k->sources.text, r,
        &cl_variant_generic_separable, FALSE, g, &log, &what);
    post_job (k, job, err == CL_SUCCESS ? "done" : "failed", &res,
        g_get_monotonic_time () - k->job_asked[SEP_JOB (slot)]);
    drop_job (k, SEP_JOB (slot));
  }
  if (err != CL_SUCCESS)
    /* the dense one goes on running */
    GST_WARNING_OBJECT (k->owner, "the generic separable program %s: %s failed (%s)%s%s",
        options, what, gst_cl_error_to_string (err), log ? "\n" : "", log ? log : "");
  if (!g->options)
    g->options = g_strdup (options);
  g_free (log);
  g_free (options);
  if (!g->kernel)
    return FALSE;
  run_if_new (k, slot, g);
  return TRUE;
}

/* The longest a stream's first frame waits for the worker's generic program (a cold build
 * takes seconds in the helper) before building it in its own thread. */
#define GENERIC_WAIT_US (5 * G_TIME_SPAN_SECOND)

/* The dense generic program of slot made by the worker (its helper process builds it and runs
 * it once), the streaming thread waiting for it up to GENERIC_WAIT_US: CL_SUCCESS, else what
 * failed. Only on a device without on-chip local memory (a CPU: PoCL) while other elements of
 * the process run, and with builds off the streaming thread. PoCL generates a kernel's code at
 * its first launch under a lock of the whole process, which every launch takes: built and
 * first run here, the program stalled the streams already running for as long. */
static cl_int
generic_from_worker (ClKernels * k, gint slot, ClBuilt * g, gchar ** log, const gchar ** what)
{
  ClJob *job;
  ClJobResult res;

  if (k->o.sync_builds || k->facts.local_mem_dedicated || gst_cl_context_elements_running () < 2)
    return CL_INVALID_OPERATION;
  drop_job (k, slot);
  submit_job (k, slot, slot, CL_JOB_BUILD, &cl_variant_generic);
  job = k->jobs[slot];
  if (gst_cl_job_wait_until (job, k->job_asked[slot] + GENERIC_WAIT_US) &&
      gst_cl_job_poll (job, &res))
    post_job (k, job, res.err == CL_SUCCESS ? "done" : "failed", &res,
        g_get_monotonic_time () - k->job_asked[slot]);
  drop_job (k, slot);
  return gst_cl_built_make (k->ctx, &k->facts, k->sources.text, &k->requests[slot],
      &cl_variant_generic, FALSE, g, log, what);
}

/* Runs a generic kernel for slot: the separable one where it suits the matrix and is ready,
 * else the dense one, building its program on the first use of its pixel shape (the one build
 * a frame may wait for; the context keeps it, and so does the element). */
static gboolean
use_generic (ClKernels * k, gint slot)
{
  const ClKernelRequest *r = &k->requests[slot];
  gchar *options;
  ClBuilt *g = &k->generic[slot];
  gchar *log = NULL;
  const gchar *what;
  cl_int err;

  if (!k->o.generic_dense &&
      cl_variant_generic_for (r).method == GST_CL_CONVOLVE_METHOD_SEPARABLE &&
      use_generic_separable (k, slot))
    return TRUE;
  options = cl_variant_options (&k->facts, r, &cl_variant_generic);
  if (!g->kernel || strcmp (options, g->options)) {
    clear_generic (k, slot, g);
    err = gst_cl_built_make (k->ctx, &k->facts, k->sources.text, r, &cl_variant_generic,
        FALSE, g, &log, &what);
    if (err == CL_INVALID_PROGRAM_EXECUTABLE)
      err = generic_from_worker (k, slot, g, &log, &what);
    if (err != CL_SUCCESS) {
      g_clear_pointer (&log, g_free);
      err = gst_cl_built_make (k->ctx, &k->facts, k->sources.text, r, &cl_variant_generic,
          TRUE, g, &log, &what);
    }
    if (err != CL_SUCCESS) {
      if (log || err == CL_BUILD_PROGRAM_FAILURE)
        GST_ELEMENT_ERROR (k->owner, LIBRARY, INIT,
            ("Could not build the OpenCL convolution program on %s (%s).",
                k->ctx->device_name, gst_cl_error_to_string (err)),
            ("build options: %s\nbuild log:\n%s", options, log ? log : "(empty)"));
      else
        FLOW_FAILED (what, err);
      k->requests[slot].method = -1; /* resolve again on the next frame */
      g_free (options);
      g_free (log);
      return FALSE;
    }
  }
  g_free (options);
  run_if_new (k, slot, g);
  return TRUE;
}

/* After the fixed rules' variant of a request not tuned yet: the tuning job. */
static void
then_tune (ClKernels * k, gint slot)
{
  if (!k->tune_next[slot])
    return;
  k->tune_next[slot] = FALSE;
  submit_job (k, slot, slot, CL_JOB_TUNE, &cl_variant_generic);
}

/* A job of slot that has ended: its variant becomes slot's kernel (a message says so) and
 * TRUE; a build that failed leaves the kernel running, with a warning. */
static gboolean
check_job (ClKernels * k, gint slot)
{
  ClJob *job = k->jobs[slot];
  ClJobResult res;
  gint64 wait;

  if (!gst_cl_job_poll (job, &res))
    return FALSE;
  wait = g_get_monotonic_time () - k->job_asked[slot];
  if (gst_cl_job_kind (job) == CL_JOB_TUNE)
    count_tuning (k, res.how);
  if (res.err == CL_SUCCESS && use_ready (k, slot, &res.variant)) {
    post_job (k, job, "done", &res, wait);
    drop_job (k, slot);
    then_tune (k, slot);
    /* the generic separable program stays wanted for the next settings, not waited for */
    if (k->jobs[SEP_JOB (slot)]) {
      ClJobSpec spec = job_spec (k, slot, CL_JOB_BUILD, &cl_variant_generic_separable);

      gst_cl_worker_prepare (k->ctx, &spec);
      drop_job (k, SEP_JOB (slot));
      /* to be looked up again when next needed */
      g_clear_pointer (&k->generic_sep[slot].options, g_free);
    }
    return TRUE;
  }
  if (res.err == CL_SUCCESS) {
    /* built, then released before this frame (the context's idle bound): once more */
    ClVariant v = res.variant;

    drop_job (k, slot);
    submit_job (k, slot, slot, CL_JOB_BUILD, &v);
    return FALSE;
  }
  post_job (k, job, "failed", &res, wait);
  /* the tensor-core kernel needs the driver's compiler to take inline PTX: say how to leave
   * it out */
  GST_ELEMENT_WARNING (k->owner, LIBRARY, INIT, ("Could not build an OpenCL kernel on %s (%s "
          "failed: %s); the generic kernel goes on running.%s", k->ctx->device_name,
          res.what, gst_cl_error_to_string (res.err),
          res.variant.method == GST_CL_CONVOLVE_METHOD_SEPARABLE &&
          res.variant.split == CL_SEPARABLE_TENSOR ? " It was the tensor-core kernel: set "
          "GST_CLCONVOLVE_TENSOR=0 in the environment to leave it out." : ""),
      ("build log:\n%s", res.log ? res.log : "(empty)"));
  drop_job (k, slot);
  then_tune (k, slot);
  return FALSE;
}

/* Makes run[slot] a kernel for the current settings and that pixel shape (the views of L that
 * have it) without waiting for a compiler: the specialised variant if the context holds its
 * program, else (while the worker builds it, or for method=auto first tunes it) the one
 * running if it computes the same, else the generic kernel. Between frames it switches to the
 * specialised one once the worker is done. Coefficients are data: they never cause a build. */
static gboolean
ensure_kernel (ClKernels * k, gint slot, const ClShape * shape, const ClLayout * L)
{
  const ClSettings *s = k->cur;
  gint size = cl_settings_matrix_size (s);
  ClKernelRequest request = {
    .method = s->method, .size = size, .border = s->border, .block = k->o.block,
    .rank = k->rank, .autotune = s->autotune, .split = k->o.split, .discrete = k->discrete,
    .taps = cl_variant_taps (k->ntaps, size), .combine = s->combine, .box = k->box,
    .unit = k->unit,
  };
  ClTuner t;
  ClTuneOutcome how = CL_TUNE_KNOWN;
  ClJobResult res;
  ClVariant v = cl_variant_generic;
  gboolean known = TRUE;
  gchar *options;

  shape_request (&request, shape);
  for (gint i = 0; i < L->n_views; i++)
    if (L->views[i].shape == slot && L->views[i].width * L->views[i].height >
        request.width * request.height) {
      request.width = L->views[i].width;
      request.height = L->views[i].height;
    }
  if (k->run[slot].kernel && !memcmp (&request, &k->requests[slot], sizeof (request))) {
    if (k->jobs[slot])
      check_job (k, slot);
    /* still generic: the separable one once its job has ended */
    if (k->run[slot].variant.generic && k->jobs[SEP_JOB (slot)] &&
        gst_cl_job_poll (k->jobs[SEP_JOB (slot)], &res))
      use_generic (k, slot);
    return TRUE;
  }
  drop_job (k, slot);
  k->tune_next[slot] = FALSE;
  k->requests[slot] = request;
  if (k->o.generic_only)
    return use_generic (k, slot);
  if (request.method == GST_CL_CONVOLVE_METHOD_AUTO && request.autotune) {
    t = element_tuner (k, &request);
    known = gst_cl_tuner_lookup (&t, &request, &v, &how);
    count_tuning (k, how);
  } else {
    v = fixed_variant (k, &request);
  }
  if (known && use_ready (k, slot, &v)) {
    /* (with builds on the streaming thread, as the suites run, nothing waits for them) */
    if (!k->generics_prepared && !k->o.sync_builds)
      prepare_generics (k, &request, L, FALSE);
    return TRUE;
  }
  if (k->o.sync_builds) {
    submit_job (k, slot, slot, known ? CL_JOB_BUILD : CL_JOB_TUNE, &v);
    gst_cl_job_wait (k->jobs[slot]);
    if (check_job (k, slot))
      return TRUE;
  }
  /* not tuned yet: the fixed rules' variant runs while the candidates are timed, its build
   * first where it is not ready (timing them all takes seconds on a CPU, that one build one) */
  if (!known) {
    ClVariant fixed = fixed_variant (k, &request);

    if (use_ready (k, slot, &fixed)) {
      submit_job (k, slot, slot, CL_JOB_TUNE, &v);
      if (!k->generics_prepared && !k->o.sync_builds)
        prepare_generics (k, &request, L, FALSE);
      return TRUE;
    }
    k->tune_next[slot] = TRUE;
    v = fixed;
    known = TRUE;
  }
  /* meanwhile: the kernel running, where it is compiled for the same, else the generic one
   * (made first: on a cold start the worker's build would slow its compile down) */
  options = k->built[slot].kernel ?
      cl_variant_options (&k->facts, &request, &k->built[slot].variant) : NULL;
  if (options && !strcmp (options, k->built[slot].options))
    k->run[slot] = k->built[slot];
  else if (!use_generic (k, slot)) {
    g_free (options);
    return FALSE;
  }
  g_free (options);
  /* the stream's own job before the generic programs for later changes: an idle worker
   * starts whichever job comes first, before the queue's priorities can order them */
  if (!k->jobs[slot])
    submit_job (k, slot, slot, known ? CL_JOB_BUILD : CL_JOB_TUNE, &v);
  if (!k->generics_prepared)
    prepare_generics (k, &request, L, TRUE);
  return TRUE;
}

/* method=separable: gives each separable view its region of tmp_mem (one float value per
 * computed sample, pixel and pair), growing the buffer when the frame needs more. */
static gboolean
ensure_tmp (ClKernels * k, ClLayout * L)
{
  gsize bytes = 0;
  cl_int err;

  for (gint i = 0; i < L->n_views; i++) {
    ClView *v = &L->views[i];
    const ClShape *sh = &L->shapes[v->shape];
    gsize value = sizeof (gfloat) * cl_variant_sum_values (sh->channels, sh->only);

    if (!k->run[v->shape].rows)
      continue;
    v->tmp_offset = bytes / value;
    bytes += GST_ROUND_UP_16 (value * v->width * v->height * MAX (k->rank, 1));
  }
  if (bytes == 0 || (k->tmp_mem && k->tmp_bytes >= bytes))
    return TRUE;
  /* a new one: the old one's contents are not needed */
  g_clear_pointer (&k->tmp_mem, clReleaseMemObject);
  err = gst_cl_buffer_ensure (k->ctx, &k->tmp_mem, &k->tmp_bytes, bytes, CL_MEM_READ_WRITE);
  if (err != CL_SUCCESS)
    FLOW_FAILED ("clCreateBuffer", err);
  return err == CL_SUCCESS;
}

/* Each view's matrix: its first component's (one per component with plane-matrices, else
 * the one). A view computes its components together (RGBA's R, G and B; NV12's U and V): given
 * different matrices they run the first's, with a warning. */
static void
assign_matrices (ClKernels * k, ClLayout * L)
{
  for (gint i = 0; i < L->n_views; i++) {
    ClView *v = &L->views[i];
    gint first = v->comps ? g_bit_nth_lsf (v->comps, -1) : 0;

    v->matrix = k->n_matrices > 1 ? first : 0;
    for (gint c = first + 1; k->n_matrices > 1 && c < CL_MAX_MATRICES; c++)
      if ((v->comps & (1u << c)) && !cl_settings_same_matrix (k->cur, first, c) &&
          !k->warned_components) {
        k->warned_components = TRUE;
        GST_ELEMENT_WARNING (k->owner, LIBRARY, SETTINGS, ("plane-matrices gives components %d "
                "and %d different matrices, but this format holds them in one plane, filtered "
                "together: both run component %d's. Use a planar format (I420, Y444, GBR) to "
                "filter them apart.", first + 1, c + 1, first + 1), (NULL));
      }
  }
}

/* A warning on the bus where matrix m divided by its divisor cannot move any sample by half a
 * step even at 16 bits (the sum of its absolute values under 0.5 / 65535): every output sample
 * is then the bias, black at bias 0 (an automatic divisor of 1 for a matrix summing to about
 * 0, or one that underflows); an all-zero matrix is said as such (no divisor helps it). */
static void
warn_vanishing (ClKernels * k, const ClCoefficients * c, gint m)
{
  gdouble sum = 0.0;

  for (gint i = 0; i < (cl_settings_paired (k->cur) ? 2 : 1) * c->n * c->n; i++)
    sum += fabs (c->coef[i]);
  if (sum == 0.0)
    GST_ELEMENT_WARNING (k->owner, LIBRARY, SETTINGS, ("The matrix%s is all zeros: every "
            "output sample is the bias.", m > 0 ? " of a component" : ""), (NULL));
  else if (sum * 65535.0 < 0.5)
    GST_ELEMENT_WARNING (k->owner, LIBRARY, SETTINGS, ("The matrix%s divided by its divisor "
            "is too small to change any sample (its absolute values sum to %g): every output "
            "sample is the bias. Give a divisor of the matrix's own scale (the automatic one "
            "is the sum of the coefficients, 1 where they sum to about 0).", m > 0 ?
            " of a component" : "", sum), (NULL));
}

/* Creates matrix m's coefficient buffers (the largest any settings need). */
static cl_int
coefficient_buffers (ClKernels * k, gint m)
{
  cl_int err = CL_SUCCESS;

  if (!k->coef_mem[m])
    k->coef_mem[m] = clCreateBuffer (k->ctx->context, CL_MEM_READ_ONLY,
        sizeof (((ClCoefficients *) NULL)->coef), NULL, &err);
  if (err == CL_SUCCESS && !k->sep_mem[m])
    k->sep_mem[m] = clCreateBuffer (k->ctx->context, CL_MEM_READ_ONLY,
        sizeof (((ClCoefficients *) NULL)->sep), NULL, &err);
  if (err == CL_SUCCESS && !k->taps_mem[m])
    k->taps_mem[m] = clCreateBuffer (k->ctx->context, CL_MEM_READ_ONLY,
        sizeof (((ClCoefficients *) NULL)->taps), NULL, &err);
  return err;
}

/* Uploads c as matrix m's coefficients and counts it in what the variant rules see. */
static cl_int
upload_matrix (ClKernels * k, gint m, const ClCoefficients * c, const gchar ** what)
{
  cl_int err;

  k->m_rank[m] = c->rank;
  k->m_rank_a[m] = c->rank_a;
  k->m_centre[m] = c->centre != 0.0f;
  k->m_ntaps[m] = c->ntaps;
  k->box &= c->box;
  k->unit &= c->unit;
  if (m == 0)
    k->rank_a = k->m_rank_a[m];
  k->rank = k->rank < 0 || k->m_rank[m] < 0 ? -1 : MAX (k->rank, k->m_rank[m]);
  k->ntaps = m > 0 && (k->ntaps == 0 || k->m_ntaps[m] == 0) ? 0 :
      MAX (k->ntaps, k->m_ntaps[m]);
  *what = "clCreateBuffer";
  err = coefficient_buffers (k, m);
  *what = "coefficient upload";
  if (err == CL_SUCCESS)
    err = clEnqueueWriteBuffer (k->queue, k->coef_mem[m], CL_TRUE, 0, sizeof (c->coef),
        c->coef, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clEnqueueWriteBuffer (k->queue, k->sep_mem[m], CL_TRUE, 0, sizeof (c->sep), c->sep,
        0, NULL, NULL);
  if (err == CL_SUCCESS && k->m_ntaps[m] > 0)
    err = clEnqueueWriteBuffer (k->queue, k->taps_mem[m], CL_TRUE, 0,
        sizeof (ConvTap) * k->m_ntaps[m], c->taps, 0, NULL, NULL);
  return err;
}

gboolean
cl_kernels_set_coefficients (ClKernels * k, const ClSettings * s)
{
  ClCoefficients *c = g_new (ClCoefficients, 1);
  const gchar *what = "coefficient upload";
  cl_int err = CL_SUCCESS;

  k->cur = s;
  /* one matrix per component with plane-matrices (those without one of their own run the
   * kernel's), else one */
  k->n_matrices = cl_settings_n_matrices (s);
  k->rank = 0;
  k->ntaps = 0;
  k->box = TRUE;
  k->unit = TRUE;
  k->warned_components = FALSE;
  for (gint m = 0; m < k->n_matrices && err == CL_SUCCESS; m++) {
    /* the SVD of the split runs here, once per coefficient set, not per frame */
    cl_settings_coefficients (s, m, c);
    warn_vanishing (k, c, m);
    err = upload_matrix (k, m, c, &what);
  }
  g_free (c);
  if (err != CL_SUCCESS)
    FLOW_FAILED (what, err);
  return err == CL_SUCCESS;
}

gboolean
cl_kernels_prepare (ClKernels * k, ClLayout * L)
{
  assign_matrices (k, L);
  for (gint i = 0; i < L->n_shapes; i++)
    if (!ensure_kernel (k, i, &L->shapes[i], L))
      return FALSE;
  return ensure_tmp (k, L);
}

gboolean
cl_kernels_any_generic (ClKernels * k)
{
  for (gint i = 0; i < CL_MAX_SHAPES; i++)
    if (k->run[i].kernel && k->run[i].variant.generic)
      return TRUE;
  return FALSE;
}

/* Says once per process, on the bus and in the log, that jobs run without the helper. */
static void
warn_no_helper (GstElement * owner)
{
  static gint warned = 0;
  gchar *why;

  if (g_atomic_int_get (&warned) || !(why = gst_cl_worker_helper_missing ()))
    return;
  if (g_atomic_int_compare_and_exchange (&warned, 0, 1)) {
    GST_WARNING_OBJECT (owner, "%s", why);
    GST_ELEMENT_WARNING (owner, RESOURCE, NOT_FOUND, ("%s", why), (NULL));
  }
  g_free (why);
}

ClKernels *
cl_kernels_new (GstElement * owner, GstClContext * ctx, const cl_command_queue * queues,
    const ClOverrides * o, gboolean discrete, GstCaps * formats, ClKernelStats * stats,
    GMutex * lock)
{
  ClKernels *k = g_new0 (ClKernels, 1);
  GError *error = NULL;
  cl_int err;

  k->owner = owner;
  k->ctx = gst_cl_context_ref (ctx);
  k->queue = queues[0];
  k->up_queue = queues[1];
  k->down_queue = queues[2];
  k->facts = (ClDeviceFacts) { ctx->local_mem_dedicated, ctx->local_mem_size,
    ctx->max_work_group_size, ctx->native_float_width, ctx->tensor_mma, ctx->gbox_rows
  };
  k->o = *o;
  k->discrete = discrete;
  k->formats = gst_caps_ref (formats);
  k->tune_dir = gst_cl_tuner_dir ();
  k->stats = stats;
  k->lock = lock;
  if (!gst_cl_sources_load (&k->sources, o->kernel_source, &error)) {
    GST_ELEMENT_ERROR (owner, RESOURCE, READ, ("Could not read %s=%s: %s",
            CL_KERNEL_SOURCE_ENV, o->kernel_source, error->message), (NULL));
    g_clear_error (&error);
    cl_kernels_free (k);
    return NULL;
  }
  if (gst_cl_sources_overridden (&k->sources))
    GST_WARNING_OBJECT (owner, "using OpenCL sources from %s (developer override)",
        o->kernel_source);
  warn_no_helper (owner);
  err = coefficient_buffers (k, 0);
  if (err != CL_SUCCESS) {
    FLOW_FAILED ("clCreateBuffer", err);
    cl_kernels_free (k);
    return NULL;
  }
  return k;
}

void
cl_kernels_free (ClKernels * k)
{
  if (!k)
    return;
  for (gint i = 0; i < CL_MAX_SHAPES; i++) {
    drop_job (k, i);
    drop_job (k, SEP_JOB (i));
    built_clear (k, &k->built[i], FALSE);
    built_clear (k, &k->generic[i], FALSE);
    built_clear (k, &k->generic_sep[i], FALSE);
  }
  for (gint m = 0; m < CL_MAX_MATRICES; m++) {
    g_clear_pointer (&k->coef_mem[m], clReleaseMemObject);
    g_clear_pointer (&k->sep_mem[m], clReleaseMemObject);
    g_clear_pointer (&k->taps_mem[m], clReleaseMemObject);
  }
  g_clear_pointer (&k->tmp_mem, clReleaseMemObject);
  gst_cl_sources_clear (&k->sources);
  g_free (k->fallback);
  g_free (k->tune_dir);
  gst_caps_unref (k->formats);
  gst_cl_context_release (k->ctx);
  g_free (k);
}
