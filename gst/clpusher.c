/* clconvolve: frames in flight sent downstream as soon as the device has finished them
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

#include "clpusher.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (cl_pusher_debug);
#define GST_CAT_DEFAULT cl_pusher_debug

struct _ClPusher
{
  GstPad *sinkpad;
  ClPusherFuncs funcs;
  gpointer user;
  GThread *thread;
  GMutex lock;
  GCond cond;
  gboolean woken, quit;         /* under lock */
  GstFlowReturn flow;           /* under the stream lock */
};

/* The oldest frame's event, taken under the stream lock; NULL while flushing. */
static cl_event
oldest_event (ClPusher * p)
{
  cl_event e = NULL;

  GST_PAD_STREAM_LOCK (p->sinkpad);
  if (!GST_PAD_IS_FLUSHING (p->sinkpad))
    e = p->funcs.oldest (p->user);
  GST_PAD_STREAM_UNLOCK (p->sinkpad);
  return e;
}

static gpointer
pusher_thread (gpointer data)
{
  ClPusher *p = data;

  g_mutex_lock (&p->lock);
  while (!p->quit) {
    gboolean more = FALSE;
    cl_event e;

    if (!p->woken) {
      g_cond_wait (&p->cond, &p->lock);
      continue;
    }
    p->woken = FALSE;
    g_mutex_unlock (&p->lock);

    /* the wait is outside the stream lock: the streaming thread queues the next frames */
    if ((e = oldest_event (p))) {
      clWaitForEvents (1, &e);
      clReleaseEvent (e);
      GST_PAD_STREAM_LOCK (p->sinkpad);
      if (!GST_PAD_IS_FLUSHING (p->sinkpad)) {
        GstFlowReturn r = p->funcs.send (p->user, &more);

        if (r != GST_FLOW_OK && p->flow == GST_FLOW_OK) {
          GST_DEBUG ("downstream: %s", gst_flow_get_name (r));
          p->flow = r;
        }
        more = more && r == GST_FLOW_OK;
      }
      GST_PAD_STREAM_UNLOCK (p->sinkpad);
    }
    g_mutex_lock (&p->lock);
    if (more)
      p->woken = TRUE;
  }
  g_mutex_unlock (&p->lock);
  return NULL;
}

void
cl_pusher_init_debug (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    GST_DEBUG_CATEGORY_INIT (cl_pusher_debug, "clpusher", 0,
        "frames in flight sent on when done");
    g_once_init_leave (&once, 1);
  }
}

ClPusher *
cl_pusher_new (GstPad * sinkpad, const ClPusherFuncs * funcs, gpointer user)
{
  ClPusher *p = g_new0 (ClPusher, 1);
  gchar *name = g_strdup_printf ("clpush-%s", GST_OBJECT_NAME (GST_OBJECT_PARENT (sinkpad)));

  cl_pusher_init_debug ();
  p->sinkpad = gst_object_ref (sinkpad);
  p->funcs = *funcs;
  p->user = user;
  p->flow = GST_FLOW_OK;
  g_mutex_init (&p->lock);
  g_cond_init (&p->cond);
  /* thread names are 15 characters on Linux: the start of the element's name */
  if (strlen (name) > 15)
    name[15] = '\0';
  p->thread = g_thread_new (name, pusher_thread, p);
  g_free (name);
  return p;
}

void
cl_pusher_free (ClPusher * p)
{
  if (!p)
    return;
  g_mutex_lock (&p->lock);
  p->quit = TRUE;
  g_cond_signal (&p->cond);
  g_mutex_unlock (&p->lock);
  g_thread_join (p->thread);
  g_mutex_clear (&p->lock);
  g_cond_clear (&p->cond);
  gst_object_unref (p->sinkpad);
  g_free (p);
}

void
cl_pusher_wake (ClPusher * p)
{
  g_mutex_lock (&p->lock);
  p->woken = TRUE;
  g_cond_signal (&p->cond);
  g_mutex_unlock (&p->lock);
}

GstFlowReturn
cl_pusher_take_flow (ClPusher * p)
{
  GstFlowReturn r = p->flow;

  p->flow = GST_FLOW_OK;
  return r;
}

void
cl_pusher_reset_flow (ClPusher * p)
{
  p->flow = GST_FLOW_OK;
}
