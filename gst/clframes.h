/* clconvolve: a frame on the device (map, check, paths, staging, submit, wait, frames in flight)
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __CL_FRAMES_H__
#define __CL_FRAMES_H__

#include <gst/gst.h>
#include <gst/video/video.h>

#include "gstclcontext.h"
#include "gstclrunner.h"
#include "gstclstats.h"
#include "regions.h"

G_BEGIN_DECLS

/* Frames on one device for one element: each frame's buffers mapped and checked against the
 * negotiated format (a lying GstVideoMeta is a dropped frame with a warning, never a read out
 * of bounds), the path its planes take (in place, DMA, a staging copy, device-resident), its
 * upload, kernels and download queued, waited for and counted; a ring of up to
 * CL_MAX_INFLIGHT frames queued at once; regions of interest filtered in place. It owns the
 * device buffers and staging memory these need, and the pinned and device allocators. Errors
 * are posted on the owner's bus. Used by whoever holds the sink pad's stream lock (the
 * streaming thread, the element's pusher) and from start/stop. */
typedef struct _ClFrames ClFrames;

/* The most frames in flight (the max-inflight property's maximum). */
#define CL_MAX_INFLIGHT 16

/* How a frame's plane reaches the kernel and its result the output buffer. */
typedef enum
{
  CL_PATH_NONE,
  CL_PATH_IN_PLACE,             /* host-unified device: the kernel uses the pinned buffer itself */
  CL_PATH_PINNED_DMA,           /* discrete device: DMA from or to pinned memory */
  CL_PATH_STAGING_COPY,         /* one host memcpy through a pinned staging buffer */
  CL_PATH_PAGEABLE_DMA,         /* discrete device: DMA from or to ordinary (pageable) memory */
  CL_PATH_DEVICE                /* discrete device: device-resident memory, no transfer */
} ClMemPath;

const gchar *cl_mem_path_name (ClMemPath path);

/* What the element's stats show of the frames: written here under lock, read by the stats
 * getter; the element owns it (it outlives a stop). */
typedef struct
{
  GMutex *lock;
  GstClStats stats;
  guint64 host_copies;          /* frames the host copied, each way (memcpy or pageable DMA) */
  ClMemPath path_in, path_out;  /* the last frame's */
  guint64 generic_frames;       /* frames a generic kernel ran on */
} ClFrameStats;

/* The element's side of a frame: the settings' snapshot made current and the layout of a frame
 * of the negotiated format planned (fields: its fields filtered apart) into *L, with what it
 * runs on into *run and the bands property into *bands; size: the matrix side regions of that
 * size run (roi-scale), 0 for the element's own. FALSE after posting an error. */
typedef gboolean (*ClPrepareFunc) (gpointer user, gboolean fields, gint size, ClLayout * L,
    ClFrameRun * run, gint * bands);

/* discrete: frames are copied to device buffers; profiling: the queues record events, counted
 * in stats; copy_parts: pieces of a staging copy; region_whole: the regions' parts from which
 * a frame in host memory moves whole (ClOverrides). NULL with an error posted when the queues
 * or the allocators cannot be made. */
ClFrames *cl_frames_new (GstElement * owner, GstClContext * ctx, gboolean discrete,
    gboolean profiling, gint copy_parts, gint region_whole, ClFrameStats * stats,
    ClPrepareFunc prepare, gpointer user);
/* Drops the frames in flight (once the device is done with them) and frees f. */
void cl_frames_free (ClFrames * f);

/* The context's frame queues f holds: kernels, up, down (ClFrameRun's). */
const cl_command_queue *cl_frames_queues (ClFrames * f);

/* The allocator of the memory caps ask for: device-resident for memory:CLBuffer (on a
 * host-unified device: pinned), else pinned. */
GstAllocator *cl_frames_allocator (ClFrames * f, GstCaps * caps);

/* One frame, complete before the call returns: in and out mapped here (GST_FLOW_OK, or
 * GST_BASE_TRANSFORM_FLOW_DROPPED with a warning for an invalid input, or an error). */
GstFlowReturn cl_frames_run (ClFrames * f, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info, GstBuffer * inbuf, GstBuffer * outbuf);
/* The same for frames GstVideoFilter mapped. */
GstFlowReturn cl_frames_run_mapped (ClFrames * f, GstVideoFrame * in, GstVideoFrame * out);

/* Frames in flight: inbuf and outbuf (both taken) queued as the newest; on failure both are
 * released and the frame is not queued. */
GstFlowReturn cl_frames_push (ClFrames * f, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info, GstBuffer * inbuf, GstBuffer * outbuf);
guint cl_frames_pending (ClFrames * f);
/* The oldest frame's completion event (retained; the caller releases it), NULL with none. */
cl_event cl_frames_oldest_event (ClFrames * f);
/* Whether the oldest frame in flight is finished on the device (pop will not wait). */
gboolean cl_frames_oldest_finished (ClFrames * f);
/* Completes the oldest frame in flight: *outbuf is its output (NULL after a failure). */
GstFlowReturn cl_frames_pop (ClFrames * f, GstBuffer ** outbuf);
/* Drops every frame in flight once the device is done with it (flush, stop). */
void cl_frames_discard (ClFrames * f);

/* Filters the regions rects (frame pixels) of buf in place, the rest untouched. */
GstFlowReturn cl_frames_regions (ClFrames * f, const GstVideoInfo * info, GstBuffer * buf,
    const ClRect * rects, gint n_rects);
/* The same as a frame in flight (buf taken; pop gives it back filtered): the caller keeps
 * pending under max-inflight. */
GstFlowReturn cl_frames_push_regions (ClFrames * f, const GstVideoInfo * info, GstBuffer * buf,
    const ClRect * rects, gint n_rects);
/* The whole of frame src into dst (both of the negotiated formats, mapped on the host), each
 * plane in parallel pieces. FALSE after posting why. */
gboolean cl_frames_copy (ClFrames * f, const GstVideoInfo * in_info,
    const GstVideoInfo * out_info, GstBuffer * dst, GstBuffer * src);

void cl_frames_init_debug (void);

G_END_DECLS

#endif /* __CL_FRAMES_H__ */
