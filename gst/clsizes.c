/* clconvolve: kernels for regions that have a matrix side of their own (roi-scale)
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

#include "clsizes.h"
#include "regions.h"

/* One side's kernels and the settings they run (the element's with that side) */
typedef struct
{
  gint size;
  ClSettings *set;
  guint cookie;                 /* the element's settings set was made from */
  gboolean valid;               /* set's coefficients are the kernels' */
  ClKernels *kernels;
} ClSized;

struct _ClSizes
{
  GstElement *owner;
  GstClContext *ctx;
  const cl_command_queue *queues;
  const ClOverrides *o;
  gboolean discrete;
  GstCaps *formats;
  ClKernelStats *stats;
  GMutex *lock;
  ClSized sized[CL_MAX_REGION_SIZES];
  gint n;
};

ClSizes *
cl_sizes_new (GstElement * owner, GstClContext * ctx, const cl_command_queue * queues,
    const ClOverrides * o, gboolean discrete, GstCaps * formats, ClKernelStats * stats,
    GMutex * lock)
{
  ClSizes *z = g_new0 (ClSizes, 1);

  z->owner = owner;
  z->ctx = ctx;
  z->queues = queues;
  z->o = o;
  z->discrete = discrete;
  z->formats = gst_caps_ref (formats);
  z->stats = stats;
  z->lock = lock;
  return z;
}

void
cl_sizes_free (ClSizes * z)
{
  for (gint i = 0; i < z->n; i++) {
    g_clear_pointer (&z->sized[i].kernels, cl_kernels_free);
    g_free (z->sized[i].set);
  }
  gst_caps_unref (z->formats);
  g_free (z);
}

/* The kernels of side size, made at the first ask (NULL after posting an error, or with no
 * room left: the caller's groups are bounded by CL_MAX_REGION_SIZES) */
static ClSized *
sized_for (ClSizes * z, gint size)
{
  ClSized *d;

  for (gint i = 0; i < z->n; i++)
    if (z->sized[i].size == size)
      return &z->sized[i];
  if (z->n == CL_MAX_REGION_SIZES) {
    GST_ELEMENT_ERROR (z->owner, CORE, FAILED, ("More than %d region kernel sizes.",
            CL_MAX_REGION_SIZES), (NULL));
    return NULL;
  }
  d = &z->sized[z->n];
  d->kernels = cl_kernels_new (z->owner, z->ctx, z->queues, z->o, z->discrete, z->formats,
      z->stats, z->lock);
  if (!d->kernels)
    return NULL;
  d->size = size;
  d->set = g_new (ClSettings, 1);
  d->valid = FALSE;
  z->n++;
  return d;
}

gboolean
cl_sizes_prepare (ClSizes * z, const ClSettings * s, guint cookie, gint size,
    const GstVideoInfo * info, gboolean fields, ClLayout * L, ClFrameRun * run)
{
  ClSized *d = sized_for (z, size);

  if (!d)
    return FALSE;
  if (!d->valid || d->cookie != cookie) {
    gchar err[256];

    *d->set = *s;
    /* a matrix that does not come from the size (custom) keeps its own */
    if (s->kernel != CONV_PRESET_CUSTOM)
      cl_settings_set_size (d->set, size, err, sizeof (err));
    d->cookie = cookie;
    d->valid = cl_kernels_set_coefficients (d->kernels, d->set);
    if (!d->valid)
      return FALSE;
  }
  cl_layout_plan (info, d->set->planes, fields, L);
  if (!cl_kernels_prepare (d->kernels, L))
    return FALSE;
  *run = cl_kernels_frame_run (d->kernels, L);
  return TRUE;
}
