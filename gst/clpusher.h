/* clconvolve: frames in flight sent downstream as soon as the device has finished them
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __CL_PUSHER_H__
#define __CL_PUSHER_H__

#include <gst/gst.h>

#include "gstclcontext.h"

G_BEGIN_DECLS

/* A thread that sends an element's frames in flight downstream once the device has finished
 * them, so that no frame waits for a later one to come in (a live source, or an application
 * that pushes one frame and waits for it). It takes turns with the streaming thread through
 * the sink pad's stream lock, so the frames stay in order and the element's frame state keeps
 * one user at a time. */
typedef struct _ClPusher ClPusher;

/* Called with the stream lock held. oldest: the completion event of the oldest frame in flight
 * (retained), NULL with none; send: sends every finished frame on, oldest first, and returns
 * the first flow that is not OK (kept for the streaming thread) and whether frames remain. */
typedef struct
{
  cl_event (*oldest) (gpointer user);
  GstFlowReturn (*send) (gpointer user, gboolean * more);
} ClPusherFuncs;

/* Registers the debug category (clpusher); cl_pusher_new does too. */
void cl_pusher_init_debug (void);

ClPusher *cl_pusher_new (GstPad * sinkpad, const ClPusherFuncs * funcs, gpointer user);
/* Joins the thread (it never holds the stream lock for long: call without it). */
void cl_pusher_free (ClPusher * p);
/* A frame was queued: the thread waits for the oldest one. */
void cl_pusher_wake (ClPusher * p);
/* The first flow the thread got that was not OK since the last call, which forgets it, so
 * that it goes upstream once (stream lock held). */
GstFlowReturn cl_pusher_take_flow (ClPusher * p);
void cl_pusher_reset_flow (ClPusher * p);

G_END_DECLS

#endif /* __CL_PUSHER_H__ */
