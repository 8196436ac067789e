/* clconvolve: the developer overrides (GST_CLCONVOLVE_* variables)
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

#include "cloverrides.h"

#include <stdlib.h>

/* Developer override: pixels per work-item of the float4 kernel (register blocking); 1 also
 * makes method=separable run two passes on a CPU (the formats suite's float4_blocks case runs
 * with it to cover that form). */
#define BLOCK_ENV "GST_CLCONVOLVE_BLOCK"
/* Developer override: 1 (a non-zero integer) lets method=vector split the colour planes
 * (convolve_vsplit) wherever the view allows it, on any device; 0 never (the suites run both
 * ways). Unset or not an integer: on AVX-512 CPUs. */
#define SPLIT_ENV "GST_CLCONVOLVE_SPLIT"
/* Developer override: 1 makes the fixed rules' sparse variant (method=sparse, or auto without
 * tuning) read its taps from a local tile (what a GPU runs) on any device, so that the CPU
 * suites check that form too. */
#define SPARSE_TILES_ENV "GST_CLCONVOLVE_SPARSE_TILES"
/* Developer override: 1 runs the generic kernels (matrix side and border as arguments) for
 * every setting, never a specialised one, and builds them when needed (the suites check them;
 * the benchmark measures their cost); "dense": only the dense one. */
#define GENERIC_ENV "GST_CLCONVOLVE_GENERIC"
/* Developer override: 1 makes the streaming thread wait for the worker's builds and tuning, as
 * before they moved off it, so that a test's first frame runs the variant it checks. */
#define SYNC_ENV "GST_CLCONVOLVE_SYNC_BUILDS"
/* Developer override: a discrete device stages a frame of system memory in this many pieces
 * copied at once by a pool of threads (1: one memcpy), instead of half the CPUs' count. */
#define COPY_ENV "GST_CLCONVOLVE_COPY_THREADS"
/* Developer override: the parts of a frame's regions from which a discrete device moves the
 * whole frame (CL_REGION_WHOLE_PARTS), so that the suites check that path on a few regions. */
#define REGION_WHOLE_ENV "GST_CLCONVOLVE_REGION_WHOLE"

/* GST_CLCONVOLVE_SPLIT as the element reads it at start: 1 for a non-zero integer, 0 for zero,
 * -1 when unset or not an integer (as GST_CLCONVOLVE_BLOCK). */
static gint
split_override (void)
{
  const gchar *env = g_getenv (SPLIT_ENV);
  gchar *end = NULL;
  gint64 v = env ? g_ascii_strtoll (env, &end, 10) : 0;

  if (!env || end == env || *end)
    return -1;
  return v != 0;
}

ClOverrides
cl_overrides_read (gint max_parts)
{
  const gchar *block = g_getenv (BLOCK_ENV), *copy = g_getenv (COPY_ENV),
      *discrete = g_getenv (CL_DISCRETE_ENV), *whole = g_getenv (REGION_WHOLE_ENV);
  ClOverrides o = {
    .kernel_source = g_getenv (CL_KERNEL_SOURCE_ENV),
    .discrete = discrete && atoi (discrete),
    .block = block ? CLAMP (atoi (block), 0, 16) : 0,
    .split = split_override (),
    .sparse_tiles = g_strcmp0 (g_getenv (SPARSE_TILES_ENV), "1") == 0,
    .generic_dense = g_strcmp0 (g_getenv (GENERIC_ENV), "dense") == 0,
    .sync_builds = g_strcmp0 (g_getenv (SYNC_ENV), "1") == 0,
    .copy_parts = copy && atoi (copy) > 0 ? MIN (atoi (copy), max_parts) :
        CLAMP ((gint) g_get_num_processors () / 2, 2, 8),
    .region_whole = whole && atoi (whole) > 0 ? atoi (whole) : CL_REGION_WHOLE_PARTS,
  };

  o.generic_only = o.generic_dense || g_strcmp0 (g_getenv (GENERIC_ENV), "1") == 0;
  return o;
}
