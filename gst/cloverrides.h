/* clconvolve: the developer overrides (GST_CLCONVOLVE_* variables)
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __CL_OVERRIDES_H__
#define __CL_OVERRIDES_H__

#include <glib.h>

G_BEGIN_DECLS

/* What the developer overrides ask for, read from the environment in one place when an
 * element starts (the suites set them between starts). Each variable is described in
 * cloverrides.c; docs/design.md lists them. */
typedef struct
{
  const gchar *kernel_source;   /* GST_CLCONVOLVE_KERNEL_SOURCE, NULL when unset */
  gboolean discrete;            /* GST_CLCONVOLVE_DISCRETE: a non-zero integer */
  gint block;                   /* GST_CLCONVOLVE_BLOCK, 0..16, 0 when unset */
  gint split;                   /* GST_CLCONVOLVE_SPLIT: 0 or 1, -1 when unset */
  gboolean sparse_tiles;        /* GST_CLCONVOLVE_SPARSE_TILES=1 */
  gboolean generic_only;        /* GST_CLCONVOLVE_GENERIC=1 or dense */
  gboolean generic_dense;       /* GST_CLCONVOLVE_GENERIC=dense */
  gboolean sync_builds;         /* GST_CLCONVOLVE_SYNC_BUILDS=1 */
  gint copy_parts;              /* GST_CLCONVOLVE_COPY_THREADS, else half the CPUs (2..8) */
  gint region_whole;            /* GST_CLCONVOLVE_REGION_WHOLE, else CL_REGION_WHOLE_PARTS */
} ClOverrides;

/* The parts of a frame's regions (a region's window on one plane) from which a discrete
 * device moves the frame in host memory whole, up once and down once, instead of a window up
 * and a region down each (docs/design.md, regions of interest) */
#define CL_REGION_WHOLE_PARTS 32

/* Developer override: read the OpenCL sources from this directory (common.cl and the variant
 * files), or every program's whole source from this one file, instead of the embedded ones. */
#define CL_KERNEL_SOURCE_ENV "GST_CLCONVOLVE_KERNEL_SOURCE"
/* Developer override: on a host-unified device (a CPU), still copy frames to device buffers and
 * back in bands on three queues, as on a GPU, so that path can be tested without one. */
#define CL_DISCRETE_ENV "GST_CLCONVOLVE_DISCRETE"

/* Developer override: 1 takes a device whose local memory is in global memory (a CPU) as a
 * GPU's: on chip, of at most CL_AS_GPU_LOCAL_MEM bytes, so that the GPU variants (lsep, the
 * GPU box, the tiles) and the GPU's paths run and are checked on PoCL. Read when a device's
 * context is made (once per process for a device's default context). */
#define CL_AS_GPU_ENV "GST_CLCONVOLVE_AS_GPU"
#define CL_AS_GPU_LOCAL_MEM (48 * 1024)

/* Developer override: the rows (2, 4, 8 or 16) the GPU box (convolve_box -DGBOX_TW) buffers
 * in local memory before its row pass, each work-item then sliding its window over a segment
 * of GBOX_MX times that many pixels of one row; unset or anything else: one row, a segment of
 * GBOX_MX pixels. Read when a device's context is made; for measuring (docs/kernels.md). */
#define CL_GBOX_ROWS_ENV "GST_CLCONVOLVE_GBOX_ROWS"

/* The overrides as the environment sets them now; copy_parts at most max_parts. */
ClOverrides cl_overrides_read (gint max_parts);

G_END_DECLS

#endif /* __CL_OVERRIDES_H__ */
