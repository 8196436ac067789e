/* clconvolve: built kernel variants and their launches
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_CL_RUNNER_H__
#define __GST_CL_RUNNER_H__

#include "framelayout.h"
#include "gstclcontext.h"
#include "variants.h"

G_BEGIN_DECLS

/* The runner: a variant built into kernels from the context's programs, its arguments set
 * through one checked table per kernel signature (a failure names the argument), and its
 * launches over a band of rows. The element's paths (in place, banded discrete) and the tuner
 * run kernels through it; nothing else calls clSetKernelArg or clEnqueueNDRangeKernel. */

/* A frame's plane as a command sees it: the OpenCL buffer and the plane's byte offset and pitch
 * in it, and the plane's host address (transfers and copies). */
typedef struct
{
  cl_mem mem;
  gint offset, pitch;
  guint8 *host;
} ClPlane;

/* A variant built for one shape: its kernel(s) and launch geometry. */
typedef struct
{
  ClVariant variant;
  cl_kernel kernel;             /* dense, or the column pass of method=separable */
  cl_kernel rows;               /* the row pass of method=separable, else NULL */
  cl_program program;           /* one use of the context's program they come from */
  gchar *options;               /* its build options (what identifies its program) */
  gsize local[2];
  gint px, py;                  /* pixels per work-item along x and rows along y */
  gboolean one_pass;            /* convolve_vsep (method=separable on CPUs) */
} ClBuilt;

/* The coefficients' side of the arguments: the dense matrix, the separable pairs, how many
 * pairs, and the bias in the sample's units. */
typedef struct
{
  cl_mem coef, sep;
  gint rank;
  gfloat bias;
} ClCoefArgs;

/* Builds variant v for the request (the program comes from ctx's caches when it was built
 * before) from source, the embedded or overriding program texts (ClKernelSource order). On
 * failure returns the error with *what naming the step (and *log the build log, if any: free
 * it); a tiled kernel compiled to fewer work-items than its tile returns
 * CL_INVALID_WORK_GROUP_SIZE. */
cl_int gst_cl_built_make (GstClContext * ctx, const ClDeviceFacts * facts,
    const gchar * const *source, const ClKernelRequest * r, const ClVariant * v, ClBuilt * b,
    gchar ** log, const gchar ** what);

/* Releases b's kernels and gives its program back to ctx (discard: at once, unless another
 * element uses it); b is then empty. */
void gst_cl_built_clear (GstClContext * ctx, ClBuilt * b, gboolean discard);

/* The arguments of b's kernel(s) for view v between src and dst (tmp: the row pass's buffer of
 * method=separable); on a failure *what names the argument. */
cl_int gst_cl_built_set_args (const ClBuilt * b, const ClView * v, const ClPlane * src,
    const ClPlane * dst, cl_mem tmp, const ClCoefArgs * c, const gchar ** what);

/* b's kernel on view v over rows [y0, y0 + rows) (a band, or the whole plane). */
cl_int gst_cl_built_enqueue (cl_command_queue queue, const ClBuilt * b, const ClView * v,
    gint y0, gint rows, cl_uint n_wait, const cl_event * wait, cl_event * ev);

/* method=separable in two passes: the row pass over the same rows, into tmp. */
cl_int gst_cl_built_enqueue_rows (cl_command_queue queue, const ClBuilt * b, const ClView * v,
    gint y0, gint rows, cl_uint n_wait, const cl_event * wait, cl_event * ev);

G_END_DECLS

#endif /* __GST_CL_RUNNER_H__ */
