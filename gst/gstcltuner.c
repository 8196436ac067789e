/* clconvolve: method=auto's measured choice of kernel variant
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

#include "gstcltuner.h"
#include "gstclprogramcache.h"

#include <stdio.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_tuner_debug);
#define GST_CAT_DEFAULT gst_cl_tuner_debug

#define TUNE_ENV "GST_CLCONVOLVE_TUNE_DIR"

void
gst_cl_tuner_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cl_tuner_debug, "cltuner", 0,
        "clconvolve's auto-tuning (method=auto)");
    g_once_init_leave (&done, 1);
  }
}

/* The disk key of a request's choice: the device identity, what the kernels depend on and the
 * kernel sources (their digest: a new source tunes again), and whether the split planes are
 * offered (which GST_CLCONVOLVE_SPLIT may change). The number after "tune" changes with the
 * candidate lists and the way they are timed, so that choices made otherwise are timed again
 * (2: vector 4x3 on AVX-512 CPUs; 3: the split planes; 4: candidates timed in turns;
 * 5: method=sparse); " box" marks the requests that also time convolve_box, " unit" those
 * whose CPU separable kernel sums in fixed point, " tensor" devices that time convolve_tsep
 * (so that runs without it keep choices of their own). The border is
 * "-1" on CPUs, where one program serves the four rules (it is compiled in on GPUs), so a
 * border change there keeps the choice. */
static gchar *
tune_key (const ClTuner * t, const ClKernelRequest * r)
{
  /* one matrix keeps the keys it had */
  static const gchar *const combine_key[] = { "", " combine 1", " combine 2", " combine 3" };
  gchar *what = g_strdup_printf ("tune 5: size %d channels %d depth %d skipmask %u only %d "
      "border %d rank %d block %d view %dx%d passmask %u split %d discrete %d taps %d%s%s%s%s%s",
      r->size, r->channels, r->depth, r->skipmask, r->only,
      t->facts->local_mem_dedicated ? r->border : -1, r->rank,
      cl_variant_direct_block (t->facts, r), r->width, r->height, r->passmask,
      cl_variant_split_offered (t->facts, r), r->discrete, r->taps, r->swap ? " swap" : "",
      combine_key[CLAMP (r->combine, 0, 3)], r->box ? " box" : "", r->unit ? " unit" : "",
      t->facts->tensor_mma ? " tensor" : "");
  gchar *key = gst_cl_program_cache_key (t->ctx->identity, what, t->digest);

  g_free (what);
  return key;
}

#define TUNE_MAGIC "clconvolve-tune 2"

/* Where choices are kept: $GST_CLCONVOLVE_TUNE_DIR (NULL when empty: memory only), else
 * <XDG cache dir>/clconvolve/tuning, files in the program cache's format (checksummed). */
gchar *
gst_cl_tuner_dir (void)
{
  const gchar *env = g_getenv (TUNE_ENV);

  if (env)
    return *env ? g_strdup (env) : NULL;
  return g_build_filename (g_get_user_cache_dir (), "clconvolve", "tuning", NULL);
}

/* A stored choice, accepted only when it is one of this request's candidates (a damaged or
 * foreign file can never select a kernel that was not going to be tried). */
static gboolean
tune_load (const ClTuner * t, const gchar * key, const ClVariant * cand, gint n, ClVariant * out)
{
  const gchar *why = NULL;
  gsize size = 0;
  guint8 *data = t->dir ?
      gst_cl_program_cache_load (t->dir, key, &size, &why) : NULL;
  gchar *text;
  ClVariant v = { 0 };
  gint end = 0;
  gboolean ok = FALSE;

  if (!data) {
    if (t->dir)
      GST_DEBUG_OBJECT (t->owner, "tuning cache %s/%s: %s", t->dir, key, why);
    return FALSE;
  }
  text = g_strndup ((const gchar *) data, size);
  /* the whole payload, nothing after the line */
  if (sscanf (text, TUNE_MAGIC " method %d bx %d by %d split %d%n", &v.method, &v.bx, &v.by,
          &v.split, &end) == 4
      && (text[end] == '\0' || !strcmp (text + end, "\n")))
    for (gint i = 0; i < n && !ok; i++)
      ok = !memcmp (&v, &cand[i], sizeof (v));
  if (ok)
    *out = v;
  else
    GST_WARNING_OBJECT (t->owner, "ignoring the tuning cache file of %s in %s: not a choice this "
        "element makes", key, t->dir);
  g_free (text);
  g_free (data);
  return ok;
}

static void
tune_store (const ClTuner * t, const gchar * key, const ClVariant * v)
{
  gchar *text;
  GError *error = NULL;

  if (!t->dir)
    return;
  text = g_strdup_printf (TUNE_MAGIC " method %d bx %d by %d split %d\n", v->method, v->bx,
      v->by, v->split);
  if (!gst_cl_program_cache_store (t->dir, key, (const guint8 *) text, strlen (text),
          &error)) {
    GST_WARNING_OBJECT (t->owner, "could not write the tuning cache in %s: %s", t->dir,
        error->message);
    g_clear_error (&error);
  }
  g_free (text);
}

#define TUNE_RUNS 5
/* multiply-adds (per sample) a CPU's timed band aims at: long enough to time, short enough not
 * to stall (docs/kernels.md, Timing) */
#define TUNE_WORK (1 << 23)
#define TUNE_MARGIN 0.05

/* One timed run of a built candidate on rows from y0 (its row pass first where it has one):
 * the host clock from the first enqueue to the end of clFinish, kept in *t_min if shorter (no
 * timing when t_min is NULL). */
static cl_int
tune_run (const ClTuner * t, const ClBuilt * b, const ClView * v, gint y0, gint rows,
    gint64 * t_min)
{
  gint64 start = g_get_monotonic_time ();
  cl_int e = CL_SUCCESS;

  if (b->rows)
    e = gst_cl_built_enqueue_rows (t->queue, b, v, y0, rows, 0, NULL, NULL);
  if (e == CL_SUCCESS)
    e = gst_cl_built_enqueue (t->queue, b, v, y0, rows, 0, NULL, NULL);
  if (e == CL_SUCCESS)
    e = clFinish (t->queue);
  if (e == CL_SUCCESS && t_min)
    *t_min = MIN (*t_min, g_get_monotonic_time () - start);
  /* a bounded share of the device: as long idle as it was busy */
  if (t->pace)
    g_usleep (g_get_monotonic_time () - start);
  return e;
}

/* Scratch buffers to run kernels of a request on: a band of rows in the middle of an image of
 * the request's view width (left and right borders included, top and bottom not, as in a
 * frame), the whole view height on a device with on-chip local memory and fewer rows on a
 * CPU, and the row-pass buffer when one of the n variants has two passes. */
typedef struct
{
  cl_mem in, out, tmp;
  ClView v;
  ClPlane ps, pd;
  gint radius, rows;
} Scratch;

static void
scratch_free (Scratch * s)
{
  g_clear_pointer (&s->tmp, clReleaseMemObject);
  g_clear_pointer (&s->out, clReleaseMemObject);
  g_clear_pointer (&s->in, clReleaseMemObject);
}

static cl_int
scratch_make (const ClTuner * t, const ClKernelRequest * r, const ClVariant * cand, gint n,
    Scratch * s)
{
  gint pix = r->channels * r->depth / 8, pitch = GST_ROUND_UP_64 (r->width * pix), height;
  gsize values = cl_variant_sum_values (r->channels, r->only), tmp_bytes;
  gboolean two_pass_tried = FALSE;
  cl_int err = CL_SUCCESS;

  memset (s, 0, sizeof (*s));
  s->radius = r->size / 2;
  s->rows = r->height;
  if (!t->ctx->local_mem_dedicated) {
    gint64 per_row = (gint64) r->width * r->channels * r->size * r->size;
    gint tall = 12;

    /* at least two strips of the tallest one-pass candidate, whose first KSIZE - 1 rows
     * only fill its ring: fewer rows would time mostly that */
    for (gint c = 0; c < n; c++)
      if (cand[c].method == GST_CL_CONVOLVE_METHOD_SEPARABLE)
        tall = MAX (tall, 2 * cand[c].by);
    s->rows = (gint) CLAMP (TUNE_WORK / per_row, tall, 256);
    s->rows = MIN (r->height, (s->rows + 11) / 12 * 12);        /* whole work-items of every MY */
  }
  height = s->rows + 2 * s->radius;
  tmp_bytes = sizeof (gfloat) * values * r->width * height * MAX (r->rank, 1);
  for (gint c = 0; c < n; c++)
    two_pass_tried |= cand[c].method == GST_CL_CONVOLVE_METHOD_SEPARABLE && !cand[c].bx;
  s->in = clCreateBuffer (t->ctx->context, CL_MEM_READ_WRITE, (gsize) pitch * height, NULL,
      &err);
  if (s->in)
    s->out = clCreateBuffer (t->ctx->context, CL_MEM_READ_WRITE, (gsize) pitch * height, NULL,
        &err);
  if (s->out && two_pass_tried)
    s->tmp = clCreateBuffer (t->ctx->context, CL_MEM_READ_WRITE, tmp_bytes, NULL, &err);
  if (s->out && (s->tmp || !two_pass_tried)) {
    const guint8 grey = 0x80;
    const gfloat zero = 0.0f;

    /* defined data: no denormal floats in the row pass's buffer to slow one variant down */
    err = clEnqueueFillBuffer (t->queue, s->in, &grey, 1, 0, (gsize) pitch * height, 0, NULL,
        NULL);
    if (err == CL_SUCCESS && s->tmp)
      err = clEnqueueFillBuffer (t->queue, s->tmp, &zero, sizeof (zero), 0, tmp_bytes, 0,
          NULL, NULL);
  }
  /* the view's passmask: tiled leaves out the sums of a copied alpha */
  s->v = (ClView) { 0, r->width, height, r->width, 0, r->passmask, 0 };
  s->ps = (ClPlane) { s->in, 0, pitch, NULL };
  s->pd = (ClPlane) { s->out, 0, pitch, NULL };
  if (err != CL_SUCCESS)
    scratch_free (s);
  return err;
}

cl_int
gst_cl_tuner_warm (const ClTuner * t, const ClKernelRequest * r, const ClBuilt * b,
    const gchar ** what)
{
  Scratch s;
  cl_int err;

  *what = "scratch buffers";
  err = scratch_make (t, r, &b->variant, 1, &s);
  if (err == CL_SUCCESS)
    err = gst_cl_built_set_args (b, &s.v, &s.ps, &s.pd, s.tmp, &t->coefs, what);
  if (err == CL_SUCCESS) {
    *what = "warm-up run";
    err = tune_run (t, b, &s.v, s.radius, s.rows, NULL);
  }
  /* csep's entry for regions too (compiled at its first launch, here rather than at the
   * first regions frame): one block of the scratch view */
  if (err == CL_SUCCESS && b->table) {
    const gint block[CL_BLOCK_INTS] = { 0, 0, 0, s.ps.pitch, 0, s.pd.pitch, s.v.width, s.rows,
      s.v.span
    };
    cl_mem table = clCreateBuffer (t->ctx->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
        sizeof (block), (gpointer) block, &err);

    *what = "warm-up run (convolve_csep_table)";
    if (err == CL_SUCCESS)
      err = gst_cl_built_enqueue_blocks (t->queue, b, &s.v, &t->coefs, s.in, s.out, table, 0,
          1, NULL, what);
    if (err == CL_SUCCESS)
      err = clFinish (t->queue);
    g_clear_pointer (&table, clReleaseMemObject);
  }
  scratch_free (&s);
  return err;
}

/* Times each candidate on scratch buffers. Each variant runs once to warm up (PoCL compiles
 * per work-group size at the first launch), then the candidates run in turn, TUNE_RUNS rounds
 * (a slow spell of the machine, as on a shared virtual machine, then slows all of them and not
 * the one it falls on); each one's fastest run counts. *best becomes the fastest, except that
 * the fixed rules' choice (autotune=false) is kept unless another is more than TUNE_MARGIN
 * faster (timings of small frames are noise). Returns how many candidates were timed. */
static gint
time_candidates (const ClTuner * t, const ClKernelRequest * r, const ClVariant * cand, gint n,
    ClVariant * best_out)
{
  ClVariant best = cand[0], fixed = cl_variant_fixed (t->facts, r, NULL);
  gint64 best_t = G_MAXINT64, fixed_t = G_MAXINT64, t_min[CL_MAX_CANDIDATES];
  ClBuilt built[CL_MAX_CANDIDATES];
  cl_int e[CL_MAX_CANDIDATES];
  Scratch s;
  gint timed = 0;
  cl_int err;
  gchar text[64];
  GString *log = g_string_new (NULL);

  err = scratch_make (t, r, cand, n, &s);
  memset (built, 0, sizeof (built));
  for (gint c = 0; c < n; c++) {
    e[c] = CL_INVALID_OPERATION;
    t_min[c] = G_MAXINT64;
  }
  /* every candidate built and run once (warm-up), then TUNE_RUNS rounds that run each in turn,
   * so that a slow spell of the machine falls on all of them alike */
  for (gint c = 0; c < n && err == CL_SUCCESS; c++) {
    gchar *blog = NULL;
    const gchar *what;

    e[c] = gst_cl_built_make (t->ctx, t->facts, t->source, r, &cand[c], TRUE, &built[c], &blog,
        &what);
    if (e[c] == CL_SUCCESS)
      e[c] = gst_cl_built_set_args (&built[c], &s.v, &s.ps, &s.pd, s.tmp, &t->coefs, &what);
    if (e[c] == CL_SUCCESS) {
      what = "warm-up run";
      e[c] = tune_run (t, &built[c], &s.v, s.radius, s.rows, NULL);
    }
    if (e[c] != CL_SUCCESS)
      GST_WARNING_OBJECT (t->owner, "auto-tuning: %s failed (%s): %s", cl_variant_text (&cand[c],
              text, sizeof (text)), what, gst_cl_error_to_string (e[c]));
    g_free (blog);
  }
  for (gint i = 0; i < TUNE_RUNS && err == CL_SUCCESS; i++)
    for (gint c = 0; c < n; c++)
      if (e[c] == CL_SUCCESS && (e[c] = tune_run (t, &built[c], &s.v, s.radius, s.rows,
                  &t_min[c])) != CL_SUCCESS)
        GST_WARNING_OBJECT (t->owner, "auto-tuning: %s failed: %s", cl_variant_text (&cand[c],
                text, sizeof (text)), gst_cl_error_to_string (e[c]));
  for (gint c = 0; c < n && err == CL_SUCCESS; c++) {
    if (e[c] == CL_SUCCESS) {
      g_string_append_printf (log, " %s %" G_GINT64_FORMAT " us;",
          cl_variant_text (&cand[c], text, sizeof (text)), t_min[c]);
      timed++;
      if (t_min[c] < best_t) {
        best_t = t_min[c];
        best = cand[c];
      }
      if (!memcmp (&cand[c], &fixed, sizeof (fixed)))
        fixed_t = t_min[c];
    }
  }
  if (err != CL_SUCCESS)
    GST_WARNING_OBJECT (t->owner, "auto-tuning could not set up its buffers: %s",
        gst_cl_error_to_string (err));
  if (fixed_t != G_MAXINT64 && best_t >= fixed_t * (1.0 - TUNE_MARGIN))
    best = fixed;
  /* the candidates that lost are released now; the choice is kept for the element */
  for (gint c = 0; c < n; c++)
    gst_cl_built_clear (t->ctx, &built[c], memcmp (&cand[c], &best, sizeof (best)) != 0);
  GST_INFO_OBJECT (t->owner, "auto-tuned %dx%d, %d channels of %d bits, %dx%d rows %d..%d:%s "
      "chose %s", r->size, r->size, r->channels, r->depth, r->width, s.rows, s.radius,
      s.radius + s.rows - 1, log->str, cl_variant_text (&best, text, sizeof (text)));
  g_string_free (log, TRUE);
  scratch_free (&s);
  *best_out = best;
  return timed;
}

/* The choice kept for the request in the context, else on disk (then kept in the context
 * too), without timing anything. */
gboolean
gst_cl_tuner_lookup (const ClTuner * t, const ClKernelRequest * r, ClVariant * v,
    ClTuneOutcome * how)
{
  ClVariant cand[CL_MAX_CANDIDATES];
  gint n = cl_variant_candidates (t->facts, r, cand);
  gchar *key;
  GBytes *known;
  gboolean found = FALSE;

  *how = CL_TUNE_KNOWN;
  if (n == 1) {
    *v = cand[0];
    return TRUE;
  }
  key = tune_key (t, r);
  known = gst_cl_context_lookup_choice (t->ctx, key);
  if (known && g_bytes_get_size (known) == sizeof (*v)) {
    memcpy (v, g_bytes_get_data (known, NULL), sizeof (*v));
    found = TRUE;
  } else if (tune_load (t, key, cand, n, v)) {
    g_clear_pointer (&known, g_bytes_unref);
    known = g_bytes_new (v, sizeof (*v));
    gst_cl_context_keep_choice (t->ctx, key, known);
    *how = CL_TUNE_LOADED;
    found = TRUE;
  }
  g_clear_pointer (&known, g_bytes_unref);
  g_free (key);
  return found;
}

void
gst_cl_tuner_keep (const ClTuner * t, const ClKernelRequest * r, const ClVariant * v)
{
  gchar *key = tune_key (t, r);
  GBytes *b = g_bytes_new (v, sizeof (*v));

  gst_cl_context_keep_choice (t->ctx, key, b);
  g_bytes_unref (b);
  g_free (key);
}

/* method=auto with autotune: the choice the context holds for the request (any element's on
 * it), else the one stored on disk, else the fastest by timing (stored for the next process).
 * The context keeps only whole choices: one among fewer candidates is timed again. */
ClVariant
gst_cl_tuner_choose (const ClTuner * t, const ClKernelRequest * r, ClTuneOutcome * how)
{
  ClVariant cand[CL_MAX_CANDIDATES], best;
  gint n;
  gchar *key;
  GBytes *known;
  gint timed;

  if (gst_cl_tuner_lookup (t, r, &best, how))
    return best;
  n = cl_variant_candidates (t->facts, r, cand);
  key = tune_key (t, r);
  if ((timed = time_candidates (t, r, cand, n, &best)) > 0) {
    /* a choice among fewer candidates (one failed to build or run) is not stored */
    if (timed == n) {
      tune_store (t, key, &best);
      known = g_bytes_new (&best, sizeof (best));
      gst_cl_context_keep_choice (t->ctx, key, known);
      g_bytes_unref (known);
    } else {
      GST_WARNING_OBJECT (t->owner, "auto-tuning timed %d of %d variants; its choice is not "
          "stored", timed, n);
    }
    *how = CL_TUNE_TIMED;
  } else {
    /* nothing could be timed: the fixed rules */
    GST_WARNING_OBJECT (t->owner, "auto-tuning timed no variant; using the fixed rules");
    best = cl_variant_fixed (t->facts, r, NULL);
    *how = CL_TUNE_FIXED;
  }
  g_free (key);
  return best;
}
