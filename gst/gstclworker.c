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
#include "gstclsources.h"
#include "convkernel.h"

#include <gio/gio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#endif
#ifdef G_OS_UNIX
#include <sys/socket.h>
#include <unistd.h>
#endif
#ifdef HAVE_MALLOC_TRIM
#include <malloc.h>
#endif

/* the worker gives freed heap back to the system at most this often (worker_trim) */
#define TRIM_INTERVAL_US (10 * G_TIME_SPAN_SECOND)
/* a speculative job queued this long goes before a needed one (job_next) */
#define SPECULATIVE_AGE_US (3 * G_TIME_SPAN_SECOND)

GST_DEBUG_CATEGORY_STATIC (gst_cl_worker_debug);
#define GST_CAT_DEFAULT gst_cl_worker_debug

typedef enum
{
  JOB_QUEUED, JOB_RUNNING, JOB_ENDED
} JobState;

/* The order the worker runs queued jobs in: what a stream waits for now (its specialised
 * kernel, while it runs a generic one), then the generic programs built in case a later
 * renegotiation needs them (small builds; without them that renegotiation's frame waits for a
 * compiler), then tuning (the stream already runs the fixed rules' variant, and a tuning job
 * takes seconds); first in, first out within each. A speculative job that waited
 * SPECULATIVE_AGE_US goes before needed ones, one between two needed jobs (job_next). */
typedef enum
{
  JOB_NEEDED,
  JOB_SPECULATIVE,
  JOB_TUNING
} JobPriority;

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
  JobPriority priority;
  guint64 seq;                  /* the order jobs of one priority were queued in */
  gint64 queued_at;
  ClJobResult result;
  gchar *log;
};

typedef struct _ClWorker
{
  GMutex lock;
  GCond changed;                /* a job queued, dropped or ended; quit */
  GThread *thread;
  GQueue queue;                 /* ClJob, a reference each, most urgent first */
  guint64 next_seq;
  GHashTable *jobs;             /* key -> ClJob queued or running (no reference) */
  gboolean quit;
  gint64 delay_us;              /* GST_CLCONVOLVE_WORKER_DELAY_MS */

  GCancellable *cancel;         /* quit, or the tuning job running dropped: stops waiting for
                                 * the helper (reset after each job unless quitting) */

  gboolean trim_wanted;         /* a job ran or programs were released since the last trim */
  gint64 last_trim;             /* monotonic time of the last malloc_trim */
  gint64 idle_since;            /* when the last job ended: an idle helper's age */
  gboolean aged_last;           /* the last job taken was a speculative one that had waited */

  /* the helper process (the worker thread's) */
  GSubprocess *helper;
  GSocket *helper_sock;
  GThread *helper_log;          /* logs its stderr (compiler chatter) until it exits */
  gchar *helper_path;
  GString *helper_buf;          /* what it said past the last answer */

  /* the worker thread's */
  cl_command_queue queue_cl;
  cl_mem coef, sep;             /* zeros: timing does not depend on the values */
  cl_mem taps;                  /* zeros at the offsets of a dense matrix's first rows */
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
  if (w->sep)
    w->taps = clCreateBuffer (ctx->context, CL_MEM_READ_ONLY, sizeof (ConvTap) * CL_MAX_TAPS,
        NULL, &err);
  if (err != CL_SUCCESS) {
    g_clear_pointer (&w->sep, clReleaseMemObject);
    g_clear_pointer (&w->coef, clReleaseMemObject);
    g_clear_pointer (&w->queue_cl, clReleaseCommandQueue);
  }
  return err;
}

/* Timing taps for r (method=sparse): r->taps zeros at the offsets of the first rows of a dense
 * size x size matrix. Where the taps lie matters little, that they stay inside the window does
 * (the kernel reads them without border checks there). */
static cl_int
worker_taps (ClWorker * w, const ClKernelRequest * r)
{
  ConvTap *taps;
  cl_int err;

  if (r->taps <= 0)
    return CL_SUCCESS;
  taps = g_new0 (ConvTap, r->taps);
  for (gint t = 0; t < r->taps; t++) {
    taps[t].dx = t % r->size - r->size / 2;
    taps[t].dy = t / r->size % r->size - r->size / 2;
  }
  err = clEnqueueWriteBuffer (w->queue_cl, w->taps, CL_TRUE, 0, sizeof (ConvTap) * r->taps,
      taps, 0, NULL, NULL);
  g_free (taps);
  return err;
}

/* The plugin's file (gst_cl_worker_set_plugin_file): where the helper is looked for first. */
static gchar *plugin_file;

void
gst_cl_worker_set_plugin_file (const gchar * file)
{
  gchar *old = plugin_file;

  plugin_file = g_strdup (file);
  g_free (old);
}

/* The places the helper may be, in order (free with g_strfreev): beside the plugin (both copied
 * into one directory), the build tree (gst/ and tools/ side by side), the install tree the
 * plugin lies in (PREFIX/LIBDIR/gstreamer-1.0 -> PREFIX/BINDIR, wherever PREFIX was moved),
 * and where meson installed it. */
static gchar **
helper_places (void)
{
  GPtrArray *places = g_ptr_array_new ();
  const gchar *subdir = "/" CLCONVOLVE_PLUGIN_SUBDIR;

  if (plugin_file) {
    gchar *dir = g_path_get_dirname (plugin_file);

    g_ptr_array_add (places, g_build_filename (dir, CLCONVOLVE_HELPER_NAME, NULL));
    g_ptr_array_add (places, g_build_filename (dir, "..", "tools", CLCONVOLVE_HELPER_NAME,
            NULL));
    if (g_str_has_suffix (dir, subdir)) {
      gchar *prefix = g_strndup (dir, strlen (dir) - strlen (subdir));

      g_ptr_array_add (places, g_build_filename (prefix, CLCONVOLVE_HELPER_SUBPATH, NULL));
      g_free (prefix);
    }
    g_free (dir);
  }
  g_ptr_array_add (places, g_strdup (CLCONVOLVE_HELPER_PATH));
  g_ptr_array_add (places, NULL);
  return (gchar **) g_ptr_array_free (places, FALSE);
}

/* The helper program's path (free it), NULL when there is none (gstclworker.h); read at every
 * job, so that a test can change it. */
static gchar *
helper_path (void)
{
  const gchar *env = g_getenv (GST_CL_WORKER_HELPER_ENV);
  gchar **places, *found = NULL;

  if (env)
    return *env ? g_strdup (env) : NULL;
  places = helper_places ();
  for (gint i = 0; places[i] && !found; i++)
    if (g_file_test (places[i], G_FILE_TEST_IS_EXECUTABLE))
      found = g_strdup (places[i]);
  g_strfreev (places);
  return found;
}

gchar *
gst_cl_worker_helper_missing (void)
{
  gchar *path = helper_path (), **places, *list, *why;

  if (path || g_getenv (GST_CL_WORKER_HELPER_ENV)) {
    g_free (path);
    return NULL;
  }
  places = helper_places ();
  list = g_strjoinv (", ", places);
  why = g_strdup_printf ("The helper program %s was not found (looked for %s; %s not set). "
      "Builds and tuning run in this process instead, where a compiler holds up the frames of "
      "every stream on a CPU device (PoCL) for up to seconds. Install clconvolve-warmup next "
      "to the plugin or set %s to its path.", CLCONVOLVE_HELPER_NAME, list,
      GST_CL_WORKER_HELPER_ENV, GST_CL_WORKER_HELPER_ENV);
  g_free (list);
  g_strfreev (places);
  return why;
}

#define REQUEST_FIELDS 22
#define VARIANT_FIELDS 5
#define FACTS_FIELDS 6

static gchar *
join_ints (const gint64 * v, gint n)
{
  GString *s = g_string_new (NULL);

  for (gint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i ? "," : "", v[i]);
  return g_string_free (s, FALSE);
}

static gboolean
split_ints (const gchar * text, gint64 * v, gint n)
{
  gchar **parts = g_strsplit (text, ",", -1);
  gboolean ok = g_strv_length (parts) == (guint) n;

  for (gint i = 0; ok && i < n; i++)
    ok = g_ascii_string_to_signed (parts[i], 10, G_MININT32, G_MAXINT64, &v[i], NULL);
  g_strfreev (parts);
  return ok;
}

/* The job's integers, in a fixed order: a field added to a struct must be added here. */
static void
request_ints (const ClKernelRequest * r, gint64 * v)
{
  const gint64 f[REQUEST_FIELDS] = { r->method, r->size, r->channels, r->depth, r->skipmask,
    r->only, r->border, r->block, r->rank, r->width, r->height, r->passmask, r->autotune,
    r->split, r->discrete, r->bits, r->shift, r->swap, r->taps, r->combine, r->box,
    r->unit
  };

  memcpy (v, f, sizeof (f));
}

gchar **
gst_cl_job_spec_to_args (GstClContext * ctx, const ClJobSpec * spec)
{
  const ClVariant *v = &spec->variant;
  const ClDeviceFacts *d = &spec->facts;
  gint64 r[REQUEST_FIELDS];
  const gint64 vv[VARIANT_FIELDS] = { v->method, v->bx, v->by, v->split, v->generic };
  const gint64 dd[FACTS_FIELDS] = { d->local_mem_dedicated, d->local_mem_size,
    d->max_work_group_size, d->native_float_width, d->tensor_mma, d->gbox_rows
  };
  GPtrArray *a = g_ptr_array_new ();

  request_ints (&spec->request, r);
  g_ptr_array_add (a, g_strdup (spec->kind == CL_JOB_TUNE ? "tune" : "build"));
  g_ptr_array_add (a, g_strdup (ctx->index_spec));
  g_ptr_array_add (a, g_strdup (ctx->identity));
  g_ptr_array_add (a, g_strdup (spec->digest));
  g_ptr_array_add (a, g_strdup (spec->tune_dir ? spec->tune_dir : ""));
  g_ptr_array_add (a, g_strdup (spec->streaming ? "streaming" : "alone"));
  g_ptr_array_add (a, join_ints (r, REQUEST_FIELDS));
  g_ptr_array_add (a, join_ints (vv, VARIANT_FIELDS));
  g_ptr_array_add (a, join_ints (dd, FACTS_FIELDS));
  g_ptr_array_add (a, NULL);
  return (gchar **) g_ptr_array_free (a, FALSE);
}

gboolean
gst_cl_job_spec_from_args (gchar ** args, ClJobSpec * spec, gchar ** device, gchar ** identity,
    gchar ** why)
{
  gint64 r[REQUEST_FIELDS], v[VARIANT_FIELDS], d[FACTS_FIELDS];

  memset (spec, 0, sizeof (*spec));
  if (g_strv_length (args) != 9 || (strcmp (args[0], "tune") && strcmp (args[0], "build")) ||
      !split_ints (args[6], r, REQUEST_FIELDS) || !split_ints (args[7], v, VARIANT_FIELDS) ||
      !split_ints (args[8], d, FACTS_FIELDS)) {
    *why = g_strdup ("expected: tune|build P:D IDENTITY DIGEST TUNE_DIR streaming|alone "
        "REQUEST VARIANT FACTS (as clconvolve's worker gives them)");
    return FALSE;
  }
  spec->kind = strcmp (args[0], "tune") ? CL_JOB_BUILD : CL_JOB_TUNE;
  *device = args[1];
  *identity = args[2];
  spec->digest = args[3];
  spec->tune_dir = *args[4] ? args[4] : NULL;
  spec->streaming = !strcmp (args[5], "streaming");
  spec->request = (ClKernelRequest) { r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8],
    r[9], r[10], r[11], r[12], r[13], r[14], r[15], r[16], r[17], r[18], r[19], r[20], r[21]
  };
  spec->variant = (ClVariant) { v[0], v[1], v[2], v[3], v[4] };
  spec->facts = (ClDeviceFacts) { d[0], d[1], d[2], d[3], d[4], d[5] };
  return TRUE;
}

#ifdef G_OS_UNIX
/* The helper process, started at the first job that needs it and kept while jobs come (its
 * device context and compiler state are then made once): clconvolve-warmup --serve, reading
 * one job per line (the --job arguments, tab-separated) and answering one line each. Its
 * stdin and stdout are one end of a socket pair: sends never raise SIGPIPE in the application
 * when it has died. Called from the worker thread only. */
static void
helper_stop (ClWorker * w)
{
  if (!w->helper)
    return;
  /* end of input: it exits; one stuck in a job is killed */
  g_socket_close (w->helper_sock, NULL);
  g_clear_object (&w->helper_sock);
  g_subprocess_force_exit (w->helper);
  g_subprocess_wait (w->helper, NULL, NULL);
  /* its stderr is closed now: the log thread ends */
  g_clear_pointer (&w->helper_log, g_thread_join);
  g_clear_object (&w->helper);
  g_clear_pointer (&w->helper_path, g_free);
  g_string_truncate (w->helper_buf, 0);
}

/* The helper's stderr, a line at a time, into the debug log (category clworker): what its
 * compiler says ("1 warning generated.") stays out of the application's terminal, and a shell's
 * $(...) around the application does not wait for the helper. Ends at the pipe's end. */
static gpointer
helper_log_main (gpointer data)
{
  GDataInputStream *in = g_data_input_stream_new (G_INPUT_STREAM (data));
  gchar *line;

  while ((line = g_data_input_stream_read_line (in, NULL, NULL, NULL))) {
    GST_DEBUG ("helper: %s", line);
    g_free (line);
  }
  g_object_unref (in);
  g_object_unref (data);
  return NULL;
}

static gboolean
helper_start (ClWorker * w, GstClContext * ctx, const gchar * path)
{
  GSubprocessLauncher *launcher;
  GError *error = NULL;
  gint64 start = g_get_monotonic_time ();
  int sv[2];

  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    GST_WARNING_OBJECT (ctx, "no socket pair for the helper: %s", g_strerror (errno));
    return FALSE;
  }
  /* the child inherits this thread's lower priority; no debug log from it (GST_DEBUG_FILE
   * would be truncated); its stderr comes to our debug log */
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_unsetenv (launcher, "GST_DEBUG_FILE");
  g_subprocess_launcher_unsetenv (launcher, "GST_DEBUG");
  /* it ends with this thread (the worker's) however the application ends */
  {
    gchar *pid = g_strdup_printf ("%ld", (long) getpid ());

    g_subprocess_launcher_setenv (launcher, GST_CL_WORKER_HELPER_PARENT_ENV, pid, TRUE);
    g_free (pid);
  }
  g_subprocess_launcher_take_stdin_fd (launcher, sv[1]);
  g_subprocess_launcher_take_stdout_fd (launcher, dup (sv[1]));
  w->helper = g_subprocess_launcher_spawn (launcher, &error, path, "--serve", NULL);
  g_object_unref (launcher);
  if (w->helper)
    w->helper_sock = g_socket_new_from_fd (sv[0], &error);
  else
    close (sv[0]);
  if (!w->helper_sock) {
    GST_WARNING_OBJECT (ctx, "could not start the helper %s: %s", path, error->message);
    g_clear_error (&error);
    if (w->helper) {
      g_subprocess_force_exit (w->helper);
      g_subprocess_wait (w->helper, NULL, NULL);
      g_clear_object (&w->helper);
    }
    return FALSE;
  }
  w->helper_path = g_strdup (path);
  w->helper_log = g_thread_new ("clconvolve-helper-log", helper_log_main,
      g_object_ref (g_subprocess_get_stderr_pipe (w->helper)));
  GST_INFO_OBJECT (ctx, "started the helper %s (pid %s) in %.1f ms", path,
      g_subprocess_get_identifier (w->helper), (g_get_monotonic_time () - start) / 1000.0);
  return TRUE;
}

/* The variable name in whole seconds where it is a positive number, else fallback. */
static gint64
env_seconds (const gchar * name, gint64 fallback)
{
  const gchar *env = g_getenv (name);
  gchar *end = NULL;
  gint64 s = env ? g_ascii_strtoll (env, &end, 10) : 0;

  return env && end != env && *end == '\0' && s > 0 ? s : fallback;
}

static gint64
helper_timeout_s (void)
{
  return env_seconds (GST_CL_WORKER_HELPER_TIMEOUT_ENV, GST_CL_WORKER_HELPER_TIMEOUT_S);
}

/* Sends line to the helper and reads its answer (free it); NULL on an error, when the worker
 * stops or the job is dropped (w->cancel), or when the helper does not answer within its
 * deadline or its answer passes GST_CL_WORKER_HELPER_ANSWER_MAX bytes (*why says which). */
static gchar *
helper_ask (ClWorker * w, const gchar * line, const gchar ** why)
{
  gsize len = strlen (line), sent = 0;
  gchar chunk[512], *nl;
  gint64 deadline = g_get_monotonic_time () + helper_timeout_s () * G_USEC_PER_SEC;

  *why = "no answer";
  while (sent < len) {
    gssize n = g_socket_send (w->helper_sock, line + sent, len - sent, w->cancel, NULL);

    if (n <= 0)
      return NULL;
    sent += n;
  }
  while (!(nl = strchr (w->helper_buf->str, '\n'))) {
    gint64 left = deadline - g_get_monotonic_time ();
    gssize n;

    if (w->helper_buf->len > GST_CL_WORKER_HELPER_ANSWER_MAX) {
      *why = "an answer longer than " G_STRINGIFY (GST_CL_WORKER_HELPER_ANSWER_MAX) " bytes";
      return NULL;
    }
    if (left <= 0 || !g_socket_condition_timed_wait (w->helper_sock, G_IO_IN, left, w->cancel,
            NULL)) {
      if (left <= 0 || !g_cancellable_is_cancelled (w->cancel))
        *why = "no answer within the deadline, " GST_CL_WORKER_HELPER_TIMEOUT_ENV;
      return NULL;
    }
    n = g_socket_receive (w->helper_sock, chunk, sizeof (chunk), w->cancel, NULL);
    if (n <= 0)
      return NULL;
    g_string_append_len (w->helper_buf, chunk, n);
  }
  {
    gchar *answer = g_strndup (w->helper_buf->str, nl - w->helper_buf->str);

    g_string_erase (w->helper_buf, 0, nl - w->helper_buf->str + 1);
    return answer;
  }
}

/* The job run first in the helper process (see gstclworker.h): TRUE when it succeeded, with
 * *v and *how its choice for a tuning job; FALSE (the worker then does it all itself) when it
 * could not run, failed or was stopped. */
static gboolean
run_helper (ClWorker * w, ClJob * job, const gchar * path, ClVariant * v, ClTuneOutcome * how)
{
  gchar **args = gst_cl_job_spec_to_args (job->ctx, &job->spec);
  gchar *line = NULL, *answer = NULL;
  const gchar *why = "no answer";
  gint64 f[7];
  gboolean ok = FALSE;

  for (gint i = 0; args[i]; i++)
    if (strpbrk (args[i], "\t\n")) {
      GST_DEBUG_OBJECT (job->ctx, "a job argument holds a tab or a newline: not for the helper");
      g_strfreev (args);
      return FALSE;
    }
  {
    gchar *joined = g_strjoinv ("\t", args);

    line = g_strconcat (joined, "\n", NULL);
    g_free (joined);
  }
  if (w->helper && g_strcmp0 (w->helper_path, path))
    helper_stop (w);
  if (w->helper || helper_start (w, job->ctx, path))
    answer = helper_ask (w, line, &why);
  if (answer && g_str_has_prefix (answer, "clconvolve-job ") &&
      split_ints (answer + 15, f, 7) && f[0] == CL_SUCCESS) {
    *v = (ClVariant) { f[1], f[2], f[3], f[4], f[5] };
    *how = f[6];
    ok = TRUE;
  } else if (!g_cancellable_is_cancelled (w->cancel)) {
    GST_WARNING_OBJECT (job->ctx, "the helper %s did not do the job (%s); doing it in this "
        "process", path, answer ? answer : why);
    /* a helper that did not answer (in time, or in few enough bytes) is ended, and started
     * again for the next job */
    if (!answer)
      helper_stop (w);
  } else {
    /* stopped mid-job: its answer would come as the next job's */
    helper_stop (w);
  }
  g_free (answer);
  g_free (line);
  g_strfreev (args);
  return ok;
}
#else
static gboolean
run_helper (ClWorker * w, ClJob * job, const gchar * path, ClVariant * v, ClTuneOutcome * how)
{
  return FALSE;
}

static void
helper_stop (ClWorker * w)
{
}
#endif

/* Builds (or tunes, then builds) the job's variant and runs it once; fills job->result. The
 * helper (if not NULL) does it first, so that what is left here only reads the caches it
 * filled. */
static void
job_run_with (ClWorker * w, ClJob * job, const gchar * helper)
{
  ClJobSpec *spec = &job->spec;
  ClKernelRequest *r = &spec->request;
  ClJobResult *res = &job->result;
  ClTuner t;
  ClBuilt b;
  ClVariant v = spec->variant;
  gboolean helped = FALSE;
  gchar *log = NULL;

  res->what = "the worker's queue";
  res->err = worker_resources (w, job->ctx);
  if (res->err == CL_SUCCESS)
    res->err = worker_taps (w, r);
  if (res->err != CL_SUCCESS)
    return;
  t = (ClTuner) { job->ctx, &spec->facts, w->queue_cl, spec->source, spec->digest,
    spec->tune_dir, { w->coef, w->sep, MAX (r->rank, 1), 0.0f, r->size, r->border, w->taps,
      r->taps },
    GST_OBJECT (job->ctx), spec->streaming
  };
  if (helper) {
    gint64 start = g_get_monotonic_time ();

    helped = res->helped = run_helper (w, job, helper, &v, &res->how);
    GST_DEBUG_OBJECT (job->ctx, "helper: %s after %.1f ms", helped ? "done" : "failed",
        (g_get_monotonic_time () - start) / 1000.0);
    if (helped && spec->kind == CL_JOB_TUNE)
      gst_cl_tuner_keep (&t, r, &v);
    if (!helped)
      v = spec->variant;
    if (!helped && g_cancellable_is_cancelled (w->cancel)) {
      res->err = CL_INVALID_OPERATION;
      res->what = "dropped";
      return;
    }
  }
  if (spec->kind == CL_JOB_TUNE && !helped)
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

/* The helper (when there is one, for the embedded sources) for streaming elements. */
static void
job_run_held (ClWorker * w, ClJob * job, gboolean may_help)
{
  gchar *helper = may_help && job->spec.streaming &&
      !strcmp (job->spec.digest, gst_cl_embedded_digest ()) ? helper_path () : NULL;

  job_run_with (w, job, helper);
  g_free (helper);
}

/* The same, writing the programs it builds to the disk cache only once it has run them (an
 * element may load them from there meanwhile, and would then generate their code itself). */
static void
job_run (ClWorker * w, ClJob * job, gboolean may_help)
{
  gst_cl_context_hold_stores ();
  job_run_held (w, job, may_help);
  gst_cl_context_release_stores ();
}

static void
worker_resources_free (ClWorker * w)
{
  g_clear_pointer (&w->taps, clReleaseMemObject);
  g_clear_pointer (&w->sep, clReleaseMemObject);
  g_clear_pointer (&w->coef, clReleaseMemObject);
  g_clear_pointer (&w->queue_cl, clReleaseCommandQueue);
}

void
gst_cl_job_run_here (GstClContext * ctx, const ClJobSpec * spec, ClJobResult * result,
    gchar ** log)
{
  ClWorker w;
  ClJob job;

  memset (&w, 0, sizeof (w));
  memset (&job, 0, sizeof (job));
  job.ctx = ctx;
  job.spec = *spec;
  job_run (&w, &job, FALSE);
  worker_resources_free (&w);
  *result = job.result;
  *log = job.log;
  result->log = NULL;
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

/* Gives the heap freed since the last trim back to the system: a build frees most of what
 * LLVM and PoCL allocate for it, and glibc keeps it in the arenas of the threads that freed it.
 * Called by the worker without its lock, at most every TRIM_INTERVAL_US (it walks every
 * arena, locking each in turn). */
static void
worker_trim (GstClContext * ctx)
{
#ifdef HAVE_MALLOC_TRIM
  gint64 start = g_get_monotonic_time ();
  gint freed = malloc_trim (0);

  GST_DEBUG_OBJECT (ctx, "malloc_trim: %s in %.1f ms", freed ? "memory released" : "nothing",
      (g_get_monotonic_time () - start) / 1000.0);
#endif
}

/* ctx's worker with its lock taken, or NULL (for the context's hooks, called with no lock
 * held). */
static ClWorker *
worker_locked (GstClContext * ctx)
{
  ClWorker *w;

  GST_OBJECT_LOCK (ctx);
  w = ctx->worker;
  GST_OBJECT_UNLOCK (ctx);
  if (w)
    g_mutex_lock (&w->lock);
  return w;
}

/* The next job to run, taken off the queue (under w->lock; NULL with none): the most urgent,
 * except that the oldest speculative job, once queued SPECULATIVE_AGE_US ago, goes before a
 * needed specialised build, never twice in a row (a needed generic program, which the stream
 * runs until then, goes first). A stream whose settings change faster than its builds end
 * always has a needed job queued; without this the generic programs prepared for its later
 * renegotiations would never be built, and that renegotiation's frame would wait for a compile
 * on the streaming thread (docs/design.md, the worker). */
static ClJob *
job_next (ClWorker * w)
{
  ClJob *head = g_queue_peek_head (&w->queue);
  gboolean aged = FALSE;

  if (head && head->priority == JOB_NEEDED && !head->spec.variant.generic && !w->aged_last) {
    gint64 now = g_get_monotonic_time ();

    for (GList * l = w->queue.head; l; l = l->next) {
      ClJob *job = l->data;

      if (job->priority != JOB_SPECULATIVE)
        continue;
      /* the first one is the oldest (first in, first out within a priority) */
      if (now - job->queued_at >= SPECULATIVE_AGE_US) {
        g_queue_delete_link (&w->queue, l);
        head = job;
        aged = TRUE;
      }
      break;
    }
  }
  w->aged_last = aged;
  return aged ? head : g_queue_pop_head (&w->queue);
}

/* Takes a queued job out, ended unrun, and drops the queue's reference (under w->lock). */
static void
job_dequeue (ClWorker * w, ClJob * job)
{
  g_queue_remove (&w->queue, job);
  g_hash_table_remove (w->jobs, job->key);
  job->state = JOB_ENDED;
  job->result.err = CL_INVALID_OPERATION;
  job->result.what = "dropped";
  job_unref (job);
}

/* ctx->unused: the generic programs queued for later changes of elements that stopped are
 * not built, and an idle helper is ended sooner (the worker looks again). */
static void
worker_unused (GstClContext * ctx)
{
  ClWorker *w = worker_locked (ctx);

  if (!w)
    return;
  /* (unless an element joined since) */
  for (GList * l = gst_cl_context_in_use (ctx) ? NULL : w->queue.head, *next; l; l = next) {
    next = l->next;
    if (((ClJob *) l->data)->priority == JOB_SPECULATIVE)
      job_dequeue (w, l->data);
  }
  g_cond_broadcast (&w->changed);
  g_mutex_unlock (&w->lock);
}

#ifdef HAVE_MALLOC_TRIM
/* ctx->programs_released: the worker trims soon */
static void
worker_programs_released (GstClContext * ctx)
{
  ClWorker *w = worker_locked (ctx);

  if (!w)
    return;
  if (!w->trim_wanted) {
    w->trim_wanted = TRUE;
    g_cond_broadcast (&w->changed);
  }
  g_mutex_unlock (&w->lock);
}
#endif

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
    ClJob *job;
    gint64 start;
    gchar *what;

    if (w->trim_wanted && g_get_monotonic_time () >= w->last_trim + TRIM_INTERVAL_US) {
      /* between jobs, never in a stream's way */
      w->trim_wanted = FALSE;
      w->last_trim = g_get_monotonic_time ();
      g_mutex_unlock (&w->lock);
      worker_trim (ctx);
      g_mutex_lock (&w->lock);
      continue;
    }
    job = job_next (w);
    if (!job) {
      /* idle: a wait for a job, the trim's time or the end of the helper, idle long enough
       * (it holds a device context; sooner when no element uses the context) */
      gint64 now = g_get_monotonic_time ();
      gint64 wake = w->trim_wanted ? w->last_trim + TRIM_INTERVAL_US : G_MAXINT64;

      if (w->helper) {
        gint64 idle_s = gst_cl_context_in_use (ctx) ?
            env_seconds (GST_CL_WORKER_HELPER_IDLE_ENV, GST_CL_WORKER_HELPER_IDLE_S) :
            GST_CL_WORKER_HELPER_UNUSED_S;
        gint64 end = w->idle_since + idle_s * G_TIME_SPAN_SECOND;

        if (now >= end) {
          g_mutex_unlock (&w->lock);
          helper_stop (w);
          g_mutex_lock (&w->lock);
          continue;
        }
        wake = MIN (wake, end);
      }
      if (wake == G_MAXINT64)
        g_cond_wait (&w->changed, &w->lock);
      else
        g_cond_wait_until (&w->changed, &w->lock, wake);
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
      job_run (w, job, TRUE);
      g_mutex_lock (&w->lock);
      job->result.queued_us = start - job->queued_at;
      job->result.run_us = g_get_monotonic_time () - start;
      GST_INFO_OBJECT (ctx, "%s job ended after %.1f ms: %s (%s)", gst_cl_job_kind_name (job),
          job->result.run_us / 1000.0, what, gst_cl_error_to_string (job->result.err));
      g_free (what);
#ifdef HAVE_MALLOC_TRIM
      w->trim_wanted = TRUE;
#endif
    }
    job->state = JOB_ENDED;
    w->idle_since = g_get_monotonic_time ();
    if (!w->quit)
      g_cancellable_reset (w->cancel);
    g_hash_table_remove (w->jobs, job->key);
    g_cond_broadcast (&w->changed);
    job_unref (job);
  }
  g_mutex_unlock (&w->lock);
  helper_stop (w);
  return NULL;
}

void
gst_cl_worker_init_debug (void)
{
  static gsize debug_done = 0;

  if (g_once_init_enter (&debug_done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_worker_debug, "clworker", 0,
        "clconvolve's build and tuning worker");
    g_once_init_leave (&debug_done, 1);
  }
}

static ClWorker *
worker_get (GstClContext * ctx)
{
  ClWorker *w;

  gst_cl_worker_init_debug ();
  GST_OBJECT_LOCK (ctx);
  if (!ctx->worker) {
    const gchar *delay = g_getenv (GST_CL_WORKER_DELAY_ENV);

    w = g_new0 (ClWorker, 1);
    g_mutex_init (&w->lock);
    g_cond_init (&w->changed);
    g_queue_init (&w->queue);
    w->jobs = g_hash_table_new (g_str_hash, g_str_equal);
    w->cancel = g_cancellable_new ();
    w->helper_buf = g_string_new (NULL);
    w->delay_us = delay ? (gint64) MAX (atoi (delay), 0) * 1000 : 0;
    ctx->worker = w;
    ctx->worker_free = gst_cl_worker_free;
    ctx->unused = worker_unused;
#ifdef HAVE_MALLOC_TRIM
    ctx->programs_released = worker_programs_released;
#endif
    w->thread = g_thread_new ("clconvolve-worker", worker_main, ctx);
  }
  w = ctx->worker;
  GST_OBJECT_UNLOCK (ctx);
  return w;
}

static gint
job_order (gconstpointer a, gconstpointer b, gpointer unused)
{
  const ClJob *x = a, *y = b;

  if (x->priority != y->priority)
    return x->priority < y->priority ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The job of spec, queued or joined, with one more holder that wants it (under w->lock); a
 * queued job asked for with a more urgent priority moves up. */
static ClJob *
job_join (ClWorker * w, GstClContext * ctx, const ClJobSpec * spec, JobPriority priority)
{
  gchar *key = job_key (spec);
  ClJob *job = g_hash_table_lookup (w->jobs, key);

  if (job) {
    g_free (key);
    if (priority < job->priority && job->state == JOB_QUEUED) {
      g_queue_remove (&w->queue, job);
      job->priority = priority;
      g_queue_insert_sorted (&w->queue, job, job_order, NULL);
    }
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
    job->priority = priority;
    job->seq = w->next_seq++;
    g_hash_table_insert (w->jobs, job->key, job);
    g_queue_insert_sorted (&w->queue, job, job_order, NULL);
    g_cond_broadcast (&w->changed);
  }
  job->wanted++;
  return job;
}

ClJob *
gst_cl_worker_submit (GstClContext * ctx, const ClJobSpec * spec)
{
  ClWorker *w = worker_get (ctx);
  ClJob *job;

  g_mutex_lock (&w->lock);
  job = job_join (w, ctx, spec, spec->kind == CL_JOB_TUNE ? JOB_TUNING : JOB_NEEDED);
  g_atomic_int_inc (&job->refs);
  g_mutex_unlock (&w->lock);
  return job;
}

void
gst_cl_worker_prepare (GstClContext * ctx, const ClJobSpec * spec)
{
  ClWorker *w = worker_get (ctx);

  g_mutex_lock (&w->lock);
  /* wanted for good: never dropped, no reference handed out */
  job_join (w, ctx, spec, JOB_SPECULATIVE);
  g_mutex_unlock (&w->lock);
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
  gst_cl_job_wait_until (job, G_MAXINT64);
}

gboolean
gst_cl_job_wait_until (ClJob * job, gint64 end_time)
{
  ClWorker *w = job->ctx->worker;
  gboolean ended;

  g_mutex_lock (&w->lock);
  while (job->state != JOB_ENDED && g_cond_wait_until (&w->changed, &w->lock, end_time));
  ended = job->state == JOB_ENDED;
  g_mutex_unlock (&w->lock);
  return ended;
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
    job_dequeue (w, job);
  } else if (job->wanted == 0 && job->state == JOB_RUNNING && job->spec.kind == CL_JOB_TUNE) {
    /* a tuning job takes seconds on a CPU and holds up the jobs of the settings that follow:
     * the helper doing it is ended (nothing kept of it); a build finishes, for later */
    GST_DEBUG_OBJECT (job->ctx, "stopping the tuning job nobody wants any more");
    g_cancellable_cancel (w->cancel);
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
  g_cancellable_cancel (w->cancel);
  g_thread_join (w->thread);
  worker_resources_free (w);
  g_object_unref (w->cancel);
  g_string_free (w->helper_buf, TRUE);
  g_hash_table_destroy (w->jobs);
  g_cond_clear (&w->changed);
  g_mutex_clear (&w->lock);
  GST_OBJECT_LOCK (ctx);
  ctx->programs_released = NULL;
  ctx->worker = NULL;
  GST_OBJECT_UNLOCK (ctx);
  g_free (w);
}
