/* clconvolve: the base class of the plugin's OpenCL video filters
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

#include "gstclbasefilter.h"
#include "gstclbufferpool.h"
#include "gstclmemory.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_base_filter_debug);
#define GST_CAT_DEFAULT gst_cl_base_filter_debug

#define DEFAULT_DEVICE ""
#define DEFAULT_PROFILING FALSE
#define DEFAULT_BANDS 0
#define DEFAULT_MAX_INFLIGHT 0

enum
{
  PROP_0,
  PROP_DEVICE,
  PROP_DEVICE_NAME,
  PROP_DEVICE_INDEX,
  PROP_PROFILING,
  PROP_STATS,
  PROP_BANDS,
  PROP_MAX_INFLIGHT,
  PROP_CONTEXT
};

#define gst_cl_base_filter_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE (GstClBaseFilter, gst_cl_base_filter, GST_TYPE_VIDEO_FILTER);

static gboolean
is_identity (GstClBaseFilter * self)
{
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);

  return klass->is_identity && klass->is_identity (self);
}

static gboolean
regions_on (GstClBaseFilter * self)
{
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);

  return klass->regions_on && klass->regions_on (self);
}

/* Filters the regions of buf in place (meta: the buffer whose regions are taken: buf, or the
 * input buf was copied from), waiting for it, or with inflight queued as the newest frame in
 * flight (buf taken). */
static GstFlowReturn
regions_frame (GstClBaseFilter * self, GstBuffer * buf, GstBuffer * meta, gboolean inflight)
{
  const GstVideoInfo *info = &GST_VIDEO_FILTER (self)->in_info;
  ClRect rects[CL_MAX_REGIONS];
  gint n = GST_CL_BASE_FILTER_GET_CLASS (self)->collect_regions (self, meta,
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), rects);

  return inflight ? cl_frames_push_regions (self->frames, info, buf, rects, n) :
      cl_frames_regions (self->frames, info, buf, rects, n);
}

/* The subclass's prepare as ClFrames asks for it (ClPrepareFunc), for a frame of the
 * negotiated format, with the bands property. */
static gboolean
prepare_frame (gpointer user, gboolean fields, gint size, ClLayout * L, ClFrameRun * run,
    gint * bands)
{
  GstClBaseFilter *self = user;

  GST_OBJECT_LOCK (self);
  *bands = self->bands;
  GST_OBJECT_UNLOCK (self);
  return GST_CL_BASE_FILTER_GET_CLASS (self)->prepare (self, &GST_VIDEO_FILTER (self)->in_info,
      fields, size, L, run);
}

/* Syncs the controlled properties (divisor, bias, angle, sigma, amount, roi-*) to the buffer's
 * stream time. */
static void
gst_cl_base_filter_before_transform (GstBaseTransform * bt, GstBuffer * buf)
{
  GstClockTime ts = gst_segment_to_stream_time (&bt->segment, GST_FORMAT_TIME,
      GST_BUFFER_PTS (buf));

  if (GST_CLOCK_TIME_IS_VALID (ts))
    gst_object_sync_values (GST_OBJECT (bt), ts);
}


/* ---------------------------------------------------------------------------------------------
 * Regions of interest (the subclass's collect_regions): in place where both sides have the same
 * caps (GstBaseTransform's transform_ip, on the buffer itself): only the regions' windows are
 * read and only the regions written; the rest of the frame is not touched. Between different
 * memories (system and memory:CLBuffer) the frame is copied first, then filtered in place. */

/* The frames held inputs are copied into go (new caps, stop). */
static void
drop_held_pool (GstClBaseFilter * self)
{
  if (self->held_pool) {
    gst_buffer_pool_set_active (self->held_pool, FALSE);
    gst_clear_object (&self->held_pool);
  }
}


static GstFlowReturn
gst_cl_base_filter_transform_ip (GstBaseTransform * bt, GstBuffer * buf)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (bt);
  GstVideoFilter *vf = GST_VIDEO_FILTER (bt);
  GstBuffer *src = self->ip_source;
  GstFlowReturn ret;

  /* a held input: buf is a new frame of ours that gets its pixels first */
  self->ip_source = NULL;
  if (src && !cl_frames_copy (self->frames, &vf->in_info, &vf->out_info, buf, src)) {
    gst_buffer_unref (src);
    return GST_BASE_TRANSFORM_FLOW_DROPPED;
  }
  ret = regions_frame (self, buf, src ? src : buf, FALSE);
  gst_clear_buffer (&src);
  return ret;
}

/* In place (regions): the input itself when it is writable. Else (upstream holds it: a tee,
 * an application) a frame of our device's memory, which transform_ip fills from the input with
 * a parallel copy: GStreamer's copy-on-write would copy it in one thread through system
 * memory. GstBaseTransform's own would take a buffer of the output pool negotiated before
 * regions were switched on. */
static GstFlowReturn
gst_cl_base_filter_prepare_output_buffer (GstBaseTransform * bt, GstBuffer * inbuf,
    GstBuffer ** outbuf)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (bt);
  GstCaps *caps;

  if (!gst_base_transform_is_in_place (bt) || gst_base_transform_is_passthrough (bt))
    return GST_BASE_TRANSFORM_CLASS (parent_class)->prepare_output_buffer (bt, inbuf, outbuf);
  if (gst_buffer_is_writable (inbuf)) {
    *outbuf = inbuf;
    return GST_FLOW_OK;
  }
  if (!self->held_pool && (caps = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SRC_PAD (bt)))) {
    GstBufferPool *pool = gst_cl_buffer_pool_new (cl_frames_allocator (self->frames, caps));
    GstStructure *config = gst_buffer_pool_get_config (pool);

    gst_buffer_pool_config_set_params (config, caps,
        GST_VIDEO_INFO_SIZE (&GST_VIDEO_FILTER (self)->out_info), 0, 0);
    gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
    if (gst_buffer_pool_set_config (pool, config) && gst_buffer_pool_set_active (pool, TRUE))
      self->held_pool = pool;
    else
      gst_object_unref (pool);
    gst_caps_unref (caps);
  }
  *outbuf = NULL;
  if (self->held_pool)
    gst_buffer_pool_acquire_buffer (self->held_pool, outbuf, NULL);
  if (!*outbuf) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT, ("Could not allocate a frame on %s.",
            self->ctx->device_name), (NULL));
    return GST_FLOW_ERROR;
  }
  GST_BASE_TRANSFORM_GET_CLASS (bt)->copy_metadata (bt, inbuf, *outbuf);
  gst_buffer_replace (&self->ip_source, inbuf);
  return GST_FLOW_OK;
}

/* Regions between different memories: outbuf gets the whole input, then its regions. */
static GstFlowReturn
regions_copy (GstClBaseFilter * self, GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstVideoFilter *vf = GST_VIDEO_FILTER (self);

  return cl_frames_copy (self->frames, &vf->in_info, &vf->out_info, outbuf, inbuf) ?
      regions_frame (self, outbuf, inbuf, FALSE) : GST_BASE_TRANSFORM_FLOW_DROPPED;
}

/* GstVideoFilter needs it set (without it the element would work in place); transform below
 * replaces the path that calls it. */
static GstFlowReturn
gst_cl_base_filter_transform_frame (GstVideoFilter * vf, GstVideoFrame * in, GstVideoFrame * out)
{
  return cl_frames_run_mapped (GST_CL_BASE_FILTER (vf)->frames, in, out);
}

/* One frame at a time (max-inflight=1), its buffers checked before they are mapped. */
static GstFlowReturn
gst_cl_base_filter_transform (GstBaseTransform * bt, GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (bt);
  GstVideoFilter *vf = GST_VIDEO_FILTER (bt);

  if (!vf->negotiated) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL), ("no format negotiated"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  if (regions_on (self))
    return regions_copy (self, inbuf, outbuf);
  return cl_frames_run (self->frames, &vf->in_info, &vf->out_info, inbuf, outbuf);
}

/* ---------------------------------------------------------------------------------------------
 * Frames in flight (max-inflight > 1): GstBaseTransform's generate_output, which may return no
 * buffer, queues each input frame on the device and returns the oldest one's output once
 * max-inflight frames are queued; in between, the pusher sends each frame on as soon as the
 * device has finished it. Events that must see every frame before them (EOS, caps, segments,
 * gaps, the drain query) push the frames in flight first; a flush drops them. */

guint
gst_cl_base_filter_max_inflight (GstClBaseFilter * self)
{
  guint n;

  GST_OBJECT_LOCK (self);
  n = self->max_inflight ? self->max_inflight : self->auto_inflight;
  GST_OBJECT_UNLOCK (self);
  return n;
}

static guint
pending (GstClBaseFilter * self)
{
  return self->frames ? cl_frames_pending (self->frames) : 0;
}

/* The pusher's side (stream lock held) */
static cl_event
pusher_oldest (gpointer user)
{
  GstClBaseFilter *self = user;

  return self->frames ? cl_frames_oldest_event (self->frames) : NULL;
}

static GstFlowReturn
pusher_send (gpointer user, gboolean * more)
{
  GstClBaseFilter *self = user;
  GstFlowReturn ret = GST_FLOW_OK;

  while (ret == GST_FLOW_OK && self->frames && cl_frames_oldest_finished (self->frames)) {
    GstBuffer *out = NULL;

    ret = cl_frames_pop (self->frames, &out);
    if (out)
      ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), out);
  }
  *more = pending (self) > 0;
  return ret;
}

static const ClPusherFuncs pusher_funcs = { pusher_oldest, pusher_send };

static void
wake_pusher (GstClBaseFilter * self)
{
  if (!self->pusher)
    self->pusher = cl_pusher_new (GST_BASE_TRANSFORM_SINK_PAD (self), &pusher_funcs, self);
  cl_pusher_wake (self->pusher);
}

/* The output buffer of inbuf as a frame in flight (prepare_output_buffer: a pooled one, or
 * in place inbuf itself or a frame of ours with ip_source set). Without one (*outbuf NULL)
 * inbuf is dropped and the flow returned. */
static GstFlowReturn
inflight_output (GstClBaseFilter * self, GstBuffer * inbuf, GstBuffer ** outbuf)
{
  GstBaseTransform *bt = GST_BASE_TRANSFORM (self);
  GstFlowReturn ret;

  *outbuf = NULL;
  if (!GST_VIDEO_FILTER (self)->negotiated) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL), ("no format negotiated"));
    gst_buffer_unref (inbuf);
    return GST_FLOW_NOT_NEGOTIATED;
  }
  ret = GST_BASE_TRANSFORM_GET_CLASS (bt)->prepare_output_buffer (bt, inbuf, outbuf);
  if (ret != GST_FLOW_OK || !*outbuf) {
    gst_clear_buffer (&self->ip_source);
    gst_buffer_unref (inbuf);
    *outbuf = NULL;
  }
  return ret;
}

/* Queues inbuf (taken) and an output buffer for it as the newest frame in flight. */
static GstFlowReturn
submit_inflight (GstClBaseFilter * self, GstBuffer * inbuf)
{
  GstVideoFilter *vf = GST_VIDEO_FILTER (self);
  GstBuffer *outbuf = NULL;
  GstFlowReturn ret;

  if ((ret = inflight_output (self, inbuf, &outbuf)) != GST_FLOW_OK || !outbuf)
    return ret;
  ret = cl_frames_push (self->frames, &vf->in_info, &vf->out_info, inbuf, outbuf);
  if (ret != GST_FLOW_OK)
    return ret;
  wake_pusher (self);
  return GST_FLOW_OK;
}

/* Queues inbuf's regions (inbuf taken) as the newest frame in flight: filtered in place, as
 * transform_ip does (inbuf itself when writable, else a frame of ours with its pixels), or
 * into an output frame of the other caps with the whole input first, as regions_copy does. */
static GstFlowReturn
submit_regions_inflight (GstClBaseFilter * self, GstBuffer * inbuf)
{
  GstVideoFilter *vf = GST_VIDEO_FILTER (self);
  GstBuffer *outbuf = NULL, *held;
  GstFlowReturn ret;

  if ((ret = inflight_output (self, inbuf, &outbuf)) != GST_FLOW_OK || !outbuf)
    return ret;
  /* the input's pixels and metas: a held input's (in place), else the input's (borrowed: in
   * place it is outbuf itself, which must stay writable) */
  held = self->ip_source;
  self->ip_source = NULL;
  if (outbuf != inbuf && !cl_frames_copy (self->frames, &vf->in_info, &vf->out_info, outbuf,
          held ? held : inbuf)) {
    gst_clear_buffer (&held);
    gst_buffer_unref (outbuf);
    gst_buffer_unref (inbuf);
    return GST_BASE_TRANSFORM_FLOW_DROPPED;
  }
  ret = regions_frame (self, outbuf, held ? held : inbuf, TRUE);
  gst_clear_buffer (&held);
  if (outbuf != inbuf)
    gst_buffer_unref (inbuf);
  if (ret != GST_FLOW_OK)
    return ret;
  wake_pusher (self);
  return GST_FLOW_OK;
}

/* Pushes every frame in flight downstream, oldest first; the first failure is returned (the
 * frames after it are dropped). */
static GstFlowReturn
drain_inflight (GstClBaseFilter * self)
{
  GstFlowReturn ret = GST_FLOW_OK;

  while (self->frames && cl_frames_pending (self->frames) > 0) {
    GstBuffer *out = NULL;
    GstFlowReturn r = cl_frames_pop (self->frames, &out);

    if (out && ret == GST_FLOW_OK)
      r = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), out);
    else if (out)
      gst_buffer_unref (out);
    if (ret == GST_FLOW_OK)
      ret = r;
  }
  return ret;
}


/* Switches GstBaseTransform's passthrough on while the settings are the identity and the caps
 * the same on both sides (buffers then go out untouched), and off again; the frames in flight
 * leave first, so that none is overtaken. */
static GstFlowReturn
update_passthrough (GstClBaseFilter * self)
{
  GstBaseTransform *bt = GST_BASE_TRANSFORM (self);
  gboolean pass, identity = is_identity (self);

  GST_OBJECT_LOCK (self);
  pass = identity && self->same_caps;
  GST_OBJECT_UNLOCK (self);
  /* the identity with device memory out of system memory in (or the other way round): the
   * caps are chosen again, preferring the input's (fixate_caps) */
  if (identity != self->identity_negotiated) {
    self->identity_negotiated = identity;
    if (identity && !pass)
      gst_base_transform_reconfigure_src (bt);
  }
  if (pass == gst_base_transform_is_passthrough (bt))
    return GST_FLOW_OK;
  if (pass && pending (self) > 0) {
    GstFlowReturn ret = drain_inflight (self);

    if (ret != GST_FLOW_OK)
      return ret;
  }
  GST_INFO_OBJECT (self, pass ? "identity: buffers pass through untouched" :
      "convolving again");
  gst_base_transform_set_passthrough (bt, pass);
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_cl_base_filter_generate_output (GstBaseTransform * bt, GstBuffer ** outbuf)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (bt);
  GstBuffer *inbuf = bt->queued_buf;
  guint max = gst_cl_base_filter_max_inflight (self);
  GstFlowReturn ret = GST_FLOW_OK;
  gboolean regions = regions_on (self), in_place;

  /* what the pusher got from downstream goes upstream with the next frame (once: a
   * not-linked pad may be linked again) */
  if (self->pusher && (ret = cl_pusher_take_flow (self->pusher)) != GST_FLOW_OK) {
    gst_clear_buffer (&bt->queued_buf);
    return ret;
  }
  if (inbuf) {
    ret = update_passthrough (self);
    if (ret != GST_FLOW_OK)
      return ret;
    if (gst_base_transform_is_passthrough (bt))
      return GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output (bt, outbuf);
    /* regions in place where the caps are the same on both sides, in flight as other frames
     * (one at a time: those in flight leave first) */
    if (regions && max <= 1 && pending (self) > 0 && (ret = drain_inflight (self)) !=
        GST_FLOW_OK)
      return ret;
    GST_OBJECT_LOCK (self);
    in_place = regions && self->same_caps;
    GST_OBJECT_UNLOCK (self);
    gst_base_transform_set_in_place (bt, in_place);
  }
  /* one at a time: GstBaseTransform's own path (QoS, transform) */
  if (max <= 1 && pending (self) == 0)
    return GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output (bt, outbuf);
  *outbuf = NULL;
  if (inbuf) {
    bt->queued_buf = NULL;
    ret = regions ? submit_regions_inflight (self, inbuf) : submit_inflight (self, inbuf);
    if (ret == GST_BASE_TRANSFORM_FLOW_DROPPED)
      ret = GST_FLOW_OK;
    if (ret != GST_FLOW_OK)
      return ret;
  }
  /* called again until it returns no buffer: after max-inflight was lowered, every frame
   * beyond the new count leaves now */
  if (pending (self) > 0 && pending (self) >= max)
    ret = cl_frames_pop (self->frames, outbuf);
  return ret;
}

static gboolean
gst_cl_base_filter_sink_event (GstBaseTransform * bt, GstEvent * event)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (bt);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_EOS:
    case GST_EVENT_CAPS:
    case GST_EVENT_SEGMENT:
    case GST_EVENT_GAP:
      drain_inflight (self);
      break;
    case GST_EVENT_FLUSH_STOP:
      if (self->frames)
        cl_frames_discard (self->frames);
      if (self->pusher)
        cl_pusher_reset_flow (self->pusher);
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (bt, event);
}

static gboolean
gst_cl_base_filter_set_info (GstVideoFilter * vf, GstCaps * incaps, GstVideoInfo * in_info,
    GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (vf);
  ClFrameRun run;
  ClLayout L;

  /* the kernels index a frame with 32-bit offsets */
  if (GST_VIDEO_INFO_SIZE (in_info) > G_MAXINT32) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Frames of %dx%d %s are larger than 2 GiB, "
            "which clconvolve does not handle; scale them down first.",
            GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
            GST_VIDEO_INFO_NAME (in_info)), (NULL));
    return FALSE;
  }
  GST_DEBUG_OBJECT (self, "format %s, %d planes", GST_VIDEO_INFO_NAME (in_info),
      GST_VIDEO_INFO_N_PLANES (in_info));
  drop_held_pool (self);
  /* passthrough needs the same memory on both sides, not only the same format */
  GST_OBJECT_LOCK (self);
  self->same_caps = gst_caps_is_equal (incaps, outcaps);
  GST_OBJECT_UNLOCK (self);
  /* the kernels of this format and the current settings, built (and tuned) now */
  return GST_CL_BASE_FILTER_GET_CLASS (self)->prepare (self, in_info, FALSE, 0, &L, &run);
}

/* Offers upstream a pool of our device's memory (and the allocator behind it): pinned memory
 * for system-memory caps, so that sources, decoders and appsrc write frames where the device
 * reads them without a host copy; device-resident memory for memory:CLBuffer. */
static gboolean
gst_cl_base_filter_propose_allocation (GstBaseTransform * bt, GstQuery * decide_query,
    GstQuery * query)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (bt);
  GstAllocationParams params;
  GstAllocator *allocator;
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;
  GstCaps *caps;
  gboolean need_pool;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (!caps || !gst_video_info_from_caps (&info, caps) || !self->frames)
    return FALSE;
  allocator = cl_frames_allocator (self->frames, caps);

  gst_allocation_params_init (&params);
  gst_query_add_allocation_param (query, allocator, &params);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  if (!need_pool)
    return TRUE;

  pool = gst_cl_buffer_pool_new (allocator);
  if (!pool)
    return FALSE;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, 0, 0);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_WARNING_OBJECT (self, "could not configure the pool for %" GST_PTR_FORMAT, caps);
    gst_object_unref (pool);
    return FALSE;
  }
  /* frames in flight hold that many of upstream's buffers */
  gst_query_add_allocation_pool (query, pool, info.size, gst_cl_base_filter_max_inflight (self), 0);
  gst_object_unref (pool);
  return TRUE;
}

/* Output buffers come from a pool of our device's memory of the kind the caps say (pinned, or
 * device-resident for memory:CLBuffer): downstream's if it is one (a second clconvolve on the
 * same device), else ours. The base classes then configure it. */
static gboolean
gst_cl_base_filter_decide_allocation (GstBaseTransform * bt, GstQuery * query)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (bt);
  GstBufferPool *pool = NULL;
  GstAllocator *allocator;
  guint size = 0, min = 0, max = 0;
  GstVideoInfo info;
  GstCaps *caps;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_video_info_from_caps (&info, caps) || !self->frames)
    return FALSE;
  allocator = cl_frames_allocator (self->frames, caps);

  if (gst_query_get_n_allocation_pools (query) > 0) {
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
    if (pool && (gst_cl_buffer_pool_get_context (pool) != self->ctx ||
            gst_cl_buffer_pool_is_device (pool) != gst_cl_allocator_is_device (allocator)))
      gst_clear_object (&pool);
  }
  if (!pool) {
    pool = gst_cl_buffer_pool_new (allocator);
    if (!pool)
      return FALSE;
  }
  size = MAX (size, info.size);
  /* frames in flight hold that many output buffers besides downstream's */
  min += gst_cl_base_filter_max_inflight (self) - 1;
  if (max && max < min)
    max = min;
  /* a pool of ours gets its caps now: GstVideoFilter configures it before GstBaseTransform
   * does (a config without caps is warned about) */
  if (!gst_buffer_pool_is_active (pool)) {
    GstStructure *config = gst_buffer_pool_get_config (pool);

    gst_buffer_pool_config_set_params (config, caps, size, min, max);
    gst_buffer_pool_set_config (pool, config);
  }
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  GST_DEBUG_OBJECT (self, "output pool %" GST_PTR_FORMAT, pool);
  gst_object_unref (pool);

  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (bt, query);
}

/* Both sides take memory:CLBuffer or system memory, whatever the other side has: the element
 * uploads and downloads what is not on the device. */
static GstCaps *
gst_cl_base_filter_transform_caps (GstBaseTransform * bt, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter)
{
  GstCaps *ret = gst_caps_new_empty ();

  if (gst_caps_is_any (caps)) {
    gst_caps_unref (ret);
    ret = gst_caps_ref (caps);
  } else {
    for (gint feature = 0; feature < 2; feature++)
      for (guint i = 0; i < gst_caps_get_size (caps); i++) {
        GstCaps *one = gst_caps_new_full (gst_structure_copy (gst_caps_get_structure (caps,
                    i)), NULL);

        gst_caps_set_features (one, 0, feature == 0 ?
            gst_caps_features_new_single (GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY) :
            gst_caps_features_new_single (GST_CAPS_FEATURE_MEMORY_CL_BUFFER));
        ret = gst_caps_merge (ret, one);
      }
  }
  if (filter) {
    GstCaps *both = gst_caps_intersect_full (filter, ret, GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (ret);
    ret = both;
  }
  GST_DEBUG_OBJECT (bt, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, ret);
  return ret;
}

/* Whether the src pad's peer lists memory:CLBuffer itself (an OpenCL element on the device),
 * rather than taking anything (fakesink, appsink without caps) or only system memory. */
static gboolean
peer_asks_cl (GstBaseTransform * bt)
{
  GstCaps *peer = gst_pad_peer_query_caps (GST_BASE_TRANSFORM_SRC_PAD (bt), NULL);
  gboolean asks = FALSE;

  for (guint i = 0; peer && !gst_caps_is_any (peer) && i < gst_caps_get_size (peer); i++) {
    GstCapsFeatures *features = gst_caps_get_features (peer, i);

    asks |= features && !gst_caps_features_is_any (features) &&
        gst_caps_features_contains (features, GST_CAPS_FEATURE_MEMORY_CL_BUFFER);
  }
  gst_clear_caps (&peer);
  return asks;
}

/* Output in memory:CLBuffer where downstream asks for it (another OpenCL element): the caps
 * list system memory first, which a sink that takes anything then gets. The identity prefers
 * the input's caps instead: the same caps on both sides let buffers pass through. */
static GstCaps *
gst_cl_base_filter_fixate_caps (GstBaseTransform * bt, GstPadDirection direction, GstCaps * caps,
    GstCaps * othercaps)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (bt);

  self->identity_negotiated = is_identity (self);
  if (direction == GST_PAD_SINK && self->identity_negotiated) {
    GstCaps *same = gst_caps_intersect_full (caps, othercaps, GST_CAPS_INTERSECT_FIRST);

    if (gst_caps_is_empty (same))
      gst_caps_unref (same);
    else
      othercaps = gst_caps_merge (same, othercaps);
  } else if (direction == GST_PAD_SINK && peer_asks_cl (bt)) {
    GstCaps *cl = gst_caps_new_empty ();

    for (guint i = 0; i < gst_caps_get_size (othercaps); i++) {
      GstCapsFeatures *features = gst_caps_get_features (othercaps, i);

      if (features && !gst_caps_features_is_any (features) &&
          gst_caps_features_contains (features, GST_CAPS_FEATURE_MEMORY_CL_BUFFER))
        gst_caps_append_structure_full (cl,
            gst_structure_copy (gst_caps_get_structure (othercaps, i)),
            gst_caps_features_copy (features));
    }
    othercaps = gst_caps_merge (cl, othercaps);
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->fixate_caps (bt, direction, caps, othercaps);
}

static void
release_cl (GstClBaseFilter * self)
{
  GstClContext *ctx;

  /* frames still in flight (a stop without EOS) wait for the device before they go */
  g_clear_pointer (&self->pusher, cl_pusher_free);
  if (self->frames) {
    cl_frames_discard (self->frames);
    GST_CL_BASE_FILTER_GET_CLASS (self)->close (self);
  }
  gst_clear_buffer (&self->ip_source);
  drop_held_pool (self);
  g_clear_pointer (&self->frames, cl_frames_free);
  /* the context property reads it under the lock */
  GST_OBJECT_LOCK (self);
  ctx = self->ctx;
  self->ctx = NULL;
  self->auto_inflight = 1;
  GST_OBJECT_UNLOCK (self);
  /* no longer counted on the device (device=auto's load) */
  gst_cl_context_leave (ctx);
  gst_cl_context_release (ctx);
}


/* device-name and device-index: ctx's, or NULL. Notifies only a change: gst-launch-1.0 -v
 * would print "device-name = (null)" at start. */
static void
show_device (GstClBaseFilter * self, GstClContext * ctx)
{
  const gchar *name = ctx ? ctx->device_name : NULL, *index = ctx ? ctx->index_spec : NULL;
  gboolean name_changed, index_changed;

  GST_OBJECT_LOCK (self);
  name_changed = g_strcmp0 (self->device_name, name) != 0;
  if (name_changed) {
    g_free (self->device_name);
    self->device_name = g_strdup (name);
  }
  index_changed = g_strcmp0 (self->device_index, index) != 0;
  if (index_changed) {
    g_free (self->device_index);
    self->device_index = g_strdup (index);
  }
  GST_OBJECT_UNLOCK (self);
  if (name_changed)
    g_object_notify (G_OBJECT (self), "device-name");
  if (index_changed)
    g_object_notify (G_OBJECT (self), "device-index");
}

static gboolean
gst_cl_base_filter_start (GstBaseTransform * bt)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (bt);
  GstClContext *ctx;
  GError *error = NULL;
  gboolean profiling;
  gchar *spec;

  GST_OBJECT_LOCK (self);
  spec = g_strdup (self->device);
  GST_OBJECT_UNLOCK (self);

  show_device (self, NULL);
  ctx = gst_cl_context_ensure_element (GST_ELEMENT (self), spec, &self->offered, &error);
  GST_OBJECT_LOCK (self);
  self->ctx = ctx;
  GST_OBJECT_UNLOCK (self);
  if (!self->ctx) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("%s", error->message),
        ("device=\"%s\"", spec));
    g_clear_error (&error);
    g_free (spec);
    return FALSE;
  }
  g_free (spec);

  GST_OBJECT_LOCK (self);
  profiling = self->profiling;
  GST_OBJECT_UNLOCK (self);
  g_mutex_lock (&self->stats_lock);
  gst_cl_stats_init (&self->fstats.stats);
  self->fstats.host_copies = 0;
  self->fstats.path_in = self->fstats.path_out = CL_PATH_NONE;
  self->fstats.generic_frames = 0;
  g_mutex_unlock (&self->stats_lock);

  self->o = cl_overrides_read (CL_MAX_COPY_PARTS);
  self->discrete = !self->ctx->host_unified;
  if (!self->discrete && self->o.discrete) {
    GST_WARNING_OBJECT (self, "%s set: copying frames to device buffers (developer override)",
        CL_DISCRETE_ENV);
    self->discrete = TRUE;
  }
  /* a device with memory of its own uploads the next frame while the last one's kernel and
   * download run; on one sharing the host's memory there is nothing to overlap */
  GST_OBJECT_LOCK (self);
  self->auto_inflight = self->discrete ? 2 : 1;
  GST_OBJECT_UNLOCK (self);
  self->frames = cl_frames_new (GST_ELEMENT (self), self->ctx, self->discrete, profiling,
      self->o.copy_parts, self->o.region_whole, &self->fstats, prepare_frame, self);
  if (!self->frames || !GST_CL_BASE_FILTER_GET_CLASS (self)->open (self))
    goto fail;

  show_device (self, self->ctx);
  GST_INFO_OBJECT (self, "using OpenCL device %s %s", self->ctx->index_spec,
      self->ctx->device_name);
  return TRUE;

fail:
  release_cl (self);
  return FALSE;
}

static gboolean
gst_cl_base_filter_stop (GstBaseTransform * bt)
{
  release_cl (GST_CL_BASE_FILTER (bt));
  show_device (GST_CL_BASE_FILTER (bt), NULL);
  return TRUE;
}

/* Contexts the pipeline or the application give: kept for the next start (one in use is
 * never swapped mid-stream). */
static void
gst_cl_base_filter_set_context (GstElement * element, GstContext * context)
{
  gst_cl_context_set_element_context (element, context,
      &GST_CL_BASE_FILTER (element)->offered);
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

static gboolean
gst_cl_base_filter_query (GstBaseTransform * bt, GstPadDirection direction, GstQuery * query)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (bt);
  gboolean ok, placed;

  GST_OBJECT_LOCK (self);
  placed = gst_cl_device_spec_is_auto (self->device);
  GST_OBJECT_UNLOCK (self);
  /* a placed element answers with the context it runs on, or not at all: what it was given
   * or ran on before would decide a neighbour's place instead of the load */
  if (gst_cl_context_handle_query (GST_ELEMENT (bt), query, placed ? &self->ctx :
          &self->offered))
    return TRUE;
  /* serialized on the sink pad; the stream lock keeps the pusher out */
  if (direction == GST_PAD_SINK && GST_QUERY_TYPE (query) == GST_QUERY_DRAIN) {
    GST_PAD_STREAM_LOCK (GST_BASE_TRANSFORM_SINK_PAD (bt));
    drain_inflight (self);
    GST_PAD_STREAM_UNLOCK (GST_BASE_TRANSFORM_SINK_PAD (bt));
  }
  /* GstPad runs a serialized query under the stream lock but, unlike data and events, also
   * on a flushing pad: an allocation query that comes after the deactivation took and left
   * the stream lock would then decide an allocation while stop () runs, and store its query
   * after GstBaseTransform released the last one (never freed). A pad found not flushing under
   * the lock cannot be deactivated before the answer ends. */
  if (direction == GST_PAD_SINK && GST_QUERY_TYPE (query) == GST_QUERY_ALLOCATION) {
    GstPad *sink = GST_BASE_TRANSFORM_SINK_PAD (bt);
    gboolean flushing;

    GST_PAD_STREAM_LOCK (sink);
    GST_OBJECT_LOCK (sink);
    flushing = GST_PAD_IS_FLUSHING (sink);
    GST_OBJECT_UNLOCK (sink);
    ok = !flushing && GST_BASE_TRANSFORM_CLASS (parent_class)->query (bt, direction, query);
    GST_PAD_STREAM_UNLOCK (sink);
    return ok;
  }
  ok = GST_BASE_TRANSFORM_CLASS (parent_class)->query (bt, direction, query);
  /* a frame leaves as soon as it is done (the pusher), but may wait behind max-inflight - 1
   * frames queued before it */
  if (ok && direction == GST_PAD_SRC && GST_QUERY_TYPE (query) == GST_QUERY_LATENCY) {
    GstVideoInfo *info = &GST_VIDEO_FILTER (bt)->in_info;
    guint extra = gst_cl_base_filter_max_inflight (self) - 1;
    GstClockTime min, max, added = 0;
    gboolean live;

    if (extra > 0 && GST_VIDEO_INFO_FPS_N (info) > 0)
      added = gst_util_uint64_scale_int (extra * GST_SECOND, GST_VIDEO_INFO_FPS_D (info),
          GST_VIDEO_INFO_FPS_N (info));
    gst_query_parse_latency (query, &live, &min, &max);
    GST_DEBUG_OBJECT (self, "%u frames in flight add %" GST_TIME_FORMAT, extra + 1,
        GST_TIME_ARGS (added));
    gst_query_set_latency (query, live, min,
        GST_CLOCK_TIME_IS_VALID (max) ? max + added : max);
  }
  return ok;
}

/* ---------------------------------------------------------------------------------------------
 * Properties */

static GstStructure *
stats_structure (GstClBaseFilter * self)
{
  GstClBaseFilterClass *klass = GST_CL_BASE_FILTER_GET_CLASS (self);
  GstClStats *s = &self->fstats.stats;
  GstStructure *st;

  g_mutex_lock (&self->stats_lock);
  gst_cl_stats_fold (s);
  st = gst_structure_new ("application/x-clconvolve-stats",
      "frames", G_TYPE_UINT64, s->frames,
      "upload-ns", G_TYPE_UINT64, s->stage_ns[GST_CL_STAGE_UPLOAD],
      "kernel-ns", G_TYPE_UINT64, s->stage_ns[GST_CL_STAGE_KERNEL],
      "download-ns", G_TYPE_UINT64, s->stage_ns[GST_CL_STAGE_DOWNLOAD],
      "busy-ns", G_TYPE_UINT64, s->busy_ns,
      "overlap-ns", G_TYPE_UINT64, s->overlap_ns,
      "span-ns", G_TYPE_UINT64, s->last_ns - s->first_ns,
      "host-copies", G_TYPE_UINT64, self->fstats.host_copies,
      "input-path", G_TYPE_STRING, cl_mem_path_name (self->fstats.path_in),
      "output-path", G_TYPE_STRING, cl_mem_path_name (self->fstats.path_out),
      "generic-frames", G_TYPE_UINT64, self->fstats.generic_frames, NULL);
  if (klass->add_stats)
    klass->add_stats (self, st);
  g_mutex_unlock (&self->stats_lock);
  return st;
}

static void
gst_cl_base_filter_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (object);

  switch (prop_id) {
    case PROP_PROFILING:
      GST_OBJECT_LOCK (self);
      self->profiling = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_BANDS:
      GST_OBJECT_LOCK (self);
      self->bands = g_value_get_int (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_MAX_INFLIGHT:{
      guint n = g_value_get_uint (value), old;

      GST_OBJECT_LOCK (self);
      old = self->max_inflight;
      self->max_inflight = n;
      GST_OBJECT_UNLOCK (self);
      /* the latency the element adds changed: the pipeline asks again */
      if (n != old)
        gst_element_post_message (GST_ELEMENT (self),
            gst_message_new_latency (GST_OBJECT (self)));
      break;
    }
    case PROP_DEVICE:{
      const gchar *spec = g_value_get_string (value);
      gchar *why = NULL;

      gboolean running;

      if (!gst_cl_device_spec_check (spec, &why)) {
        g_warning ("%s: %s; keeping the previous device", GST_OBJECT_NAME (self), why);
        g_free (why);
        break;
      }
      /* the device is read when the element starts: a new one while it runs would read back
       * as a device not in use */
      GST_OBJECT_LOCK (self);
      running = self->ctx != NULL;
      if (running)
        why = g_strdup_printf ("keeping device=\"%s\" (%s)", self->device,
            self->device_name ? self->device_name : "starting");
      else {
        g_free (self->device);
        self->device = g_strdup (spec ? spec : DEFAULT_DEVICE);
      }
      GST_OBJECT_UNLOCK (self);
      if (running)
        g_warning ("%s: device=\"%s\" refused: the device cannot change while the element "
            "runs (set it in the NULL or READY state); %s", GST_OBJECT_NAME (self),
            spec ? spec : "", why);
      g_free (why);
      break;
    }
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cl_base_filter_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (object);

  if (prop_id == PROP_STATS) {
    g_value_take_boxed (value, stats_structure (self));
    return;
  }
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE:
      g_value_set_string (value, self->device);
      break;
    case PROP_DEVICE_NAME:
      g_value_set_string (value, self->device_name);
      break;
    case PROP_DEVICE_INDEX:
      g_value_set_string (value, self->device_index);
      break;
    case PROP_PROFILING:
      g_value_set_boolean (value, self->profiling);
      break;
    case PROP_BANDS:
      g_value_set_int (value, self->bands);
      break;
    case PROP_MAX_INFLIGHT:
      g_value_set_uint (value, self->max_inflight);
      break;
    case PROP_CONTEXT:
      g_value_set_object (value, self->ctx);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cl_base_filter_finalize (GObject * object)
{
  GstClBaseFilter *self = GST_CL_BASE_FILTER (object);

  release_cl (self);
  g_free (self->device);
  g_free (self->device_name);
  g_free (self->device_index);
  gst_clear_object (&self->offered);
  gst_cl_stats_clear (&self->fstats.stats);
  g_mutex_clear (&self->stats_lock);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* Each blurb is one line for gst-inspect; the details are in docs/properties.md. */
static void
install_properties (GObjectClass * gobject_class)
{
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;
  const GParamFlags live = rw | GST_PARAM_MUTABLE_PLAYING;

  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device", "OpenCL device: empty for the least loaded GPU, "
          "a type, P:D indices, part of its name, or auto (see docs/properties.md)",
          DEFAULT_DEVICE, rw | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_DEVICE_NAME,
      g_param_spec_string ("device-name", "Device name", "The OpenCL device in use, as "
          "'device (platform)', NULL while the element is stopped", NULL,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_DEVICE_INDEX,
      g_param_spec_string ("device-index", "Device index", "The OpenCL device in use, as the "
          "'P:D' indices device accepts, NULL while the element is stopped", NULL,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_PROFILING,
      g_param_spec_boolean ("profiling", "Profiling", "Time every upload, kernel and download "
          "with OpenCL profiling events, reported in stats",
          DEFAULT_PROFILING, rw | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics", "Counters since the element started: frames, "
          "transfer paths, programs, tunings, variant and device times",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_BANDS,
      g_param_spec_int ("bands", "Bands", "Horizontal bands per frame whose transfers and "
          "kernel overlap on a GPU, 0 for automatic", 0, CL_MAX_BANDS, DEFAULT_BANDS, live));
  g_object_class_install_property (gobject_class, PROP_MAX_INFLIGHT,
      g_param_spec_uint ("max-inflight", "Frames in flight", "Frames queued on the device at "
          "once, each leaving when done, 0 for automatic (2 on a GPU, 1 on a CPU)", 0,
          CL_MAX_INFLIGHT, DEFAULT_MAX_INFLIGHT, live));
  g_object_class_install_property (gobject_class, PROP_CONTEXT,
      g_param_spec_object ("context", "Context", "The OpenCL context in use (a GstClContext), "
          "NULL while the element is stopped",
          GST_TYPE_CL_CONTEXT, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void
gst_cl_base_filter_class_init (GstClBaseFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *bt_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVideoFilterClass *vf_class = GST_VIDEO_FILTER_CLASS (klass);

  /* the element's category: GST_DEBUG=clconvolve:N shows a stream's whole story (paths,
   * variants, jobs, bands), as before the element was split into modules */
  GST_DEBUG_CATEGORY_INIT (gst_cl_base_filter_debug, "clconvolve", 0, "OpenCL convolution");
  cl_frames_init_debug ();

  gobject_class->set_property = gst_cl_base_filter_set_property;
  gobject_class->get_property = gst_cl_base_filter_get_property;
  gobject_class->finalize = gst_cl_base_filter_finalize;
  install_properties (gobject_class);

  bt_class->start = GST_DEBUG_FUNCPTR (gst_cl_base_filter_start);
  bt_class->query = GST_DEBUG_FUNCPTR (gst_cl_base_filter_query);
  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cl_base_filter_set_context);
  bt_class->stop = GST_DEBUG_FUNCPTR (gst_cl_base_filter_stop);
  bt_class->before_transform = GST_DEBUG_FUNCPTR (gst_cl_base_filter_before_transform);
  bt_class->propose_allocation = GST_DEBUG_FUNCPTR (gst_cl_base_filter_propose_allocation);
  bt_class->decide_allocation = GST_DEBUG_FUNCPTR (gst_cl_base_filter_decide_allocation);
  bt_class->transform_caps = GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform_caps);
  bt_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_cl_base_filter_fixate_caps);
  vf_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_base_filter_set_info);
  /* set although transform below calls it: GstVideoFilter works in place without it */
  vf_class->transform_frame = GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform_frame);
  bt_class->transform_ip = GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform_ip);
  bt_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cl_base_filter_prepare_output_buffer);
  bt_class->transform = GST_DEBUG_FUNCPTR (gst_cl_base_filter_transform);
  bt_class->generate_output = GST_DEBUG_FUNCPTR (gst_cl_base_filter_generate_output);
  /* passthrough (the identity) leaves the buffer alone: no in-place pass */
  bt_class->transform_ip_on_passthrough = FALSE;
  bt_class->sink_event = GST_DEBUG_FUNCPTR (gst_cl_base_filter_sink_event);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_BASE_FILTER, 0);
}

static void
gst_cl_base_filter_init (GstClBaseFilter * self)
{
  self->device = g_strdup (DEFAULT_DEVICE);
  self->profiling = DEFAULT_PROFILING;
  self->bands = DEFAULT_BANDS;
  self->max_inflight = DEFAULT_MAX_INFLIGHT;
  self->auto_inflight = 1;
  g_mutex_init (&self->stats_lock);
  self->fstats.lock = &self->stats_lock;
  gst_cl_stats_init (&self->fstats.stats);
}
