/* clconvolve: settings to kernels (coefficients on the device, a kernel per pixel shape)
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __CL_KERNELS_H__
#define __CL_KERNELS_H__

#include <gst/gst.h>

#include "clsettings.h"
#include "cloverrides.h"
#include "gstclcontext.h"
#include "gstclrunner.h"
#include "gstclsources.h"

G_BEGIN_DECLS

/* Settings to kernels, for one element on one device: the settings' coefficients uploaded
 * (cl_kernels_set_coefficients), and for each pixel shape of a frame layout a kernel that runs
 * now without waiting for a compiler (cl_kernels_prepare): the specialised variant when its
 * program is ready, else the one running if it computes the same, else a generic kernel,
 * while the worker builds (or method=auto first tunes) the specialised one. The job state
 * machine, its "clconvolve-job" element messages and the program and tuning counts of the
 * element's stats are kept here. Used from the streaming thread (and start/stop) only. */
typedef struct _ClKernels ClKernels;

/* The counts and the variant the element's stats show (the element owns them: they outlive
 * a stop). */
typedef struct
{
  guint programs_built, programs_loaded;        /* the device context's, at the last build */
  guint programs_held;          /* the programs it kept then (in use and idle) */
  guint tunings, tunings_loaded;        /* keys this element timed / read from the disk */
  guint jobs_pending;           /* jobs the element waits for */
  ClVariant variant;            /* the last variant made current (first shape) */
} ClKernelStats;

/* owner: the element that posts errors and messages (not referenced); queues[3]: the frame
 * queues (kernels, up, down; see ClFrameRun); formats: the caps whose formats the generic
 * programs are prepared for; stats: the element's, written under lock. NULL with an error posted when the sources or the coefficient
 * buffers cannot be set up. */
ClKernels *cl_kernels_new (GstElement * owner, GstClContext * ctx,
    const cl_command_queue * queues, const ClOverrides * o, gboolean discrete,
    GstCaps * formats, ClKernelStats * stats, GMutex * lock);
void cl_kernels_free (ClKernels * k);

/* Makes s (the element's snapshot, kept by pointer until the next call) current: its
 * coefficients uploaded. FALSE after posting an error (the next call tries again). */
gboolean cl_kernels_set_coefficients (ClKernels * k, const ClSettings * s);
/* Makes every pixel shape of L run a kernel for the current settings (FALSE after posting an
 * error), with each view's matrix and method=separable's row-pass buffer assigned. */
gboolean cl_kernels_prepare (ClKernels * k, ClLayout * L);
/* What a frame of layout L runs on. */
ClFrameRun cl_kernels_frame_run (ClKernels * k, const ClLayout * L);
/* Whether a generic kernel runs for any shape (the stats' generic-frames). */
gboolean cl_kernels_any_generic (ClKernels * k);

void cl_kernels_init_debug (void);

G_END_DECLS

#endif /* __CL_KERNELS_H__ */
