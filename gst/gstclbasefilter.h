/* clconvolve: the base class of the plugin's OpenCL video filters
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_CL_BASE_FILTER_H__
#define __GST_CL_BASE_FILTER_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>

#include "clframes.h"
#include "clpusher.h"
#include "cloverrides.h"
#include "gstclcontext.h"

G_BEGIN_DECLS

/* What every OpenCL video filter of the plugin needs, as GStreamer's GPU elements keep it in
 * a base class (GstCudaBaseTransform, GstGLBaseFilter): the device (device, device-name,
 * device-index, context), its GstContext sharing, start and stop, both pads in system memory
 * and memory:CLBuffer, the allocation proposals and decisions, frames on the device
 * (ClFrames) with frames in flight, their latency and draining (max-inflight, bands),
 * regions filtered in place, passthrough while the subclass's settings do nothing, controller
 * sync, and profiling and stats. A subclass adds its own properties and says, through the
 * class's methods, what a frame runs (prepare) and where (regions). */

#define GST_TYPE_CL_BASE_FILTER (gst_cl_base_filter_get_type ())
#define GST_CL_BASE_FILTER(obj) \
  (G_TYPE_CHECK_INSTANCE_CAST ((obj), GST_TYPE_CL_BASE_FILTER, GstClBaseFilter))
#define GST_CL_BASE_FILTER_CLASS(klass) \
  (G_TYPE_CHECK_CLASS_CAST ((klass), GST_TYPE_CL_BASE_FILTER, GstClBaseFilterClass))
#define GST_CL_BASE_FILTER_GET_CLASS(obj) \
  (G_TYPE_INSTANCE_GET_CLASS ((obj), GST_TYPE_CL_BASE_FILTER, GstClBaseFilterClass))

typedef struct _GstClBaseFilter GstClBaseFilter;
typedef struct _GstClBaseFilterClass GstClBaseFilterClass;

struct _GstClBaseFilter
{
  GstVideoFilter parent;

  /*< protected >*/
  /* under the sink pad's stream lock (the streaming thread, the pusher) and start/stop; ctx
   * also read under the object lock */
  GstClContext *ctx;            /* the device's context, from start to stop */
  ClOverrides o;                /* the developer overrides, read at start */
  gboolean discrete;            /* frames are copied to device memory and back */
  ClFrames *frames;
  ClPusher *pusher;             /* frames in flight: sends each on once it is done */
  GMutex stats_lock;            /* the stats: written under the stream lock */

  /*< private >*/
  /* under the object lock */
  gchar *device;
  gchar *device_name;
  gchar *device_index;          /* "P:D" of the device in use */
  GstClContext *offered;        /* the last context given (set_context, a query, ours) */
  gboolean profiling;
  gint bands;
  guint max_inflight;           /* 0: auto_inflight */
  guint auto_inflight;          /* what 0 means on the device in use */
  gboolean same_caps;           /* the negotiated caps are the same on both sides */
  /* under stats_lock */
  ClFrameStats fstats;
  /* streaming thread only */
  gboolean identity_negotiated; /* the identity when the caps were last chosen */
  GstBuffer *ip_source;         /* in place, a held input: what transform_ip copies first */
  GstBufferPool *held_pool;     /* ... and the frames it is copied into (of the src caps) */
};

struct _GstClBaseFilterClass
{
  GstVideoFilterClass parent_class;

  /* After start has made the device's context and frames: the subclass's device state (FALSE
   * after posting an error). */
  gboolean (*open) (GstClBaseFilter * filter);
  /* Before stop releases them (also after a failed open). */
  void (*close) (GstClBaseFilter * filter);
  /* A frame of info: its layout planned into *L with its kernels ready, what it runs on into
   * *run (fields: its fields filtered apart; size: the matrix side of regions that have their
   * own, ClRect's, 0 for the subclass's). Called at negotiation (set_info, so a format or a
   * build that fails is an error there) and before each frame. FALSE after posting an
   * error. */
  gboolean (*prepare) (GstClBaseFilter * filter, const GstVideoInfo * info, gboolean fields,
      gint size, ClLayout * L, ClFrameRun * run);
  /* Whether the settings leave every sample as it is (buffers then pass through). */
  gboolean (*is_identity) (GstClBaseFilter * filter);
  /* Whether frames are filtered in regions, and buf's (a frame of width x height) into rects
   * (room for CL_MAX_REGIONS): how many. Optional. */
  gboolean (*regions_on) (GstClBaseFilter * filter);
  gint (*collect_regions) (GstClBaseFilter * filter, GstBuffer * buf, gint width,
      gint height, ClRect * rects);
  /* Adds the subclass's fields to the stats structure (under stats_lock). Optional. */
  void (*add_stats) (GstClBaseFilter * filter, GstStructure * stats);

  gpointer _gst_reserved[GST_PADDING];
};

GType gst_cl_base_filter_get_type (void);

/* The frames in flight at most (max-inflight). */
guint gst_cl_base_filter_max_inflight (GstClBaseFilter * filter);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstClBaseFilter, gst_object_unref)

G_END_DECLS

#endif /* __GST_CL_BASE_FILTER_H__ */
