/* clconvolve: per-stage timing from OpenCL profiling events
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Plain C and GLib: collects the device-side [start, end] of each upload, kernel and download,
 * and answers how long each stage took, how long the device was busy at all and for how long
 * two or more commands ran at the same time (transfer/compute overlap). */

#ifndef __GST_CL_STATS_H__
#define __GST_CL_STATS_H__

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  GST_CL_STAGE_UPLOAD,
  GST_CL_STAGE_KERNEL,
  GST_CL_STAGE_DOWNLOAD,
  GST_CL_N_STAGES
} GstClStage;

typedef struct
{
  guint64 frames;
  guint64 stage_ns[GST_CL_N_STAGES];    /* sum of each stage's command durations */
  guint64 busy_ns;              /* time in which at least one command ran */
  guint64 overlap_ns;           /* time in which two or more commands ran at once */
  guint64 first_ns, last_ns;    /* earliest start, latest end seen */
  GArray *pending;              /* intervals not yet folded into busy/overlap */
} GstClStats;

void gst_cl_stats_init (GstClStats * s);
void gst_cl_stats_clear (GstClStats * s);
void gst_cl_stats_add (GstClStats * s, GstClStage stage, guint64 start_ns, guint64 end_ns);
/* Folds the pending intervals into busy_ns and overlap_ns (done by itself every few thousand
 * intervals; an overlap across two folds is not counted). */
void gst_cl_stats_fold (GstClStats * s);

G_END_DECLS

#endif /* __GST_CL_STATS_H__ */
