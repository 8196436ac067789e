/* clconvolve: per-stage timing from OpenCL profiling events
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "gstclstats.h"

#include <string.h>

#define FOLD_AFTER 4096

typedef struct
{
  guint64 t;
  gint delta;                   /* +1 a command starts, -1 it ends */
} Edge;

void
gst_cl_stats_init (GstClStats * s)
{
  GArray *pending = s->pending;

  memset (s, 0, sizeof (*s));
  s->pending = pending ? pending : g_array_new (FALSE, FALSE, sizeof (Edge));
  g_array_set_size (s->pending, 0);
}

void
gst_cl_stats_clear (GstClStats * s)
{
  if (s->pending)
    g_array_free (s->pending, TRUE);
  s->pending = NULL;
}

void
gst_cl_stats_add (GstClStats * s, GstClStage stage, guint64 start_ns, guint64 end_ns)
{
  Edge e[2] = { {start_ns, +1}, {end_ns, -1} };

  if (end_ns < start_ns)
    return;
  s->stage_ns[stage] += end_ns - start_ns;
  if (s->first_ns == 0 || start_ns < s->first_ns)
    s->first_ns = start_ns;
  s->last_ns = MAX (s->last_ns, end_ns);
  g_array_append_vals (s->pending, e, 2);
  if (s->pending->len >= 2 * FOLD_AFTER)
    gst_cl_stats_fold (s);
}

static gint
edge_cmp (gconstpointer a, gconstpointer b)
{
  const Edge *x = a, *y = b;

  if (x->t != y->t)
    return x->t < y->t ? -1 : 1;
  return x->delta - y->delta;   /* at the same instant, ends before starts */
}

void
gst_cl_stats_fold (GstClStats * s)
{
  gint active = 0;
  guint64 prev = 0;

  g_array_sort (s->pending, edge_cmp);
  for (guint i = 0; i < s->pending->len; i++) {
    const Edge *e = &g_array_index (s->pending, Edge, i);

    if (active >= 1)
      s->busy_ns += e->t - prev;
    if (active >= 2)
      s->overlap_ns += e->t - prev;
    active += e->delta;
    prev = e->t;
  }
  g_array_set_size (s->pending, 0);
}
