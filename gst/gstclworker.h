/* clconvolve: kernels built and tuned off the streaming thread
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_CL_WORKER_H__
#define __GST_CL_WORKER_H__

#include "gstcltuner.h"

G_BEGIN_DECLS

/* The worker: one thread per device context that builds kernel variants into the context's
 * programs and, for method=auto, times their candidates, so that no streaming thread waits for
 * a compiler or a tuning run. A job builds its variant and runs it once on scratch buffers
 * (PoCL generates code per work-group size at a kernel's first launch), so that an element
 * that then makes the kernel from the context finds it ready. Elements submit jobs and poll
 * them between frames; identical jobs are shared; a queued job nobody wants any more is
 * dropped; the context's finalize stops the thread after the job in progress. */

typedef enum
{
  CL_JOB_BUILD,                 /* the given variant */
  CL_JOB_TUNE                   /* method=auto's choice (gst_cl_tuner_choose), then built */
} ClJobKind;

/* What a job makes; submit copies it (the element may stop before it ends). */
typedef struct
{
  ClJobKind kind;
  ClKernelRequest request;
  ClVariant variant;            /* CL_JOB_BUILD */
  ClDeviceFacts facts;
  const gchar *const *source;   /* the program texts, ClKernelSource order */
  const gchar *digest;          /* their digest (tuning key) */
  const gchar *tune_dir;        /* where choices are kept; NULL: memory only */
  gboolean streaming;           /* frames run beside the job: tuning takes a bounded share of
                                 * the device, and the job runs first in the helper process */
} ClJobSpec;

/* How a job ended. */
typedef struct
{
  cl_int err;                   /* CL_SUCCESS: variant is built and kept in the context */
  ClVariant variant;            /* what was built (a tiled kernel may have become float4) */
  ClTuneOutcome how;            /* CL_JOB_TUNE */
  const gchar *what;            /* the step that failed */
  const gchar *log;             /* the build log of a failed build, else NULL */
  gint64 queued_us, run_us;     /* waiting for the worker, then running on it */
  gboolean helped;              /* the helper process did the work first */
} ClJobResult;

typedef struct _ClJob ClJob;

/* Developer override: the worker waits this many milliseconds before each job (the tests
 * check that the streaming thread does not wait for it); a dropped job stops the wait. */
#define GST_CL_WORKER_DELAY_ENV "GST_CLCONVOLVE_WORKER_DELAY_MS"

/* The helper program (clconvolve-warmup), a path: GST_CLCONVOLVE_HELPER where set ("": none),
 * else the installed one. The worker runs each job of streaming elements in it first
 * (clconvolve-warmup --serve, kept running while jobs come), so that what compiling takes in
 * its process (PoCL holds one lock over all of the process's launches while it generates a
 * kernel's code; NVIDIA's compiler holds up the frames too) never holds up their frames; the
 * worker then finds the program, its code and the tuning choice in the caches it filled. */
#define GST_CL_WORKER_HELPER_ENV "GST_CLCONVOLVE_HELPER"

/* The most a helper may take to answer a job, in seconds (default
 * GST_CL_WORKER_HELPER_TIMEOUT_S: a cold tuning job compiles a dozen programs), and the
 * longest answer it may give: a helper that misses either is ended, the job is done in the
 * application's process and the next job starts a fresh helper. Read at each job. */
#define GST_CL_WORKER_HELPER_TIMEOUT_ENV "GST_CLCONVOLVE_HELPER_TIMEOUT"
#define GST_CL_WORKER_HELPER_TIMEOUT_S 120
#define GST_CL_WORKER_HELPER_ANSWER_MAX 4096

/* How long a helper waits for the next job before the worker ends it (it holds a device
 * context), in whole seconds (default GST_CL_WORKER_HELPER_IDLE_S); the next job starts it
 * again. A developer override: the tests shorten it. */
#define GST_CL_WORKER_HELPER_IDLE_ENV "GST_CLCONVOLVE_HELPER_IDLE"
#define GST_CL_WORKER_HELPER_IDLE_S 30
/* The same once no element uses the context (the last one stopped): the application no longer
 * needs the helper, short of a restart in a moment. */
#define GST_CL_WORKER_HELPER_UNUSED_S 2

/* Set for the helper: the process that started it (it ends with that process's thread) */
#define GST_CL_WORKER_HELPER_PARENT_ENV "GST_CLCONVOLVE_HELPER_PARENT"

/* The plugin's own file (the plugin registration says it): the helper is looked for beside it,
 * in the build tree and in the install tree it lies in, then where meson installed it. */
void gst_cl_worker_set_plugin_file (const gchar * file);
/* NULL when jobs find a helper (or GST_CLCONVOLVE_HELPER is set, empty: none by choice), else
 * a warning saying where it was looked for and what its absence costs (free it). */
gchar *gst_cl_worker_helper_missing (void);
/* Registers the debug category clworker (at plugin load, so --gst-debug-help lists it). */
void gst_cl_worker_init_debug (void);

/* Queues spec on ctx's worker (started on first use), or joins the identical job already
 * queued or running. Returns the caller's reference; give it back with gst_cl_job_drop. The
 * worker runs what a stream waits for (builds), then what gst_cl_worker_prepare queued, then
 * tuning. */
ClJob *gst_cl_worker_submit (GstClContext * ctx, const ClJobSpec * spec);

/* Queues spec for the caches alone (a program likely needed later), behind every build a stream
 * waits for and before tuning: nobody polls it, and it is never dropped; an element asking for
 * the same job later joins it (and moves it up). */
void gst_cl_worker_prepare (GstClContext * ctx, const ClJobSpec * spec);

/* TRUE once the job has ended, with *result filled (valid while the reference is held). */
gboolean gst_cl_job_poll (ClJob * job, ClJobResult * result);

/* Waits until the job has ended (GST_CLCONVOLVE_SYNC_BUILDS: the old, stalling behaviour). */
void gst_cl_job_wait (ClJob * job);
/* The same, until end_time (g_get_monotonic_time ()) at the latest: TRUE if it has ended. */
gboolean gst_cl_job_wait_until (ClJob * job, gint64 end_time);

ClJobKind gst_cl_job_kind (const ClJob * job);

/* "tune" or "build", and what it makes ("vector nv=3 my=2 9x9 4x8-bit"), for messages. */
const gchar *gst_cl_job_kind_name (const ClJob * job);
gchar *gst_cl_job_describe (const ClJob * job);

/* Gives back the caller's reference; a job that nobody wants any more is dropped if it has not
 * started (one running finishes: its program is kept for a later request). NULL allowed. */
void gst_cl_job_drop (ClJob * job);


/* Runs spec in the calling thread on ctx (the helper program's --job mode): *result as a job
 * that ended would have it, with its log (free it). */
void gst_cl_job_run_here (GstClContext * ctx, const ClJobSpec * spec, ClJobResult * result,
    gchar ** log);

/* The helper's --job arguments for spec on ctx (free with g_strfreev), and the parsing of
 * them back: FALSE with *why set (free it) when they do not make a job. */
gchar **gst_cl_job_spec_to_args (GstClContext * ctx, const ClJobSpec * spec);
gboolean gst_cl_job_spec_from_args (gchar ** args, ClJobSpec * spec, gchar ** device,
    gchar ** identity, gchar ** why);

/* Jobs queued or running on ctx's worker. */
guint gst_cl_worker_pending (GstClContext * ctx);

/* Stops ctx's worker thread, waiting for the job in progress, and frees it (the context's
 * finalize). */
void gst_cl_worker_free (GstClContext * ctx);

G_END_DECLS

#endif /* __GST_CL_WORKER_H__ */
