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
  if (b->program)
    gst_cl_context_unuse_program (ctx, b->program, discard);
  b->program = NULL;
  g_clear_pointer (&b->options, g_free);
}

cl_int
gst_cl_built_make (GstClContext * ctx, const ClDeviceFacts * facts,
    const gchar * const *source, const ClKernelRequest * r, const ClVariant * v, ClBuilt * b,
    gchar ** log, const gchar ** what)
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
  prog = gst_cl_context_get_program (ctx, source[src], b->options, &err, log);
  if (!prog) {
    gst_cl_built_clear (ctx, b, FALSE);
    return err != CL_SUCCESS ? err : CL_BUILD_PROGRAM_FAILURE;
  }
  b->program = prog;
  *what = "clCreateKernel";
  b->kernel = clCreateKernel (prog, cl_kernel_source_entry (src), &err);
  if (b->kernel && src == CL_SOURCE_SEPARABLE)
    b->rows = clCreateKernel (prog, "convolve_rows", &err);
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

/* Sets args[i] as argument ARG_ROW0 + 1 + i of k; on a failure *what names the argument. */
static cl_int
set_kernel_args (cl_kernel k, const KernelArg * args, guint n, const gchar ** what)
{
  for (guint i = 0; i < n; i++) {
    cl_int err = clSetKernelArg (k, ARG_ROW0 + 1 + i, args[i].size, args[i].value);

    if (err != CL_SUCCESS) {
      *what = args[i].what;
      return err;
    }
  }
  return CL_SUCCESS;
}

/* One table per signature of kernels/: dense (direct, tiled, vector, vsplit), one-pass
 * separable (vsep), and the two passes of separable (cols, rows). */
cl_int
gst_cl_built_set_args (const ClBuilt * b, const ClView * v, const ClPlane * src,
    const ClPlane * dst, cl_mem tmp, const ClCoefArgs * c, const gchar ** what)
{
  if (b->one_pass) {
    const KernelArg vsep[] = {
      KARG ("vsep", src, src->mem), KARG ("vsep", src_offset, src->offset),
      KARG ("vsep", src_pitch, src->pitch), KARG ("vsep", dst, dst->mem),
      KARG ("vsep", dst_offset, dst->offset), KARG ("vsep", dst_pitch, dst->pitch),
      KARG ("vsep", width, v->width), KARG ("vsep", height, v->height),
      KARG ("vsep", span, v->span), KARG ("vsep", coef, c->sep),
      KARG ("vsep", rank, c->rank), KARG ("vsep", bias, c->bias),
      KARG ("vsep", passmask, v->passmask)
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
      KARG ("cols", passmask, v->passmask)
    };
    const KernelArg rows[] = {
      KARG ("rows", src, src->mem), KARG ("rows", src_offset, src->offset),
      KARG ("rows", src_pitch, src->pitch), KARG ("rows", width, v->width),
      KARG ("rows", height, v->height), KARG ("rows", tmp, tmp),
      KARG ("rows", tmp_offset, v->tmp_offset), KARG ("rows", coef, c->sep),
      KARG ("rows", rank, c->rank)
    };
    cl_int err = set_kernel_args (b->kernel, cols, G_N_ELEMENTS (cols), what);

    return err != CL_SUCCESS ? err : set_kernel_args (b->rows, rows, G_N_ELEMENTS (rows), what);
  }
  {
    const KernelArg dense[] = {
      KARG ("dense", src, src->mem), KARG ("dense", src_offset, src->offset),
      KARG ("dense", src_pitch, src->pitch), KARG ("dense", dst, dst->mem),
      KARG ("dense", dst_offset, dst->offset), KARG ("dense", dst_pitch, dst->pitch),
      KARG ("dense", width, v->width), KARG ("dense", height, v->height),
      KARG ("dense", span, v->span), KARG ("dense", coef, c->coef),
      KARG ("dense", bias, c->bias), KARG ("dense", passmask, v->passmask)
    };

    return set_kernel_args (b->kernel, dense, G_N_ELEMENTS (dense), what);
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
