/* clconvolve: method=auto's measured choice of kernel variant
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_CL_TUNER_H__
#define __GST_CL_TUNER_H__

#include "gstclrunner.h"

G_BEGIN_DECLS

/* The tuner: for a request, the variant the device context already chose, else the one kept on
 * disk, else the fastest of the variant rules' candidates by timing them through the runner on
 * scratch buffers (kept on disk and in the context). */

/* What a choice needs: the context and device, a queue to time on, the program sources and
 * their digest (part of the key), the directory of choices (NULL: memory only), the
 * coefficients' arguments for the request's depth, and the object logs name. */
typedef struct
{
  GstClContext *ctx;
  const ClDeviceFacts *facts;
  cl_command_queue queue;
  const gchar *const *source;
  const gchar *digest;
  const gchar *dir;
  ClCoefArgs coefs;
  GstObject *owner;
  gboolean pace;                /* after each run, leave the device idle as long (the worker:
                                 * streaming frames keep at least half of it) */
} ClTuner;

typedef enum
{
  CL_TUNE_KNOWN,                /* the context's choice, or a single candidate */
  CL_TUNE_LOADED,               /* read from the disk */
  CL_TUNE_TIMED,                /* timed now */
  CL_TUNE_FIXED                 /* nothing could be timed: the fixed rules */
} ClTuneOutcome;

/* Registers the debug category "cltuner" (once; the element's class_init calls it). */
void gst_cl_tuner_init (void);

ClVariant gst_cl_tuner_choose (const ClTuner * t, const ClKernelRequest * r,
    ClTuneOutcome * how);

/* choose's first steps alone, never timing (the streaming thread's): TRUE with *v the choice
 * when the request has one candidate, the context holds a choice or the disk has one
 * (CL_TUNE_LOADED, then also kept in the context). */
gboolean gst_cl_tuner_lookup (const ClTuner * t, const ClKernelRequest * r, ClVariant * v,
    ClTuneOutcome * how);

/* Keeps v as the context's choice for the request (one made in the helper process). */
void gst_cl_tuner_keep (const ClTuner * t, const ClKernelRequest * r, const ClVariant * v);

/* Runs b once on scratch buffers for the request (PoCL generates a kernel's code for its
 * work-group size at its first launch: the element's first frame with it then need not); on a
 * failure *what names the step. */
cl_int gst_cl_tuner_warm (const ClTuner * t, const ClKernelRequest * r, const ClBuilt * b,
    const gchar ** what);

/* Where choices are kept: $GST_CLCONVOLVE_TUNE_DIR (NULL when empty: memory only), else
 * <XDG cache dir>/clconvolve/tuning (free with g_free). */
gchar *gst_cl_tuner_dir (void);

G_END_DECLS

#endif /* __GST_CL_TUNER_H__ */
