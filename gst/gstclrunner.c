/* clconvolve: built kernel variants and their launches
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

#include "gstclrunner.h"

#include <string.h>

void
gst_cl_built_clear (GstClContext * ctx, ClBuilt * b, gboolean discard)
{
  g_clear_pointer (&b->kernel, clReleaseKernel);
  g_clear_pointer (&b->rows, clReleaseKernel);
  g_clear_pointer (&b->table, clReleaseKernel);
  if (b->program)
    gst_cl_context_unuse_program (ctx, b->program, discard);
  b->program = NULL;
  g_clear_pointer (&b->options, g_free);
}

cl_int
gst_cl_built_make (GstClContext * ctx, const ClDeviceFacts * facts,
    const gchar * const *source, const ClKernelRequest * r, const ClVariant * v,
    gboolean may_build, ClBuilt * b, gchar ** log, const gchar ** what)
{
  ClKernelSource src = cl_variant_source (v);
  ClLaunch launch;
  cl_program prog;
  cl_int err;
  gsize wg = 0;

  memset (b, 0, sizeof (*b));
  b->variant = *v;
  b->options = cl_variant_options (facts, r, v);
  *log = NULL;
  *what = "program build";
  prog = gst_cl_context_get_program (ctx, source[src], b->options, may_build, &err, log);
  if (!prog) {
    gst_cl_built_clear (ctx, b, FALSE);
    return err != CL_SUCCESS ? err : may_build ? CL_BUILD_PROGRAM_FAILURE :
        CL_INVALID_PROGRAM_EXECUTABLE;
  }
  b->program = prog;
  *what = "clCreateKernel";
  b->kernel = clCreateKernel (prog, cl_kernel_source_entry (src), &err);
  if (b->kernel && src == CL_SOURCE_SEPARABLE)
    b->rows = clCreateKernel (prog, "convolve_rows", &err);
  /* csep's entry for many views' blocks in one launch (an overriding source may lack it) */
  if (b->kernel && src == CL_SOURCE_CSEP && !v->generic)
    b->table = clCreateKernel (prog, "convolve_csep_table", NULL);
  if (err == CL_SUCCESS)
    err = clGetKernelWorkGroupInfo (b->kernel, ctx->device, CL_KERNEL_WORK_GROUP_SIZE,
        sizeof (wg), &wg, NULL);
  if (err == CL_SUCCESS && !cl_variant_launch (facts, r, v, wg, &launch))
    err = CL_INVALID_WORK_GROUP_SIZE;
  if (err != CL_SUCCESS) {
    gst_cl_built_clear (ctx, b, FALSE);
    return err;
  }
  b->local[0] = launch.local[0];
  b->local[1] = launch.local[1];
  b->px = launch.px;
  b->py = launch.py;
  b->one_pass = launch.one_pass;
  return CL_SUCCESS;
}

/* One argument of a kernel signature: what a failure reports, its size and value. */
typedef struct
{
  const gchar *what;
  gsize size;
  const void *value;
} KernelArg;

/* An argument of kernel signature sig named name, its value the lvalue x: the failure names
 * both ("clSetKernelArg of dense: bias"). */
#define KARG(sig, name, x) { "clSetKernelArg of " sig ": " #name, sizeof (x), &(x) }

/* Argument 0 of every kernel: the first row of the rows launched, set by launch_rows (a band's
 * first row, or 0); the tables below set the arguments after it. */
#define ARG_ROW0 0

/* Sets args[i] as argument index + i of k; on a failure *what names the argument. */
static cl_int
set_kernel_args_at (cl_kernel k, guint index, const KernelArg * args, guint n,
    const gchar ** what)
{
  for (guint i = 0; i < n; i++) {
    cl_int err = clSetKernelArg (k, index + i, args[i].size, args[i].value);

    if (err != CL_SUCCESS) {
      *what = args[i].what;
      return err;
    }
  }
  return CL_SUCCESS;
}

#define set_kernel_args(k, args, n, what) set_kernel_args_at (k, ARG_ROW0 + 1, args, n, what)

/* The plane as view v sees it: a field's rows are every other row of the plane, from the
 * first (top) or the second (bottom) */
static ClPlane
view_plane (const ClView * v, const ClPlane * p)
{
  ClPlane q = *p;

  if (v->field) {
    q.offset += v->field == 2 ? p->pitch : 0;
    q.pitch *= 2;
  }
  return q;
}

/* One table per signature of kernels/: dense (direct, tiled, vector, vsplit), one-pass
 * separable (vsep and the other one-pass forms), and the two passes of separable (cols, rows);
 * each ends in the border, the generic ones in the border and the matrix side. The planes are
 * those of the view (a field's, for fields). */
cl_int
gst_cl_built_set_args (const ClBuilt * b, const ClView * v, const ClPlane * src_plane,
    const ClPlane * dst_plane, cl_mem tmp, const ClCoefArgs * c, const gchar ** what)
{
  /* the generic programs' last argument: left out of the others */
  const guint shape = b->variant.generic ? 0 : 1;
  const ClPlane src_view = view_plane (v, src_plane), dst_view = view_plane (v, dst_plane);
  const ClPlane *src = &src_view, *dst = &dst_view;

  if (b->one_pass) {
    const KernelArg vsep[] = {
      KARG ("vsep", src, src->mem), KARG ("vsep", src_offset, src->offset),
      KARG ("vsep", src_pitch, src->pitch), KARG ("vsep", dst, dst->mem),
      KARG ("vsep", dst_offset, dst->offset), KARG ("vsep", dst_pitch, dst->pitch),
      KARG ("vsep", width, v->width), KARG ("vsep", height, v->height),
      KARG ("vsep", span, v->span), KARG ("vsep", coef, c->sep),
      KARG ("vsep", rank, c->rank), KARG ("vsep", bias, c->bias),
      KARG ("vsep", passmask, v->passmask), KARG ("vsep", border, c->border)
    };

    return set_kernel_args (b->kernel, vsep, G_N_ELEMENTS (vsep), what);
  }
  if (b->rows) {
    const KernelArg cols[] = {
      KARG ("cols", src, src->mem), KARG ("cols", src_offset, src->offset),
      KARG ("cols", src_pitch, src->pitch), KARG ("cols", dst, dst->mem),
      KARG ("cols", dst_offset, dst->offset), KARG ("cols", dst_pitch, dst->pitch),
      KARG ("cols", width, v->width), KARG ("cols", height, v->height),
      KARG ("cols", span, v->span), KARG ("cols", tmp, tmp),
      KARG ("cols", tmp_offset, v->tmp_offset), KARG ("cols", coef, c->sep),
      KARG ("cols", rank, c->rank), KARG ("cols", bias, c->bias),
      KARG ("cols", passmask, v->passmask),
      KARG ("cols", border, c->border), KARG ("generic", ksize, c->size)
    };
    const KernelArg rows[] = {
      KARG ("rows", src, src->mem), KARG ("rows", src_offset, src->offset),
      KARG ("rows", src_pitch, src->pitch), KARG ("rows", width, v->width),
      KARG ("rows", height, v->height), KARG ("rows", tmp, tmp),
      KARG ("rows", tmp_offset, v->tmp_offset), KARG ("rows", coef, c->sep),
      KARG ("rows", rank, c->rank),
      KARG ("rows", border, c->border), KARG ("generic", ksize, c->size)
    };
    cl_int err = set_kernel_args (b->kernel, cols, G_N_ELEMENTS (cols) - shape, what);

    return err != CL_SUCCESS ? err : set_kernel_args (b->rows, rows, G_N_ELEMENTS (rows) - shape,
        what);
  }
  {
    const KernelArg dense[] = {
      KARG ("dense", src, src->mem), KARG ("dense", src_offset, src->offset),
      KARG ("dense", src_pitch, src->pitch), KARG ("dense", dst, dst->mem),
      KARG ("dense", dst_offset, dst->offset), KARG ("dense", dst_pitch, dst->pitch),
      KARG ("dense", width, v->width), KARG ("dense", height, v->height),
      KARG ("dense", span, v->span), KARG ("dense", coef, c->coef),
      KARG ("dense", bias, c->bias), KARG ("dense", passmask, v->passmask),
      KARG ("dense", border, c->border), KARG ("generic", ksize, c->size)
    };
    const KernelArg sparse[] = {
      KARG ("sparse", taps, c->taps), KARG ("sparse", ntaps, c->ntaps)
    };
    cl_int err = set_kernel_args (b->kernel, dense, G_N_ELEMENTS (dense) - shape, what);

    if (err != CL_SUCCESS || b->variant.method != GST_CL_CONVOLVE_METHOD_SPARSE)
      return err;
    return set_kernel_args_at (b->kernel, ARG_ROW0 + 1 + G_N_ELEMENTS (dense) - shape, sparse,
        G_N_ELEMENTS (sparse), what);
  }
}

/* Launches k over global (local) work-items for rows from y0: row0 is an argument, not the
 * global work offset, since PoCL compiles a kernel again for every nonzero offset. */
static cl_int
launch_rows (cl_command_queue queue, cl_kernel k, gint y0, const size_t global[2],
    const size_t local[2], cl_uint n_wait, const cl_event * wait, cl_event * ev)
{
  cl_int row0 = y0;
  cl_int err = clSetKernelArg (k, ARG_ROW0, sizeof (row0), &row0);

  return err != CL_SUCCESS ? err : clEnqueueNDRangeKernel (queue, k, 2, NULL, global, local,
      n_wait, wait, ev);
}

cl_int
gst_cl_built_enqueue_rows (cl_command_queue queue, const ClBuilt * b, const ClView * v,
    gint y0, gint rows, cl_uint n_wait, const cl_event * wait, cl_event * ev)
{
  const size_t global[2] = { GST_ROUND_UP_N ((gsize) v->width, b->local[0]),
    GST_ROUND_UP_N ((gsize) rows, b->local[1])
  };

  return launch_rows (queue, b->rows, y0, global, b->local, n_wait, wait, ev);
}

/* Each work-item covers b->px pixels and b->py rows. */
cl_int
gst_cl_built_enqueue_blocks (cl_command_queue queue, const ClBuilt * b, const ClView * v,
    const ClCoefArgs * c, cl_mem src, cl_mem dst, cl_mem table, gint base, gint n,
    cl_event * ev, const gchar ** what)
{
  const KernelArg args[] = {
    KARG ("table", table, table), KARG ("table", base, base), KARG ("table", src, src),
    KARG ("table", dst, dst), KARG ("table", coef, c->sep), KARG ("table", rank, c->rank),
    KARG ("table", bias, c->bias), KARG ("table", passmask, v->passmask),
    KARG ("table", border, c->border)
  };
  /* one block a work-item, as convolve_csep's launches (PoCL compiles per work-group size) */
  const size_t global[1] = { (size_t) n }, local[1] = { 1 };
  /* its arguments from the first (no row0 before them) */
  cl_int err = set_kernel_args_at (b->table, 0, args, G_N_ELEMENTS (args), what);

  if (err != CL_SUCCESS)
    return err;
  *what = "kernel launch (convolve_csep_table)";
  return clEnqueueNDRangeKernel (queue, b->table, 1, NULL, global, local, 0, NULL, ev);
}

cl_int
gst_cl_built_enqueue (cl_command_queue queue, const ClBuilt * b, const ClView * v, gint y0,
    gint rows, cl_uint n_wait, const cl_event * wait, cl_event * ev)
{
  gsize items_x = (v->span + b->px - 1) / b->px, items_y = (rows + b->py - 1) / b->py;
  /* local[0] of method=vector may be any size the kernel allows (not a power of two) */
  const size_t global[2] = { (items_x + b->local[0] - 1) / b->local[0] * b->local[0],
    (items_y + b->local[1] - 1) / b->local[1] * b->local[1]
  };

  return launch_rows (queue, b->kernel, y0, global, b->local, n_wait, wait, ev);
}

/* ---------------------------------------------------------------------------------------------
 * A frame's paths */

/* bands=0 on a discrete device: about 8 bands, none under this many rows */
#define AUTO_BANDS 8
#define AUTO_MIN_BAND_ROWS 128
/* CL_BANDS_BUSY: at most this many bands, none under this many bytes */
#define BUSY_BANDS 3
#define BUSY_MIN_BAND_BYTES (2 << 20)

void
gst_cl_copy_rows (guint8 * dst, gsize dst_pitch, const guint8 * src, gsize src_pitch, gsize row,
    gint rows)
{
  if (dst_pitch == row && src_pitch == row) {
    memcpy (dst, src, row * rows);
    return;
  }
  for (gint y = 0; y < rows; y++)
    memcpy (dst + y * dst_pitch, src + y * src_pitch, row);
}

/* One piece of a parallel copy, and the count of pieces left that its caller waits on. */
typedef struct
{
  guint8 *dst;
  const guint8 *src;
  gsize dst_pitch, src_pitch, row;
  gint rows;
  gint *left;
  GMutex *lock;
  GCond *cond;
} CopyPart;

/* pieces under this many bytes are not worth a thread's wake-up */
#define MIN_COPY_PART (128 * 1024)

static void
copy_part (gpointer data, gpointer user_data)
{
  CopyPart *c = data;

  gst_cl_copy_rows (c->dst, c->dst_pitch, c->src, c->src_pitch, c->row, c->rows);
  g_mutex_lock (c->lock);
  if (--*c->left == 0)
    g_cond_signal (c->cond);
  g_mutex_unlock (c->lock);
}

/* one pool for the process: it has a thread fewer than the CPUs (the caller copies too) */
static gpointer
make_copy_pool (gpointer data)
{
  gint n = CLAMP ((gint) g_get_num_processors () - 1, 1, CL_MAX_COPY_PARTS - 1);

  return g_thread_pool_new (copy_part, NULL, n, FALSE, NULL);
}

void
gst_cl_copy_rows_parallel (guint8 * dst, gsize dst_pitch, const guint8 * src, gsize src_pitch,
    gsize row, gint rows, gint parts)
{
  static GOnce once = G_ONCE_INIT;
  CopyPart part[CL_MAX_COPY_PARTS];
  GThreadPool *pool;
  GMutex lock;
  GCond cond;
  gint left, per;

  parts = MIN (MIN (parts, CL_MAX_COPY_PARTS), (gint) (row * rows / MIN_COPY_PART));
  if (parts < 2) {
    gst_cl_copy_rows (dst, dst_pitch, src, src_pitch, row, rows);
    return;
  }
  pool = g_once (&once, make_copy_pool, NULL);
  g_mutex_init (&lock);
  g_cond_init (&cond);
  per = (rows + parts - 1) / parts;
  parts = (rows + per - 1) / per;
  left = parts - 1;
  for (gint i = 0; i < parts; i++) {
    gint y = i * per;

    part[i] = (CopyPart) { dst + y * dst_pitch, src + y * src_pitch, dst_pitch, src_pitch,
      row, MIN (per, rows - y), &left, &lock, &cond
    };
    if (i > 0)
      g_thread_pool_push (pool, &part[i], NULL);
  }
  /* the caller copies the first piece itself */
  gst_cl_copy_rows (part[0].dst, dst_pitch, part[0].src, src_pitch, row, part[0].rows);
  g_mutex_lock (&lock);
  while (left > 0)
    g_cond_wait (&cond, &lock);
  g_mutex_unlock (&lock);
  g_mutex_clear (&lock);
  g_cond_clear (&cond);
}

/* Rows [y0, y0 + rows) of a plane between host and dev (each with its pitch). */
static cl_int
enqueue_rows (cl_command_queue q, gboolean upload, const ClPlane * dev, gsize row, gint y0,
    gint rows, const ClPlane * host, cl_uint n_wait, const cl_event * wait, cl_event * ev)
{
  const size_t buffer_origin[3] = { dev->offset, y0, 0 };
  const size_t host_origin[3] = { 0, 0, 0 };
  const size_t region[3] = { row, rows, 1 };
  guint8 *ptr = host->host + (gsize) y0 * host->pitch;
  gsize at = dev->offset + (gsize) y0 * dev->pitch;

  if ((gsize) host->pitch == row && (gsize) dev->pitch == row && upload)
    return clEnqueueWriteBuffer (q, dev->mem, CL_FALSE, at, rows * row, ptr, n_wait, wait, ev);
  if ((gsize) host->pitch == row && (gsize) dev->pitch == row)
    return clEnqueueReadBuffer (q, dev->mem, CL_FALSE, at, rows * row, ptr, n_wait, wait, ev);
  if (upload)
    return clEnqueueWriteBufferRect (q, dev->mem, CL_FALSE, buffer_origin, host_origin, region,
        dev->pitch, 0, host->pitch, 0, ptr, n_wait, wait, ev);
  return clEnqueueReadBufferRect (q, dev->mem, CL_FALSE, buffer_origin, host_origin, region,
      dev->pitch, 0, host->pitch, 0, ptr, n_wait, wait, ev);
}

static cl_event *
next_event (ClEvents * e, gint stage)
{
  g_assert (e->n[stage] < CL_MAX_EVENTS);
  return &e->ev[stage][e->n[stage]++];
}

/* A marker event on queue for everything queued so far (*done), then the queue flushed. */
static cl_int
queue_done (cl_command_queue queue, cl_event * done, const gchar ** what)
{
  cl_int err;

  *what = "clEnqueueMarkerWithWaitList";
  err = clEnqueueMarkerWithWaitList (queue, 0, NULL, done);
  if (err != CL_SUCCESS)
    return err;
  *what = "clFlush";
  return clFlush (queue);
}

/* Host-unified device: the kernels read and write pinned host memory in place; planes no view
 * convolves are copied by the device. */
cl_int
gst_cl_run_unified (const ClFrameRun * f, const ClLayout * L, const ClPlane * src,
    const ClPlane * dst, ClEvents * e, cl_event * done, const gchar ** what)
{
  cl_int err;

  for (gint i = 0; i < L->n_views; i++) {
    const ClView *v = &L->views[i];

    err = gst_cl_built_set_args (&f->built[v->shape], v, &src[v->plane], &dst[v->plane],
        f->tmp, &f->coefs[v->matrix], what);
    if (err != CL_SUCCESS)
      return err;
    *what = "kernel launch";
    if (f->built[v->shape].rows) {
      err = gst_cl_built_enqueue_rows (f->queue, &f->built[v->shape], v, 0, v->height, 0, NULL,
          next_event (e, GST_CL_STAGE_KERNEL));
      if (err != CL_SUCCESS)
        return err;
    }
    err = gst_cl_built_enqueue (f->queue, &f->built[v->shape], v, 0, v->height, 0, NULL,
        next_event (e, GST_CL_STAGE_KERNEL));
    if (err != CL_SUCCESS)
      return err;
  }
  for (gint p = 0; p < L->n_planes; p++) {
    const size_t src_origin[3] = { src[p].offset, 0, 0 };
    const size_t dst_origin[3] = { dst[p].offset, 0, 0 };
    const size_t region[3] = { L->row[p], L->height[p], 1 };

    if (L->convolved[p])
      continue;
    *what = "plane copy";
    err = clEnqueueCopyBufferRect (f->queue, src[p].mem, dst[p].mem, src_origin, dst_origin,
        region, src[p].pitch, 0, dst[p].pitch, 0, 0, NULL, NULL);
    if (err != CL_SUCCESS)
      return err;
  }
  return queue_done (f->queue, done, what);
}

/* Rows per band of a plane: a multiple of the work-group height of every view on it (*unit),
 * so that bands never share a work-group. */
static gint
band_rows (const ClFrameRun * f, const ClLayout * L, gint p, gint bands, gint * unit_out)
{
  gint h = L->height[p], ly = 1, rows;

  if (bands == CL_BANDS_BUSY)
    bands = CLAMP ((gsize) h * L->row[p] / BUSY_MIN_BAND_BYTES, 1, BUSY_BANDS);
  rows = bands > 0 ? (h + bands - 1) / bands :
      MAX ((h + AUTO_BANDS - 1) / AUTO_BANDS, AUTO_MIN_BAND_ROWS);

  /* bands in whole work-group rows of every view of the plane (a work-item of method=vector
   * or tiled covers py rows): the least common multiple of their heights */
  for (gint i = 0; i < L->n_views; i++)
    if (L->views[i].plane == p) {
      const ClBuilt *b = &f->built[L->views[i].shape];
      gint unit = (gint) b->local[1] * b->py, a = ly, c = unit;

      while (c) {
        gint t = a % c;

        a = c;
        c = t;
      }
      ly = ly / a * unit;
    }
  /* fields: a band of 2 ly plane rows holds ly rows of each */
  if (L->fields)
    ly *= 2;
  *unit_out = ly;
  return MAX ((rows + ly - 1) / ly * ly, ly);
}

/* The rows of view v in the plane rows y0 .. y0 + n - 1 (y0 even for a field): those rows
 * themselves, or a field's rows among them. */
static void
view_rows (const ClView * v, gint y0, gint n, gint * first, gint * count)
{
  gint parity = v->field == 1 ? 1 : 0;

  if (!v->field) {
    *first = y0;
    *count = n;
    return;
  }
  *first = (y0 + parity) / 2;
  *count = (y0 + n + parity) / 2 - *first;
}

/* A plane on its way through a discrete device in bands: nb upload bands of rows rows; kernel
 * band k (and its download) ends shift rows above upload band k's end, so that its halo is up
 * once upload band k is, and the frame's tail is one short band (the last kernel band reaches
 * the plane's end). */
typedef struct
{
  gint p, rows, nb, next, shift;
  cl_event up[CL_MAX_BANDS];       /* borrowed from ClEvents; NULL: the input is on the device */
} PlaneRun;

/* The halo of a band in plane rows: a field's rows are every other plane row. */
static gint
plane_halo (const ClFrameRun * f, const ClLayout * L)
{
  return L->fields ? 2 * f->radius : f->radius;
}

/* The shift of a plane's kernel bands: the halo rounded up to whole work-group rows (unit),
 * when a band is larger; 0 for a plane no view convolves, which goes down as it arrives. */
static gint
band_shift (const ClFrameRun * f, const ClLayout * L, gint p, gint rows, gint unit)
{
  gint halo = plane_halo (f, L);
  gint shift = (halo + unit - 1) / unit * unit;

  return L->convolved[p] && shift < rows ? shift : 0;
}

/* Enqueues the kernels and the download (from `from`, when dst is not NULL) of every band of
 * the plane not yet enqueued whose input rows are all on the device once band b is: a band's
 * kernels need the upload of the last band their halo reaches (all of them when wrap reaches
 * across the plane); its download needs its kernels. A plane no view convolves is downloaded as
 * it arrives. Fields: a band of plane rows is the same rows of each field (band_rows keeps them
 * even), its halo twice the radius in plane rows; each view's arguments are set (from kin to
 * from) just before its launch, since the two fields share a kernel. */
static cl_int
enqueue_ready_bands (const ClFrameRun * f, const ClLayout * L, PlaneRun * r, const ClPlane * kin,
    const ClPlane * from, const ClPlane * dst, gint b, ClEvents * e, const gchar ** what)
{
  gint p = r->p, h = L->height[p], radius = plane_halo (f, L);
  gsize row = L->row[p];
  gint first = r->next;
  cl_int err = CL_SUCCESS;

  for (; r->next < r->nb; r->next++) {
    gint y0 = r->next ? r->next * r->rows - r->shift : 0;
    gint n = (r->next == r->nb - 1 ? h : (r->next + 1) * r->rows - r->shift) - y0;
    gint last = y0 + n - 1 + radius;
    gint need = !L->convolved[p] ? r->next : last >= h - 1 ||
        (f->wrap && y0 < radius) ? r->nb - 1 :
        last / r->rows;
    cl_event done = r->up[r->next], *k = NULL;

    if (need > b)
      break;
    for (gint i = 0; i < L->n_views; i++) {
      const ClView *v = &L->views[i];
      gint vy, vn;

      if (v->plane != p)
        continue;
      view_rows (v, y0, n, &vy, &vn);
      if (vn <= 0)
        continue;
      if (L->fields) {
        err = gst_cl_built_set_args (&f->built[v->shape], v, kin, from, f->tmp,
            &f->coefs[v->matrix], what);
        if (err != CL_SUCCESS)
          return err;
      }
      *what = "kernel launch";
      k = next_event (e, GST_CL_STAGE_KERNEL);
      err = gst_cl_built_enqueue (f->queue, &f->built[v->shape], v, vy, vn,
          r->up[need] ? 1 : 0, r->up[need] ? &r->up[need] : NULL, k);
      if (err != CL_SUCCESS)
        return err;
      done = *k;
    }
    if (!dst)
      continue;
    *what = "frame download";
    err = enqueue_rows (f->down, FALSE, from, row, y0, n, &dst[p], done ? 1 : 0,
        done ? &done : NULL, next_event (e, GST_CL_STAGE_DOWNLOAD));
    if (err != CL_SUCCESS)
      return err;
  }
  if (r->next > first) {
    clFlush (f->queue);
    if (dst)
      clFlush (f->down);
  }
  return err;
}

/* Discrete device: each plane goes up, through its kernels and down in horizontal bands, each
 * stage on its own in-order queue, so that band b+1 uploads while band b computes and band b-1
 * downloads; events order the queues. Each band's kernels and download are queued as soon as its
 * input rows are (faster than queuing every upload first: docs/design.md), kernel bands ending
 * a halo above the upload bands (PlaneRun). A frame already on the device (src NULL) is not
 * uploaded, one that stays there (dst NULL) not downloaded; with neither, the planes go whole. in: when not NULL, each band of the input frame is copied into
 * src (pinned staging) just before its upload. The caller waits for *done, so every frame
 * leaves complete and in order. */
cl_int
gst_cl_run_discrete (const ClFrameRun * f, const ClLayout * L, const ClPlane * src,
    const ClPlane * dev_in, const ClPlane * dev_out, const ClPlane * dst,
    const GstVideoFrame * in, gint bands, ClEvents * e, cl_event * done, const gchar ** what)
{
  cl_int err;

  if ((!src && !dst) || (bands == CL_BANDS_BUSY && in))
    bands = 1;
  for (gint p = 0; p < L->n_planes; p++) {
    gint unit;
    PlaneRun r = { p, band_rows (f, L, p, bands, &unit), 0, 0, 0, {NULL} };
    /* a plane no view convolves: uploaded where it is downloaded from, or into the output */
    const ClPlane *carry = src && !dst ? &dev_out[p] : &dev_in[p];
    const ClPlane *up_to = L->convolved[p] ? &dev_in[p] : carry;

    r.nb = (L->height[p] + r.rows - 1) / r.rows;
    r.shift = band_shift (f, L, p, r.rows, unit);
    if (!L->convolved[p] && !src && !dst) {
      const size_t src_origin[3] = { dev_in[p].offset, 0, 0 };
      const size_t dst_origin[3] = { dev_out[p].offset, 0, 0 };
      const size_t region[3] = { L->row[p], L->height[p], 1 };

      *what = "plane copy";
      err = clEnqueueCopyBufferRect (f->queue, dev_in[p].mem, dev_out[p].mem, src_origin,
          dst_origin, region, dev_in[p].pitch, 0, dev_out[p].pitch, 0, 0, NULL,
          next_event (e, GST_CL_STAGE_KERNEL));
      if (err != CL_SUCCESS)
        return err;
      continue;
    }
    for (gint i = 0; i < L->n_views && !L->fields; i++) {
      if (L->views[i].plane != p)
        continue;
      err = gst_cl_built_set_args (&f->built[L->views[i].shape], &L->views[i], &dev_in[p],
          &dev_out[p], f->tmp, &f->coefs[L->views[i].matrix], what);
      if (err != CL_SUCCESS)
        return err;
    }
    for (gint b = 0; b < r.nb; b++) {
      gint y0 = b * r.rows, n = MIN (r.rows, L->height[p] - y0);
      cl_event *up = NULL;

      if (src && in)
        gst_cl_copy_rows_parallel (src[p].host + (gsize) y0 * src[p].pitch, src[p].pitch,
            (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (in, p) +
            (gsize) y0 * GST_VIDEO_FRAME_PLANE_STRIDE (in, p),
            GST_VIDEO_FRAME_PLANE_STRIDE (in, p), L->row[p], n, f->copy_parts);
      if (src) {
        up = next_event (e, GST_CL_STAGE_UPLOAD);
        *what = "frame upload";
        err = enqueue_rows (f->up, TRUE, up_to, L->row[p], y0, n, &src[p], 0, NULL, up);
        if (err != CL_SUCCESS)
          return err;
        r.up[b] = *up;
        clFlush (f->up);
      }
      /* method=separable: the band's row pass needs only the band itself */
      for (gint i = 0; i < L->n_views; i++) {
        const ClView *v = &L->views[i];
        gint vy, vn;

        view_rows (v, y0, n, &vy, &vn);
        if (v->plane != p || !f->built[v->shape].rows || vn <= 0)
          continue;
        if (L->fields) {
          err = gst_cl_built_set_args (&f->built[v->shape], v, &dev_in[p], &dev_out[p], f->tmp,
              &f->coefs[v->matrix], what);
          if (err != CL_SUCCESS)
            return err;
        }
        *what = "kernel launch";
        err = gst_cl_built_enqueue_rows (f->queue, &f->built[v->shape], v, vy, vn, up ? 1 : 0,
            up, next_event (e, GST_CL_STAGE_KERNEL));
        if (err != CL_SUCCESS)
          return err;
      }
      err = enqueue_ready_bands (f, L, &r, &dev_in[p], L->convolved[p] ? &dev_out[p] : carry,
          dst, b, e, what);
      if (err != CL_SUCCESS)
        return err;
    }
  }
  if (dst) {
    /* the download queue is in order: its last event is the frame's end */
    *done = e->ev[GST_CL_STAGE_DOWNLOAD][e->n[GST_CL_STAGE_DOWNLOAD] - 1];
    *what = "clRetainEvent";
    return clRetainEvent (*done);
  }
  /* the output stays on the device: the kernel queue is in order, and planes uploaded straight
   * into the output are waited for */
  *what = "clEnqueueMarkerWithWaitList";
  err = clEnqueueMarkerWithWaitList (f->queue, e->n[GST_CL_STAGE_UPLOAD],
      e->n[GST_CL_STAGE_UPLOAD] ? e->ev[GST_CL_STAGE_UPLOAD] : NULL, done);
  if (err != CL_SUCCESS)
    return err;
  *what = "clFlush";
  return clFlush (f->queue);
}

/* The next event of a stage while the list has room (a frame of many regions may queue more
 * commands than it holds: those go unprofiled). */
static cl_event *
room_event (ClEvents * e, gint stage)
{
  return e->n[stage] < CL_MAX_EVENTS ? next_event (e, stage) : NULL;
}

/* The rows of a part's plane or field: its first row at y, its pitch between them. */
ClPlane
gst_cl_run_part_plane (const ClPlane * plane, const ClRegionPart * part)
{
  ClPlane q = *plane;

  if (part->field) {
    q.offset += part->field == 2 ? plane->pitch : 0;
    if (q.host)
      q.host += part->field == 2 ? plane->pitch : 0;
    q.pitch *= 2;
  }
  return q;
}

/* A region command's event: none where the frame's events are not kept (no profiling: a region
 * is a few small commands, and an event each costs about as much as one on some drivers) */
static cl_event *
region_event (ClEvents * e, gint stage)
{
  return e ? room_event (e, stage) : NULL;
}

/* b's kernel(s) on view v (a window, or a batch's image) from src into dst, writing rows
 * [y0, y0 + rows) of it (a window's region; the row pass of two takes every row, which the
 * column pass reads) */
static cl_int
region_launch (const ClFrameRun * f, const ClBuilt * b, const ClView * v, const ClPlane * src,
    const ClPlane * dst, gint y0, gint rows, ClEvents * e, const gchar ** what)
{
  cl_int err = gst_cl_built_set_args (b, v, src, dst, f->tmp, &f->coefs[v->matrix], what);

  if (err != CL_SUCCESS)
    return err;
  *what = "kernel launch";
  if (b->rows) {
    err = gst_cl_built_enqueue_rows (f->queue, b, v, 0, v->height, 0, NULL,
        region_event (e, GST_CL_STAGE_KERNEL));
    if (err != CL_SUCCESS)
      return err;
  }
  return gst_cl_built_enqueue (f->queue, b, v, y0, rows, 0, NULL,
      region_event (e, GST_CL_STAGE_KERNEL));
}

cl_int
gst_cl_run_region_blocks (const ClFrameRun * f, const ClLayout * L, gint view, cl_mem src,
    cl_mem out, cl_mem table, gint base, gint n, ClEvents * e, const gchar ** what)
{
  const ClView *v = &L->views[view];

  return gst_cl_built_enqueue_blocks (f->queue, &f->built[v->shape], v, &f->coefs[v->matrix],
      src, out, table, base, n, region_event (e, GST_CL_STAGE_KERNEL), what);
}

cl_int
gst_cl_run_region_planes (const ClFrameRun * f, const ClPlane * host, const ClPlane * dev,
    const gsize * extent, gint n_planes, gboolean up, ClEvents * e, cl_event * done,
    const gchar ** what)
{
  cl_int err;

  for (gint p = 0; p < n_planes; p++) {
    if (!extent[p])
      continue;
    *what = up ? "frame upload" : "frame download";
    err = up ? clEnqueueWriteBuffer (f->queue, dev[p].mem, CL_FALSE, dev[p].offset, extent[p],
        host[p].host, 0, NULL, region_event (e, GST_CL_STAGE_UPLOAD)) :
        clEnqueueReadBuffer (f->queue, dev[p].mem, CL_FALSE, dev[p].offset, extent[p],
        host[p].host, 0, NULL, region_event (e, GST_CL_STAGE_DOWNLOAD));
    if (err != CL_SUCCESS)
      return err;
  }
  return done ? queue_done (f->queue, done, what) : CL_SUCCESS;
}

cl_int
gst_cl_run_region_windows (const ClFrameRun * f, const ClLayout * L,
    const ClRegionPart * parts, gint n, const ClPlane * frame, cl_mem win, cl_mem out,
    ClEvents * e, const gchar ** what)
{
  const size_t zero[3] = { 0, 0, 0 };
  cl_int err;

  for (gint i = 0; i < n; i++) {
    const ClRegionPart *p = &parts[i];
    ClPlane rows = gst_cl_run_part_plane (&frame[p->plane], p);
    ClPlane src = { rows.mem, rows.offset + p->y * rows.pitch + p->x, rows.pitch, NULL };

    /* batched, or launched with others (CL_PART_BLOCKS) */
    if (p->batch != -1)
      continue;
    const ClPlane dst = { out, p->offset, p->bytes, NULL };

    if (!rows.mem) {
      /* the window from the host frame into win, at the part's place */
      const size_t origin[3] = { p->offset, 0, 0 }, region[3] = { p->bytes, p->rows, 1 };

      *what = "window upload";
      err = clEnqueueWriteBufferRect (f->queue, win, CL_FALSE, origin, zero, region, p->bytes,
          0, rows.pitch, 0, rows.host + (gsize) p->y * rows.pitch + p->x, 0, NULL,
          region_event (e, GST_CL_STAGE_UPLOAD));
      if (err != CL_SUCCESS)
        return err;
      src = (ClPlane) { win, p->offset, p->bytes, NULL };
    }
    for (gint j = 0; j < p->n_launches; j++) {
      const ClRegionLaunch *l = &p->launch[j];
      const ClBuilt *b = &f->built[L->views[l->view].shape];
      ClView v = L->views[l->view];

      /* the window as a view of its own: the field's rows are src's already */
      v.field = 0;
      v.width = l->width;
      v.span = l->span;
      v.height = p->rows;
      err = region_launch (f, b, &v, &src, &dst, p->ry, p->rrows, e, what);
      if (err != CL_SUCCESS)
        return err;
    }
  }
  return CL_SUCCESS;
}

cl_int
gst_cl_run_region_copies (const ClFrameRun * f, const ClRegionPart * parts, gint n,
    const ClPlane * frame, cl_mem out, ClEvents * e, cl_event * done, const gchar ** what)
{
  const size_t zero[3] = { 0, 0, 0 };
  cl_int err;

  /* every window is read (the queue is in order): the regions may now be written */
  for (gint i = 0; i < n; i++) {
    const ClRegionPart *p = &parts[i];

    if (p->batch >= 0)
      continue;
    ClPlane rows = gst_cl_run_part_plane (&frame[p->plane], p);
    const size_t from[3] = { p->offset + p->rx, p->ry, 0 };
    const size_t region[3] = { p->rbytes, p->rrows, 1 };
    gsize at = (gsize) (p->y + p->ry) * rows.pitch + p->x + p->rx;

    *what = "region copy";
    if (rows.mem) {
      const size_t to[3] = { rows.offset + at, 0, 0 };

      err = clEnqueueCopyBufferRect (f->queue, out, rows.mem, from, to, region, p->bytes, 0,
          rows.pitch, 0, 0, NULL, region_event (e, GST_CL_STAGE_DOWNLOAD));
    } else {
      err = clEnqueueReadBufferRect (f->queue, out, CL_FALSE, from, zero, region, p->bytes, 0,
          rows.pitch, 0, rows.host + at, 0, NULL, region_event (e, GST_CL_STAGE_DOWNLOAD));
    }
    if (err != CL_SUCCESS)
      return err;
  }
  return done ? queue_done (f->queue, done, what) : CL_SUCCESS;
}

cl_int
gst_cl_run_batch_rect (const ClFrameRun * f, const ClRegionPart * p, const ClPlane * frame,
    cl_mem img, gsize at, gint pitch, gboolean up, ClEvents * e, const gchar ** what)
{
  const size_t zero[3] = { 0, 0, 0 };
  ClPlane rows = gst_cl_run_part_plane (&frame[p->plane], p);
  guint8 *window = rows.host + (gsize) p->y * rows.pitch + p->x;

  if (up) {
    const size_t to[3] = { at, 0, 0 }, region[3] = { p->bytes, p->rows, 1 };

    *what = "window upload";
    return clEnqueueWriteBufferRect (f->queue, img, CL_FALSE, to, zero, region, pitch, 0,
        rows.pitch, 0, window, 0, NULL, region_event (e, GST_CL_STAGE_UPLOAD));
  } else {
    const size_t from[3] = { at + p->ry * (gsize) pitch + p->rx, 0, 0 };
    const size_t region[3] = { p->rbytes, p->rrows, 1 };

    *what = "region copy";
    return clEnqueueReadBufferRect (f->queue, img, CL_FALSE, from, zero, region, pitch, 0,
        rows.pitch, 0, window + (gsize) p->ry * rows.pitch + p->rx, 0, NULL,
        region_event (e, GST_CL_STAGE_DOWNLOAD));
  }
}

cl_int
gst_cl_run_done (const ClFrameRun * f, cl_event * done, const gchar ** what)
{
  return queue_done (f->queue, done, what);
}

cl_int
gst_cl_run_region_batch (const ClFrameRun * f, const ClLayout * L, gint view,
    const ClPlane * in, const ClPlane * out, gint width, gint rows, ClEvents * e,
    const gchar ** what)
{
  const ClBuilt *b = &f->built[L->views[view].shape];
  ClView v = L->views[view];

  /* the image of windows as a view of its own, as wide as its widest window */
  v.field = 0;
  v.width = v.span = width;
  v.height = rows;
  return region_launch (f, b, &v, in, out, 0, v.height, e, what);
}

cl_int
gst_cl_run_rect_copies (cl_command_queue queue, cl_kernel copy, cl_mem src, cl_mem dst,
    cl_mem table, gint base, gint n_rects, gint bytes, gint rows, gboolean fixed_groups,
    ClEvents * e, gint stage, const gchar ** what)
{
  /* 16 bytes a work-item. fixed_groups: 16 x 16 whatever the rectangles (PoCL compiles a
   * kernel again for each work-group size, and the rows change with the regions); else the
   * driver's choice, which a GPU runs faster (docs/design.md) */
  const size_t local[2] = { 16, 16 };
  const size_t global[2] = {
    fixed_groups ? GST_ROUND_UP_16 (((gsize) bytes + 15) / 16) :
        GST_ROUND_UP_4 (((gsize) bytes + 15) / 16),
    fixed_groups ? GST_ROUND_UP_16 ((gsize) rows) : (gsize) rows
  };
  const cl_int n_rows = rows;
  cl_int err;

  *what = "clSetKernelArg (region_copy)";
  if ((err = clSetKernelArg (copy, 0, sizeof (cl_mem), &src)) != CL_SUCCESS ||
      (err = clSetKernelArg (copy, 1, sizeof (cl_mem), &dst)) != CL_SUCCESS ||
      (err = clSetKernelArg (copy, 2, sizeof (cl_mem), &table)) != CL_SUCCESS ||
      (err = clSetKernelArg (copy, 3, sizeof (gint), &base)) != CL_SUCCESS ||
      (err = clSetKernelArg (copy, 4, sizeof (gint), &n_rects)) != CL_SUCCESS ||
      (err = clSetKernelArg (copy, 5, sizeof (cl_int), &n_rows)) != CL_SUCCESS)
    return err;
  *what = "kernel launch (region_copy)";
  return clEnqueueNDRangeKernel (queue, copy, 2, NULL, global, fixed_groups ? local : NULL, 0,
      NULL, region_event (e, stage));
}

void
gst_cl_run_finish (const ClFrameRun * f)
{
  if (f->up)
    clFinish (f->up);
  clFinish (f->queue);
  if (f->down)
    clFinish (f->down);
}

/* Releases a frame's events and empties the lists for the next frame (the lists start empty:
 * allocated zeroed), so no frame clears the whole array. */
void
gst_cl_events_release (ClEvents * e)
{
  for (gint i = 0; i < GST_CL_N_STAGES; i++) {
    for (gint b = 0; b < e->n[i]; b++)
      g_clear_pointer (&e->ev[i][b], clReleaseEvent);
    e->n[i] = 0;
  }
}

