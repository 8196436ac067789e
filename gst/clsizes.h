/* clconvolve: kernels for regions that have a matrix side of their own (roi-scale)
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __CL_SIZES_H__
#define __CL_SIZES_H__

#include "clkernels.h"

G_BEGIN_DECLS

/* One ClKernels per matrix side that regions ask for, each running the element's settings
 * with that side (a preset made at that size; settings whose matrix does not come from the size,
 * such as kernel=custom, run as they are). Made when a side is first asked for and kept until
 * freed; each programs, tunes and falls back to the generic kernel while it builds as the
 * element's own kernels do. Used from the streaming thread only. */
typedef struct _ClSizes ClSizes;

/* The arguments of cl_kernels_new, kept for each side's kernels (formats is referenced). */
ClSizes *cl_sizes_new (GstElement * owner, GstClContext * ctx, const cl_command_queue * queues,
    const ClOverrides * o, gboolean discrete, GstCaps * formats, ClKernelStats * stats,
    GMutex * lock);
void cl_sizes_free (ClSizes * z);

/* Plans info's layout into *L with the kernels of s (the element's snapshot, as of cookie) at
 * side size ready, and what it runs on into *run (as the element's prepare). FALSE after
 * posting an error. */
gboolean cl_sizes_prepare (ClSizes * z, const ClSettings * s, guint cookie, gint size,
    const GstVideoInfo * info, gboolean fields, ClLayout * L, ClFrameRun * run);

G_END_DECLS

#endif /* __CL_SIZES_H__ */
